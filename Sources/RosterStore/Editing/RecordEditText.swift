#if !ROSTER_FUZZ
import RosterCore
#endif

/// A person as the text `v` hands the user's editor (`$VISUAL`,
/// `$EDITOR`), and that text, saved, read back as changes: the record as
/// JSON under a few `//` lines that say what to do (and what was wrong
/// with the last try), which are left out when it is read.
public enum RecordEditText {
    /// The text for `person`'s record, with `problem` (why the last try
    /// did not read) at the top; with their `manager` where the source
    /// keeps one (a first `"manager"` member, `""` for none: first, so that
    /// taking its line out leaves JSON that reads, no comma left hanging).
    public static func text(for person: Person, manager: ManagerField = .notKept, problem: String? = nil) -> String {
        let exported = String(decoding: DirectoryExporter(format: .json).export([person]), as: UTF8.self)
        var record: String
        if let open = exported.firstIndex(of: "{"), let close = exported.lastIndex(of: "}") {
            record = String(exported[open...close])
        } else {
            record = "{}"
        }
        if case .reference(let reference) = manager, let open = record.firstIndex(of: "{") {
            // Before the first member, in the exporter's spacing: a line at its indentation, and `,` when members follow.
            let rest = record[record.index(after: open)...].drop { $0.isWhitespace }
            let member = "\"\(FileManagerReferences.fieldName)\": " + DirectoryExporter.jsonString(reference ?? "")
            record = "{\n  " + member + (rest.first == "}" ? "\n}" : ",\n  " + rest)
        }
        return header(for: person, problem: problem) + record + "\n"
    }

    /// The manager the saved text names: its `"manager"` member (a text, or
    /// a number as written); "" (none) when it has none, or no record reads.
    public static func manager(in text: String) -> String {
        let body = Array(withoutHeader(text).utf8)
        guard let open = body.firstIndex(of: UInt8(ascii: "{")) else { return "" }
        return body.withUnsafeBufferPointer { bytes in
            RecordFieldReader(fileBytes: bytes, format: .json, field: FileManagerReferences.fieldName).value(atRecordStartingAt: open)
                .map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// `edited` with its header written again for `problem`: the user's
    /// text is never thrown away.
    public static func text(reopening edited: String, for person: Person, problem: String) -> String {
        let kept = withoutHeader(edited).split(separator: "\n", omittingEmptySubsequences: false).drop { $0.isEmpty }
        return header(for: person, problem: problem) + kept.joined(separator: "\n")
    }

    private static func header(for person: Person, problem: String?) -> String {
        // Always four lines, so that a line number in a problem is the
        // line of the text as saved, and of the text reopened.
        var lines: [String] = []
        lines.append(problem.map { "// not saved: \($0.replacingOccurrences(of: "\n", with: " "))" } ?? "// Roster")
        lines.append("// \(person.fullName.isEmpty ? "This person" : person.fullName): save and quit to keep your changes; quit without")
        lines.append("// saving, or empty the file, to change nothing. Lines starting with // are left out.")
        lines.append("// The _id cannot change; fields Roster does not know are not saved from here.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text with its `//` lines blank (kept as lines, so that line
    /// numbers stay those of the file the user edited).
    private static func withoutHeader(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//") ? "" : $0 }
            .joined(separator: "\n")
    }

    /// The editor's bytes as text, and where they first are not UTF-8
    /// ("line 6, byte 14 is not UTF-8 …", counted in the file as saved):
    /// each such stretch is shown as `�`, and everything else is kept, so
    /// that the editor can be reopened on it with the problem said.
    public static func decoding(_ bytes: [UInt8]) -> (text: String, problem: String?) {
        let text = String(decoding: bytes, as: UTF8.self)
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0, line = 1, lineStart = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    lineStart = offset
                }
            case .emptyInput:
                return (text, nil)
            case .error:
                let problem = "line \(line), byte \(offset - lineStart + 1) is not UTF-8 (it shows as \u{FFFD}); type that character again"
                return (text, problem)
            }
        }
    }

    /// What the user's saved text means for `base`.
    public enum Reading: Equatable, Sendable {
        /// Nothing to save (the text emptied, or no field changed).
        case unchanged
        case changes([FieldChange])
        /// Why the text does not read as the person's record.
        case problem(String)
    }

    public static func reading(_ text: String, base: Person) -> Reading {
        let body = withoutHeader(text)
        guard body.contains(where: { !$0.isWhitespace }) else { return .unchanged }
        let edited: Person
        do throws(LoadError) {
            let loaded = try PeopleLoader(format: .json).load(bytes: Array(("[" + body + "]").utf8), sourceName: "the record")
            // Left without a name, the record is skipped: said as every editor says it.
            if let skipped = loaded.skipped.first {
                if skipped.reason == PeopleParser.noName { return .problem(FieldCheck.nameNeeded) }
                return .problem(placed(skipped.reason, key: quotedKey(in: skipped.reason), in: body, else: skipped.line))
            }
            guard loaded.store.count == 1 else { return .problem("expected one record, found \(loaded.store.count)") }
            edited = loaded.store[0]
        } catch {
            return .problem(error.message)
        }
        guard edited.id == base.id else { return .problem("the _id cannot change (it is \(base.id))") }
        var changes: [FieldChange] = []
        for (_, field) in EditableField.names where edited.value(of: field) != base.value(of: field) {
            do throws(EditProblem) {
                changes.append(try FieldCheck.change(field, edited.value(of: field)))
            } catch {
                return .problem(placed(error.message, key: key(of: field), in: body, else: nil))
            }
        }
        return changes.isEmpty ? .unchanged : .changes(changes)
    }

    /// `problem` at the line of the field it is about ("line 9: email:
    /// expected name@domain…"), where `key` is in `text`; else at `line`
    /// (the record's start), else as it is. The line is the edited file's:
    /// an editor's `:9` goes to it.
    static func placed(_ problem: String, key: String?, in text: String, else line: Int?) -> String {
        let found = key.flatMap { key in
            text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { line in
                guard let range = line.range(of: "\"\(key)\"") else { return false }
                return line[range.upperBound...].drop(while: { $0 == " " || $0 == "\t" }).first == ":"
            }
        }
        guard let place = found.map({ $0 + 1 }) ?? line else { return problem }
        return "line \(place): \(problem)"
    }

    /// The key a loader's reason quotes ("'age' should be a number…" → age;
    /// "'name.first'…" → first, as the record spells it inside "name").
    static func quotedKey(in reason: String) -> String? {
        let parts = reason.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty, !parts[1].contains(" ") else { return nil }
        return parts[1].split(separator: ".").last.map(String.init)
    }

    /// The key the text `v` hands over gives `field` (inside "name" for the names).
    static func key(of field: EditableField) -> String {
        switch field {
        case .text(let text): return PersonKey.text(text).name.split(separator: ".").last.map(String.init) ?? "\(text)"
        case .age: return PersonKey.age.name
        case .balance: return PersonKey.text(.balance).name
        case .active: return PersonKey.isActive.name
        }
    }
}
