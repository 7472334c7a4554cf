import Foundation
import Testing

/// README.md and docs/*.md as a reader meets them in a clone: every link
/// reaches a file of the repository (and, with `#`, a heading or anchor in
/// it), none leaves the repository, the README fits its first-day budget,
/// and the pages say what Roster does, not what it may do one day.
@Suite("Documentation")
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL

    /// README.md and every page under docs/.
    static func pages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [root.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }

    @Test("every relative link reaches a file of the repository, and its #anchor a heading there")
    func linksResolve() throws {
        var checked = 0
        var anchorsOf: [URL: [String]] = [:]
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in MarkdownText.links(in: text) {
                checked += 1
                let (path, anchor) = MarkdownText.split(link)
                #expect(MarkdownText.scheme(of: link) == nil, "\(page.lastPathComponent): \(link) leaves the repository")
                guard MarkdownText.scheme(of: link) == nil else { continue }
                let target = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(target.path.hasPrefix(Self.root.path + "/"), "\(page.lastPathComponent): \(link) is outside the repository")
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page.lastPathComponent): \(link): no such file")
                guard let anchor, target.pathExtension == "md", FileManager.default.fileExists(atPath: target.path) else { continue }
                if anchorsOf[target] == nil { anchorsOf[target] = MarkdownText.anchors(in: try String(contentsOf: target, encoding: .utf8)) }
                #expect(anchorsOf[target]?.contains(anchor) == true, "\(page.lastPathComponent): \(link): no heading or anchor '\(anchor)' there")
            }
        }
        #expect(checked > 50)
    }

    @Test("no web address in the pages' text: they link only inside the repository")
    func noOutsideAddresses() throws {
        for page in try Self.pages() {
            let prose = MarkdownText.prose(try String(contentsOf: page, encoding: .utf8))
            #expect(!prose.contains("://"), "\(page.lastPathComponent) names an address outside the repository")
            #expect(!prose.contains("STYLE.md"), "\(page.lastPathComponent) points at a guide a clone does not have")
        }
    }

    @Test("the README fits a newcomer's first screens: at most 200 lines")
    func readmeIsShort() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
    }

    @Test("the pages say what Roster does: no roadmap notes, never 'seed'")
    func plainWords() throws {
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            #expect(!text.contains("Not yet"), "\(page.lastPathComponent)")
            #expect(!text.lowercased().contains("seed"), "\(page.lastPathComponent)")
        }
    }

    @Test("headings become the anchors GitHub makes of them")
    func anchorsAsGitHubMakesThem() {
        let text = """
        # Keys
        ## Counts by field (`F`)
        ### Edits made offline: the outbox
        ## Keys
        <a id="custom"></a>
        ```
        # not a heading
        ```
        """
        #expect(MarkdownText.anchors(in: text) == ["keys", "counts-by-field-f", "edits-made-offline-the-outbox", "keys-1", "custom"])
        #expect(MarkdownText.links(in: "[a](x.md#y) `[b](no.md)` [c](https://example.com)\n```\n[d](no.md)\n```\n") == ["x.md#y", "https://example.com"])
    }
}

/// Just enough Markdown to check links: code left out, links, anchors.
enum MarkdownText {
    /// The text outside fenced code blocks and inline code spans (which
    /// may run over a line break).
    static func prose(_ text: String) -> String {
        var lines: [String] = []
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { lines.append(line) }
        }
        return lines.joined(separator: "\n").replacing(/`[^`]*`/, with: "")
    }

    /// The targets of `[text](target)` links outside code.
    static func links(in text: String) -> [String] {
        prose(text).matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.output.1) }
    }

    static func scheme(of link: String) -> String? {
        link.firstMatch(of: /^([a-zA-Z][a-zA-Z0-9+.-]*):/).map { String($0.output.1) }
    }

    static func split(_ link: String) -> (path: String, anchor: String?) {
        guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
        return (String(link[..<hash]), String(link[link.index(after: hash)...]))
    }

    /// Every heading's anchor as GitHub makes it (lower case, punctuation
    /// dropped, spaces as hyphens, a repeated one numbered) and every
    /// `<a id="…">`.
    static func anchors(in text: String) -> [String] {
        var anchors: [String] = []
        var seen: [String: Int] = [:]
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            for match in line.matches(of: /<a id="([^"]+)">/) { anchors.append(String(match.output.1)) }
            guard let heading = line.firstMatch(of: /^#{1,6} +(.*?) *$/) else { continue }
            let slug = String(heading.output.1.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
                return nil
            })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }
}
