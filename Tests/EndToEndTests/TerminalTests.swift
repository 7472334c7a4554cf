import Foundation
import Testing
import TestTraits

/// The real binary in a real terminal (tmux, 80×24, its own socket).
@Suite("End to end in tmux", .serialized, .blockingWork)
struct TerminalTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    static func headers(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").dropFirst().dropLast(2)
            .filter { !$0.hasPrefix(" ") && !$0.isEmpty }
            .map { String($0[..<($0.range(of: " (")?.lowerBound ?? $0.endIndex)]) }
    }

    @Test("browse the bundled directory: sorted headers, detail, back, resize, quit")
    func browse() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "Roster — sample directory (read-only)"))
        #expect(session.waitFor(text: "1/400"))
        let headers = Self.headers(session.screen())
        #expect(headers.count >= 2)
        #expect(headers == headers.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending })

        session.send("j")
        #expect(session.waitFor(text: "2/400"))
        let selectedName = try #require(session.lines().first { $0.hasPrefix("  ") && session.lines().firstIndex(of: $0) == 4 })
            .trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first ?? ""
        session.send("Enter")
        #expect(session.waitFor(text: "First name"))
        let detail = session.screen()
        #expect(detail.contains(selectedName))
        let email = detail.components(separatedBy: "\n").first { $0.contains("Email  ") }
        #expect(email?.contains("@") == true)

        session.send("Down")
        #expect(session.waitFor(text: "3/400"))
        session.send("Escape")
        #expect(session.waitFor(text: "⏎ open"))
        #expect(session.screen().contains("3/400"))

        session.resize(rows: 30, columns: 100)
        #expect(session.waitFor("the list at 100 columns") { screen in
            // capture-pane trims the bar's trailing space: 99 of 100 columns.
            (screen.components(separatedBy: "\n").first?.count ?? 0) >= 99 && screen.contains("3/400")
        })
        session.resize(rows: 8, columns: 30)
        #expect(session.waitFor(text: "Terminal too small"))
        session.resize(rows: 24, columns: 80)
        #expect(session.waitFor(text: "3/400"))

        session.send("q")
        #expect(session.exitStatus() == 0)
        #expect(session.waitFor(text: "roster exited 0"))
        #expect(session.paneFlag("#{alternate_on}") == "0")
        #expect(session.paneFlag("#{cursor_flag}") == "1")
        #expect(!session.screen().contains("Roster — sample directory"))
    }

    @Test("y in the detail under tmux's default set-clipboard external still reaches tmux's buffer, and says so")
    func copyEmailWithDefaultTmux() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        _ = try session.tmux(["set-option", "-g", "set-clipboard", "external"])
        session.send("Enter")
        #expect(session.waitFor("the person's screen, drawn down to the last field") { $0.contains("Email  ") && $0.contains("Favorite fruit") })
        let email = try #require(session.lines().first { $0.contains("Email  ") }?.components(separatedBy: "Email  ").last)
            .trimmingCharacters(in: .whitespaces)
        session.send("y")
        #expect(session.waitFor(text: "copied \(email) to tmux's buffer"))
        #expect(try session.tmux(["show-buffer"]) == email)
        session.send("q")
    }

    @Test("y in the detail copies the email through OSC 52 (into tmux's buffer)")
    func copyEmail() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        _ = try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        session.send("Enter")
        #expect(session.waitFor("the person's screen, drawn down to the last field") { $0.contains("Email  ") && $0.contains("Favorite fruit") })
        let email = try #require(session.lines().first { $0.contains("Email  ") }?.components(separatedBy: "Email  ").last)
            .trimmingCharacters(in: .whitespaces)
        session.send("y")
        #expect(session.waitFor(text: "copied \(email)"))
        #expect(try session.tmux(["show-buffer"]) == email)
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("--mouse: a click selects and a double click opens (X10 mouse reports typed into the pane)")
    func mouse() throws {
        let session = try TmuxSession(binary + " --mouse")
        #expect(session.waitFor(text: "1/400"))
        let press = "\u{1B}[M" + String(UnicodeScalar(32)) + String(UnicodeScalar(37)) + String(UnicodeScalar(37))
        let release = "\u{1B}[M" + String(UnicodeScalar(35)) + String(UnicodeScalar(37)) + String(UnicodeScalar(37))
        session.type(press + release)  // row 5, column 5: the second person (under the titles and a company)
        #expect(session.waitFor(text: "2/400"))
        session.type(press + release + press + release)
        #expect(session.waitFor(text: "First name"))
        session.send("q")
        #expect(session.exitStatus() == 0)
        #expect(session.paneFlag("#{mouse_any_flag}") == "0")
    }

    @Test("? shows every key of the screen; Esc closes it; s changes the order shown in the status bar")
    func helpAndSort() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        session.send("?")
        #expect(session.waitFor("the list's keys") {
            $0.contains("Roster — List keys") && $0.contains("company overview") && $0.contains("sort by a column, descending")
        })
        session.send("Escape")
        #expect(session.waitFor(text: "last name ↑"))
        // q closes the help, as in less; it does not quit.
        session.send("?")
        #expect(session.waitFor(text: "Roster — List keys"))
        session.send("q")
        #expect(session.waitFor(text: "last name ↑"))
        #expect(!session.screen().contains("List keys"))
        // Who should come first: the richest of the first company, as --list says.
        let listed = try runRoster(["--list", "--sort", "balance:desc"]).output.components(separatedBy: "\n")
        let richest = try #require(listed.dropFirst().first?.trimmingCharacters(in: .whitespaces).components(separatedBy: "\t").first)
        #expect(!session.lines()[3].contains(richest), "the richest is not first by name already")
        // s: first name, then the shown columns in order: email, age, active, phone, city, balance.
        session.send("s", "s", "s", "s", "s", "s", "s")
        #expect(session.waitFor(text: "balance ↑"))
        session.send("S")  // largest first
        #expect(session.waitFor(text: "balance ↓"))
        session.send("g")
        #expect(session.waitFor("\(richest) first") { $0.components(separatedBy: "\n")[3].contains(richest) })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("colour by default; none with NO_COLOR or --no-color, the selection still in reverse video")
    func colours() throws {
        for (prefix, suffix, coloured) in [("", "", true), ("NO_COLOR=1 ", "", false), ("", " --no-color", false)] {
            let session = try TmuxSession("env \(prefix)\(binary)\(suffix)")
            #expect(session.waitFor(text: "1/400"))
            let styled = try session.tmux(["capture-pane", "-e", "-p", "-t", "main"])
            #expect(styled.contains("\u{1B}[32m") == coloured, "green balances: \(coloured) in \(styled.debugDescription.prefix(600))")
            #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m"), "reverse video for the bars and selection")
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }

    @Test("TERM=dumb gets a clear message, not garbage")
    func dumbTerminal() throws {
        let session = try TmuxSession("env TERM=dumb \(binary)")
        #expect(session.exitStatus() == 1)
        #expect(session.waitFor(text: "cannot show a full-screen app"))
    }

    @Test("e writes the list to a file named at the prompt, and asks before replacing it")
    func exportFromTheApp() throws {
        let folder = NSTemporaryDirectory() + "roster-export-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession("cd \(TmuxSession.shellQuoted(folder)) && \(binary)")
        #expect(session.waitFor(text: "1/400"))
        session.send("e")
        #expect(session.waitFor(text: "export to: people.csv"))  // suggested; Enter takes it
        session.send("Enter")
        #expect(session.waitFor(text: "wrote 400 people to people.csv"))
        let csv = try String(contentsOfFile: folder + "/people.csv", encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").count == 402)
        try "keep me".write(toFile: folder + "/people.csv", atomically: true, encoding: .utf8)
        session.send("e")
        #expect(session.waitFor(text: "export to: people.csv"))
        session.send("Enter")
        #expect(session.waitFor(text: "overwrite? (y/n)"))
        session.send("n")
        #expect(session.waitFor(text: "not written"))
        #expect(try String(contentsOfFile: folder + "/people.csv", encoding: .utf8) == "keep me")
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("paging and jumping: End, Home, PgDn")
    func paging() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        session.send("End")
        #expect(session.waitFor(text: "400/400"))
        session.send("g")
        #expect(session.waitFor(text: "1/400"))
        session.send("NPage")
        #expect(session.waitFor(text: "21/400"))
        session.send("C-c")
        #expect(session.exitStatus() == 130)
        #expect(session.paneFlag("#{alternate_on}") == "0")
    }

    @Test("a lone Esc acts at once")
    func escapeIsImmediate() throws {
        let session = try TmuxSession(binary)
        #expect(session.waitFor(text: "1/400"))
        session.send("Enter")
        #expect(session.waitFor(text: "First name"))
        // That the delay is short is checked where it is chosen
        // (EscapeDelayTests); timing it here failed on busy machines.
        session.send("Escape")
        #expect(session.waitFor(text: "⏎ open"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("every signal that ends a process ends roster with 128+N and restores the terminal, mouse reporting included",
          arguments: [(SIGTERM, false), (SIGINT, false), (SIGHUP, false), (SIGQUIT, true), (SIGUSR1, false),
                      (SIGUSR2, true), (SIGALRM, false), (SIGPIPE, true), (SIGXCPU, false)])
    func signals(signal: Int32, mouse: Bool) throws {
        let session = try TmuxSession(binary + (mouse ? " --mouse" : ""))
        #expect(session.waitFor(text: "1/400"))
        if mouse { #expect(session.paneFlag("#{mouse_any_flag}") == "1") }
        let pid = try #require(rosterPID(under: session.panePID()))
        kill(pid, signal)
        let status = 128 + signal
        #expect(session.exitStatus() == status)
        #expect(session.waitFor(text: "roster exited \(status)"))
        #expect(session.paneFlag("#{alternate_on}") == "0")
        #expect(session.paneFlag("#{cursor_flag}") == "1")
        #expect(session.paneFlag("#{mouse_any_flag}") == "0")
        #expect(!session.screen().contains("Backtrace") && !session.screen().contains("Crash"))
    }

    @Test("a crash with --mouse still leaves the terminal as it was found: mouse off, main screen, cursor shown",
          arguments: [SIGSEGV, SIGABRT])
    func crashRescue(signal: Int32) throws {
        let session = try TmuxSession(binary + " --mouse")
        #expect(session.waitFor(text: "1/400"))
        #expect(session.paneFlag("#{mouse_any_flag}") == "1")
        let pid = try #require(rosterPID(under: session.panePID()))
        kill(pid, signal)
        #expect(session.exitStatus() == 128 + signal)
        #expect(session.paneFlag("#{alternate_on}") == "0")
        #expect(session.paneFlag("#{cursor_flag}") == "1")
        #expect(session.paneFlag("#{mouse_any_flag}") == "0")
    }

    static let awkwardWidths: String = {
        let names = [("Han\u{1160}gul", "Jamo"), ("Fin\u{11A8}al", "Jamo"), ("Shaking\u{1FAE8}", "Emoji"), ("Kent", "佐藤"),
                     ("Zoë", "Ünal"), ("Plain", "Person")]
        let records = names.enumerated().map { index, name in
            "{\"name\": {\"first\": \"\(name.0)\", \"last\": \"\(name.1)\"}, \"company\": \"ACME\", \"balance\": \"$1,000.00\"}"
        }
        return "[" + records.joined(separator: ",\n") + "]"
    }()

    @Test("every row's balance ends in the last column whatever the name holds; a C locale gets ASCII stand-ins",
          arguments: ["C.UTF-8", "C"])
    func awkwardWidths(locale: String) throws {
        let file = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).json"
        try Self.awkwardWidths.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession("env LANG=\(locale) LC_ALL=\(locale) \(binary) --no-state \(file)")
        #expect(session.waitFor(text: "1/6"))
        let rows = session.lines().dropFirst(2).filter { $0.hasPrefix("  ") }
        #expect(rows.count == 6)
        // Every character here is one column wide but 佐藤 (two each); stand-ins are too.
        let widths = rows.map { $0.count + ($0.contains("佐藤") ? 2 : 0) }
        for row in rows {
            #expect(row.hasSuffix(" $1,000.00"), "\(row)")
        }
        #expect(Set(widths).count == 1, "every balance ends in the same column: \(widths)")
        if locale == "C" {
            #expect(rows.contains { $0.hasPrefix("  Kent ???? ") })
            #expect(session.lines()[0].hasPrefix(" Roster - "))
        }
        // A marked row and the sorted column's arrow: ASCII stand-ins in the C locale.
        session.send("m")
        #expect(session.waitFor(text: "1 marked"))
        let marker = locale == "C" ? "* " : "● "
        #expect(session.lines().dropFirst(2).contains { $0.hasPrefix(marker) })
        #expect(session.lines()[1].contains(locale == "C" ? "Last name ^" : "Last name ↑"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("roster - with the terminal on standard input refuses with a hint instead of reading keys as data")
    func dashOnTerminal() throws {
        let session = try TmuxSession("\(binary) -")
        #expect(session.exitStatus() == 2)
        #expect(session.waitFor(text: "pipe a file in"))
    }

    @Test("--export to a terminal shows control characters from the data instead of obeying them", arguments: ["csv", "vcard"])
    func exportToTerminal(format: String) throws {
        let file = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).json"
        try #"[{"name": {"first": "Evil\u001b]2;pwned\u0007", "last": "Clear\u001b[2J"}, "company": "X"}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession("printf 'before\\n'; \(binary) --export \(format) \(file)")
        #expect(session.exitStatus() == 0)
        #expect(session.waitFor(text: "Evil␛]2"))
        #expect(session.screen().contains("before"))  // nothing cleared the screen
        #expect(session.paneFlag("#{pane_title}") != "pwned")
    }

    @Test("Ctrl-Z suspends with the terminal restored; fg brings the screen back")
    func suspendAndResume() throws {
        let session = try TmuxSession(shellRows: 24, columns: 80)
        #expect(session.waitFor("the shell prompt") { $0.hasPrefix("$") })
        session.type("\(binary)")
        session.send("Enter")
        #expect(session.waitFor(text: "1/400"))
        session.send("j")
        #expect(session.waitFor(text: "2/400"))
        session.send("C-z")
        #expect(session.waitFor(text: "Stopped"))
        #expect(session.paneFlag("#{alternate_on}") == "0")
        session.type("fg")
        session.send("Enter")
        #expect(session.waitFor(text: "2/400"))
        #expect(session.paneFlag("#{alternate_on}") == "1")
        session.send("q")
        #expect(session.waitFor("the shell prompt after quitting") { $0.components(separatedBy: "\n").contains { $0.hasPrefix("$") } && !$0.contains("2/400") })
    }

    @Test("standard input: data from a pipe, keys from the terminal")
    func standardInput() throws {
        let file = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).json"
        try #"[{"name": {"first": "Piped", "last": "Person"}, "company": "PIPECO", "email": "p@pipe.co"}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession("cat \(TmuxSession.shellQuoted(file)) | \(binary) -")
        #expect(session.waitFor(text: "Piped Person"))
        #expect(session.screen().contains("Roster — stdin"))
        session.send("Enter")
        #expect(session.waitFor(text: "Email  p@pipe.co"))  // the detail (the list shows the email too)
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("a file that cannot be loaded shows an error screen; q exits with 1")
    func errorScreen() throws {
        let file = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).json"
        try "[\n  {\"name\": \"A\"}\n  {\"name\": \"B\"}\n]".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession("\(binary) \(TmuxSession.shellQuoted(file))")
        #expect(session.waitFor(text: "line 3, column 3"))
        session.send("q")
        #expect(session.exitStatus() == 1)
        #expect(session.paneFlag("#{alternate_on}") == "0")
        // The error stays in the scrollback once the alternate screen is gone.
        #expect(session.waitFor(text: "not valid JSON"))
    }
}

/// The binary outside a terminal: `--list`, usage errors, exit statuses.
@Suite("Command line, end to end", .blockingWork)
struct CommandLineTests {
    @Test("--list prints the grouped, sorted bundled directory")
    func list() throws {
        let result = try runRoster(["--list"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  ") }.count == 400)
        #expect(lines.first?.hasSuffix("people)") == true || lines.first?.hasSuffix("person)") == true)
        #expect(result.error.isEmpty)
    }

    @Test("--list reads standard input with -")
    func listFromStandardInput() throws {
        let result = try runRoster(["--list", "-"], input: #"[{"name": {"first": "Ada", "last": "Lovelace"}, "company": "X"}]"#)
        #expect(result.status == 0)
        #expect(result.output == "X (1 person)\n  Ada Lovelace\t\t\n")
    }

    @Test("--list: skipped records are summarised on stderr; --strict makes them an error")
    func skipped() throws {
        let json = #"[{"name": {"first": "Ok"}}, null, {"age": 3}]"#
        let lenient = try runRoster(["--list", "-"], input: json)
        #expect(lenient.status == 0)
        #expect(lenient.error.contains("roster: stdin: 2 of 3 records skipped"))
        #expect(lenient.error.contains("record 2 (line 1): expected a person (an object), found null"))
        let strict = try runRoster(["--list", "--strict", "-"], input: json)
        #expect(strict.status == 1)
    }

    @Test("load errors go to stderr with status 1, naming the file and place")
    func loadErrors() throws {
        let missing = try runRoster(["--list", "/nonexistent/people.json"])
        #expect(missing.status == 1)
        #expect(missing.error == "roster: /nonexistent/people.json: no such file\n")
        let broken = try runRoster(["--list", "-"], input: "[\n{\"name\": }]")
        #expect(broken.status == 1)
        #expect(broken.error == "roster: stdin: line 2, column 10: not valid JSON: expected a value, found '}'\n")
        #expect(!broken.error.contains("DecodingError"))
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let label: String
        let bytes: [UInt8]
        let message: String
        var testDescription: String { label }
    }

    static let badInputs: [BadInput] = [
        BadInput(label: "empty", bytes: [], message: "stdin: nothing came on standard input; expected a JSON list of people"),
        BadInput(label: "whitespace", bytes: Array(" \n ".utf8), message: "stdin: the file holds only whitespace; expected a JSON list of people"),
        BadInput(label: "binary", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A],
                 message: "stdin: line 1, column 1: not valid JSON: expected '[' to start a list of people, found byte 0x89 (is this a JSON file?)"),
        BadInput(label: "invalid UTF-8 outside text", bytes: [0x5B, 0xC3, 0x28, 0x5D],
                 message: "stdin: line 1, column 2: not valid JSON: expected a value, found byte 0xC3"),
        BadInput(label: "truncated", bytes: Array("[{\"name\": \"A".utf8), message: "stdin: line 1, column 13: not valid JSON: the file ends too early (is it truncated?)"),
        BadInput(label: "trailing garbage", bytes: Array("[] []".utf8), message: "stdin: line 1, column 4: not valid JSON: found an array after the end of the list of people"),
        // On standard input '{' starts JSON Lines and a word starts a CSV header.
        BadInput(label: "an object", bytes: Array("{\"people\": []}".utf8), message: "stdin: 1 of 1 records skipped"),
        BadInput(label: "a scalar", bytes: Array("true".utf8),
                 message: "stdin: line 1, column 1: the CSV header names no first_name, last_name or name column (it reads 'true')"),
        BadInput(label: "a JSON object as a .json file", bytes: [], message: ""),
        BadInput(label: "deep nesting", bytes: Array(String(repeating: "[", count: 200_000).utf8),
                 message: "stdin: line 1, column 200001: not valid JSON: the file ends too early (is it truncated?)"),
        BadInput(label: "nobody loads", bytes: Array("[null, 3]".utf8), message: "stdin: 2 of 2 records skipped"),
    ]

    @Test("every bad input: one clear line on stderr and status 1", arguments: badInputs)
    func badInput(_ bad: BadInput) throws {
        let result = try runRoster(["--list", "-"], input: String(decoding: bad.bytes, as: UTF8.self), rawInput: bad.bytes)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("roster: " + bad.message))
        #expect(!result.error.contains("Fatal error"))
        #expect(!result.error.contains("DecodingError"))
    }

    @Test("a directory and a missing file are named", arguments: [("/", "roster: /: is a directory, not a JSON file\n"),
                                                                  ("/nope/x.json", "roster: /nope/x.json: no such file\n")])
    func fileSystem(path: String, message: String) throws {
        let result = try runRoster(["--list", path])
        #expect(result.status == 1)
        #expect(result.error == message)
    }

    @Test("--export with --filter and --sort writes standard output in list order")
    func export() throws {
        let csv = try runRoster(["--export", "csv", "--sort", "balance:desc", "-"], input: #"[{"name":{"first":"A","last":"Low"},"balance":"$1.00"},{"name":{"first":"B","last":"High"},"balance":"$9.00"}]"#)
        #expect(csv.status == 0)
        #expect(csv.output.components(separatedBy: "\r\n").dropFirst().first?.hasPrefix("B,High,") == true)
        let vcard = try runRoster(["--export", "vcard", "--filter", "low", "-"], input: #"[{"name":{"first":"A","last":"Low"}},{"name":{"first":"B","last":"High"}}]"#)
        #expect(vcard.status == 0)
        #expect(vcard.output.components(separatedBy: "BEGIN:VCARD").count == 2)
        #expect(vcard.output.contains("FN:A Low"))
    }

    @Test("--filter takes field queries; a bad one exits 2 with one line naming the term")
    func filterQueries() throws {
        let listed = try runRoster(["--list", "--filter", "company:comgy age>40"])
        #expect(listed.status == 0)
        #expect(listed.output.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.split(separator: "\t")[0] }
                == ["  Agnes Sanchez", "  Zoë Sharp", "  Renée Vega"])
        let bad = try runRoster(["--list", "--filter", "comgy balance>lots"])
        #expect(bad.status == 2)
        #expect(bad.output.isEmpty)
        #expect(bad.error == "roster: --filter: 'balance>lots' (column 15): balance is an amount like 2500 or $1,000.50, not 'lots' (try 'roster --help')\n")
    }

    @Test("--filter field=value is the whole value (Kansas, not Arkansas); field= is no value; < on text exits 2")
    func exactFilter() throws {
        let people = #"[{"name":{"first":"A","last":"Kan"},"address":"1 Main, Springfield, KANSAS, 1"},"#
            + #"{"name":{"first":"B","last":"Ark"},"address":"2 Oak, Springfield, Arkansas, 2"},"#
            + #"{"name":{"first":"C","last":"None"},"address":"Lone Street"}]"#
        func names(_ query: String) throws -> [String] {
            let listed = try runRoster(["--list", "--filter", query, "-"], input: people)
            #expect(listed.status == 0, "\(query): \(listed.error)")
            return listed.output.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try names("state=kansas") == ["  A Kan"])
        #expect(try names("state:kansas") == ["  B Ark", "  A Kan"])
        #expect(try names("state=") == ["  C None"])
        #expect(try names("-state= -state=KANSAS") == ["  B Ark"])
        let bad = try runRoster(["--list", "--filter", "state<x", "-"], input: people)
        #expect(bad.status == 2)
        #expect(bad.error == "roster: --filter: 'state<x' (column 6): state is text: write state:x (contains) or state=x (whole value) (try 'roster --help')\n")
    }

    @Test("usage errors exit 2 with a one-line hint; help and version exit 0")
    func usage() throws {
        let bad = try runRoster(["--frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.error == "roster: unknown option '--frobnicate' (try 'roster --help')\n")
        let help = try runRoster(["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("Usage: roster"))
        let version = try runRoster(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("roster "))
    }

    @Test("an installed binary finds its bundled data under PREFIX/share/roster, from any directory")
    func installedLayout() throws {
        let prefix = NSTemporaryDirectory() + "roster-prefix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let files = FileManager.default
        try files.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try files.createDirectory(atPath: prefix + "/share/roster", withIntermediateDirectories: true)
        // A hard link, not a copy: a copy is open for writing while parallel
        // tests fork, and exec would then fail with "text file busy".
        do {
            try files.linkItem(atPath: rosterBinary, toPath: prefix + "/bin/roster")
        } catch {
            try files.copyItem(atPath: rosterBinary, toPath: prefix + "/bin/roster")
        }
        let bundled = URL(fileURLWithPath: rosterBinary).deletingLastPathComponent()
            .appendingPathComponent("Roster_RosterResources.resources/people.json").path
        try files.copyItem(atPath: bundled, toPath: prefix + "/share/roster/people.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix + "/bin/roster")
        process.arguments = ["--list"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == 400)
    }

    @Test("make install into a temporary PREFIX: the binary runs from elsewhere, the manual is there; uninstall removes exactly that")
    func makeInstall() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let prefix = NSTemporaryDirectory() + "roster-make-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let resources = URL(fileURLWithPath: rosterBinary).deletingLastPathComponent().appendingPathComponent("Roster_RosterResources.resources").path
        func make(_ target: String) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["make", "-s", "-C", root, target, "PREFIX=\(prefix)", "BIN=\(rosterBinary)", "RESOURCES=\(resources)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try make("install-files") == 0)
        let installed = try FileManager.default.subpathsOfDirectory(atPath: prefix).sorted()
        #expect(installed.contains("bin/roster"))
        #expect(installed.contains("share/roster/people.json"))
        #expect(installed.contains("share/man/man1/roster.1"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix + "/bin/roster")
        process.arguments = ["--list"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == 400)
        #expect(try make("uninstall") == 0)
        let left = try FileManager.default.subpathsOfDirectory(atPath: prefix).filter { !$0.hasSuffix("/") }
        let files = left.filter { var isDirectory: ObjCBool = false; _ = FileManager.default.fileExists(atPath: prefix + "/" + $0, isDirectory: &isDirectory); return !isDirectory.boolValue }
        #expect(files.isEmpty, "left behind: \(files)")
    }

    @Test("without a terminal on stdout, roster suggests --list and exits 2")
    func notATerminal() throws {
        let result = try runRoster([])
        #expect(result.status == 2)
        #expect(result.error.contains("use 'roster --list'"))
    }
}

/// Search as you type in the real binary.
@Suite("End to end: search", .serialized, .blockingWork)
struct SearchEndToEndTests {
    @Test("typing narrows the list and the counts; Enter keeps it; Esc clears it")
    func searchAsYouType() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary))
        #expect(session.waitFor(text: "1/400"))
        session.send("/")
        #expect(session.waitFor(text: "⏎ keep"))
        session.type("jos")
        #expect(session.waitFor("the list narrowed to José") { screen in
            screen.contains(" /jos") && !screen.contains("/400") && screen.contains("José")
        })
        // Headers show matches of the company's headcount.
        #expect(session.screen().range(of: #"\(\d+/\d+\)"#, options: .regularExpression) != nil)
        session.type("q")  // text, not quit
        #expect(session.waitFor(text: "No people match 'josq'"))
        session.send("BSpace")
        #expect(session.waitFor("the matches again") { $0.contains("José") })
        session.send("Enter")
        #expect(session.waitFor(text: "filter: jos"))
        session.send("Escape")
        #expect(session.waitFor(text: "/400"))
        #expect(!session.screen().contains("filter:"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

@Suite("End to end: field queries", .serialized, .blockingWork)
struct QueryEndToEndTests {
    @Test("a field query narrows the list; a bad term shows its error under it and the list stays")
    func fieldQuery() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary))
        #expect(session.waitFor(text: "1/400"))
        session.send("/")
        #expect(session.waitFor(text: "⏎ keep"))
        session.type("company:comgy -age<=40")
        #expect(session.waitFor("COMGY's people over 40") { screen in
            screen.contains("COMGY (3/6)") && screen.contains("Agnes Sanchez") && !screen.contains("Frank Dillon")
        })
        // Every prefix of "agnes" matches Agnes, so the last good result is hers.
        session.type(" agnes:x")
        #expect(session.waitFor("the error under the term") { screen in
            let lines = screen.components(separatedBy: "\n")
            return lines.contains { $0.hasPrefix(String(repeating: " ", count: 25) + "^~~~~ unknown field 'agnes'") }
        })
        #expect(session.screen().contains("Agnes Sanchez"))
        session.send("Enter")  // kept open: the query has an error
        #expect(session.waitFor(text: "unknown field 'agnes'"))
        for _ in 0..<8 { session.send("BSpace") }
        #expect(session.waitFor("the error gone") { !$0.contains("unknown field") && $0.contains("COMGY (3/6)") })
        session.send("Enter")
        #expect(session.waitFor(text: "filter: company:comgy -age<=40"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

/// The remembered place, across two launches of the real binary.
@Suite("End to end: remembered place", .serialized, .blockingWork)
struct RememberedPlaceEndToEndTests {
    @Test("quit and relaunch the same file: the same person, order and grouping; --no-state ignores it")
    func relaunch() throws {
        let stateHome = NSTemporaryDirectory() + "roster-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let command = "env XDG_STATE_HOME=\(stateHome) \(TmuxSession.shellQuoted(rosterBinary))"
        do {
            let session = try TmuxSession(command)
            #expect(session.waitFor(text: "1/400"))
            session.send("s")
            // The selected person (Frank Dillon) stays selected: 2nd by first name.
            #expect(session.waitFor(text: "2/400 · COMGY · first name ↑"))
            session.send("j", "j", "j", "j", "j")
            #expect(session.waitFor(text: "7/400"))
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
        let state = try String(contentsOfFile: stateHome + "/roster/state.json", encoding: .utf8)
        #expect(state.contains("\"sortKey\" : \"firstName\""))
        do {
            let session = try TmuxSession(command)
            #expect(session.waitFor(text: "7/400"))
            #expect(session.screen().contains("first name ↑"))
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
        do {
            let session = try TmuxSession(command + " --no-state")
            #expect(session.waitFor(text: "1/400"))
            #expect(session.screen().contains("last name ↑"))
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
    }
}

/// Issue 10 in the real binary: the command line's filter and order, and
/// the mouse beyond the list.
@Suite("End to end: starting filter and order, mouse in the overview", .serialized, .blockingWork)
struct StartingViewEndToEndTests {
    @Test("--filter and --sort open the app filtered and ordered, over a remembered order; Esc clears the filter")
    func filterAndSort() throws {
        let stateHome = NSTemporaryDirectory() + "roster-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let command = "env XDG_STATE_HOME=\(stateHome) \(TmuxSession.shellQuoted(rosterBinary))"
        do {
            let session = try TmuxSession(command)
            #expect(session.waitFor(text: "1/400"))
            session.send("s")  // remembered: first name
            #expect(session.waitFor(text: "first name ↑"))
            session.send("q")
            #expect(session.exitStatus() == 0)
        }
        let session = try TmuxSession(command + " --filter garza --sort balance:desc")
        #expect(session.waitFor(text: "filter: garza"))
        #expect(session.screen().contains("balance ↓"))
        #expect(session.screen().contains(" of 400 people"))
        // Within each company, balances go down.
        var sections: [[Double]] = []
        for line in session.lines().dropFirst(2) where !line.isEmpty && !line.hasPrefix(" ") || line.hasPrefix("  ") {
            if !line.hasPrefix(" ") { sections.append([]); continue }
            let amount = line.split(separator: "$").last.map { Double($0.replacingOccurrences(of: ",", with: "")) ?? -1 }
            if let amount { sections[sections.count - 1].append(amount) }
        }
        #expect(sections.contains { $0.count > 1 })
        #expect(sections.allSatisfy { $0 == $0.sorted(by: >) })
        session.send("Escape")
        #expect(session.waitFor(text: "/400 ·"))
        #expect(!session.screen().contains("filter:"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("--mouse in the overview: a click selects a company, a double click opens it; the wheel walks the detail")
    func overviewMouse() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " --mouse")
        #expect(session.waitFor(text: "1/400"))
        session.send("Tab")
        #expect(session.waitFor(text: "1/34"))
        // X10 reports: button, column and row, each plus 32 (1-based).
        func report(_ button: Int, row: Int) -> String {
            "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(32 + 5))) + String(UnicodeScalar(UInt8(32 + row + 1)))
        }
        session.type(report(0, row: 4) + report(3, row: 4))  // the third company
        #expect(session.waitFor(text: "3/34"))
        session.type(report(0, row: 4) + report(3, row: 4) + report(0, row: 4) + report(3, row: 4))
        #expect(session.waitFor(text: "sample directory (read-only) › CRIEXGEN"))
        session.send("Enter")
        #expect(session.waitFor(text: "First name"))
        session.type(report(65, row: 5))  // wheel down: the next person
        #expect(session.waitFor(text: "2/5"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

/// The company overview in the real binary.
@Suite("End to end: company overview", .serialized, .blockingWork)
struct CompaniesEndToEndTests {
    @Test("Tab shows companies; s sorts; Enter opens one company's people; Esc comes back")
    func overview() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary))
        #expect(session.waitFor(text: "1/400"))
        session.send("Tab")
        #expect(session.waitFor("the overview with its headers") { $0.contains("(read-only): companies") && $0.contains("Avg age") })
        session.send("s")  // headcount, largest first
        #expect(session.waitFor(text: "headcount ↓"))
        let largest = try #require(session.lines()[2].split(separator: " ").first.map(String.init))
        session.send("g", "Enter")  // the selection stayed on its company; go to the top
        #expect(session.waitFor("the company's own list") { $0.components(separatedBy: "\n")[2].hasPrefix(largest + " (") })
        #expect(session.waitFor(text: "1/102"))
        session.send("Escape")
        #expect(session.waitFor(text: "headcount ↓"))
        session.send("Escape")
        #expect(session.waitFor(text: "1/400"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

/// Prompts that edit like a shell's line, and screens that scroll when the
/// terminal is short, in the real binary.
@Suite("End to end: prompts and short terminals", .serialized, .blockingWork)
struct PromptAndScrollingEndToEndTests {
    let binary = TmuxSession.shellQuoted(rosterBinary)

    @Test("the search prompt edits at its cursor, Esc puts the earlier filter back, ↑ recalls; export suggests a name")
    func promptEditing() throws {
        let session = try TmuxSession(binary + " --no-state")
        #expect(session.waitFor(text: "1/400"))
        session.send("/")
        session.type("garza")
        session.send("Home")
        session.type("jose ")
        #expect(session.waitFor(text: " /jose garza "))
        #expect(session.waitFor(text: "1/1 "))
        // The terminal's cursor is where the editing cursor is: after "/jose ".
        #expect(session.paneFlag("#{cursor_flag}") == "1")
        #expect(session.paneFlag("#{cursor_x},#{cursor_y}") == "7,23")
        session.send("End", "C-w")
        #expect(session.waitFor(text: " /jose  "))
        session.send("C-a", "DC", "Right", "BSpace")  // "ose " then "se "
        #expect(session.waitFor(text: " /se  "))
        session.send("C-e", "C-u")
        session.type("garza")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: garza"))
        #expect(session.paneFlag("#{cursor_flag}") == "0")
        // Esc in the prompt cancels the edit and keeps the filter in force.
        session.send("/")
        #expect(session.waitFor(text: " /garza "))
        session.send("C-u")
        session.type("xyz")
        #expect(session.waitFor(text: "No people match 'xyz'"))
        session.send("Escape")
        #expect(session.waitFor(text: "filter: garza"))
        // ↑ recalls what was kept with Enter.
        session.send("/", "C-u", "Up")
        #expect(session.waitFor(text: " /garza "))
        session.send("Escape", "Escape")  // cancel the edit, then clear the filter
        #expect(session.waitFor(text: "/400"))
        #expect(!session.screen().contains("filter:"))
        // Export opens on the data's name; ^W json changes the format.
        session.send("e")
        #expect(session.waitFor(text: "export to: people.csv "))
        #expect(session.paneFlag("#{cursor_x}") == "22")
        session.send("C-w")
        session.type("json")
        #expect(session.waitFor(text: "export to: people.json "))
        session.send("Escape")
        #expect(session.waitFor(text: "⏎ open"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("at 80×14 the detail's fields scroll with PgDn/Home while ↓ moves on; at 40×10 the help scrolls")
    func shortTerminal() throws {
        let session = try TmuxSession(binary + " --no-state", rows: 14, columns: 80)
        #expect(session.waitFor(text: "1/400"))
        session.send("Enter")
        // The record's 15 fields, then the sample's org chart: Manager, Chain, Reports.
        #expect(session.waitFor(text: "fields 1–8 of 18 (more below: PgDn)"))
        #expect(!session.screen().contains("more fields"))
        session.send("NPage")
        #expect(session.waitFor(text: "fields 8–15 of 18 (more: PgUp PgDn)"))
        #expect(session.screen().contains("GUID  "))
        session.send("NPage")
        #expect(session.waitFor(text: "fields 11–18 of 18 (more above: PgUp)"))
        #expect(session.screen().contains("Manager  Renée Vega <renee.vega@comgy.com>") && session.screen().contains("Reports  none"))
        session.send("Down")
        #expect(session.waitFor(text: "2/400"))
        #expect(session.screen().contains("fields 11–18 of 18 (more above: PgUp)"))
        session.send("Home")
        #expect(session.waitFor(text: "First name"))
        session.resize(rows: 10, columns: 40)
        #expect(session.waitFor(text: "fields 1–4 of 18"))
        session.send("?")
        // The detail's 19 keys, then the 5 lines of the keys of every screen.
        #expect(session.waitFor(text: "lines 1–7 of 24"))
        session.send("Down")
        #expect(session.waitFor(text: "lines 2–8 of 24"))
        session.send("NPage", "NPage")
        #expect(session.waitFor(text: "lines 14–20 of 24"))
        #expect(session.screen().contains("quit"))
        session.send("x")  // any other key closes it
        #expect(session.waitFor(text: "fields 1–4 of 18"))
        session.send("Escape")
        #expect(session.waitFor(text: "400 people"))  // the list's title (at 40 columns its hints are down to q quit)
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("deep inside a long company its header stays on the top line; ^D and ^U move half a page")
    func pinnedHeader() throws {
        let session = try TmuxSession(binary + " --no-state")
        #expect(session.waitFor(text: "1/400"))
        session.send("G")
        #expect(session.waitFor(text: "400/400"))  // the scroll follows each drawn frame
        session.send("C-u")
        #expect(session.waitFor(text: "390/400"))
        let lines = session.lines()
        #expect(lines[2].hasPrefix("ZENNIX (21)"))
        #expect(lines.dropFirst(3).allSatisfy { !$0.hasPrefix("ZENNIX") })
        session.send("C-d")
        #expect(session.waitFor(text: "400/400"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}

/// Counts by any field (`F`) in the real binary.
@Suite("End to end: counts by field", .serialized, .blockingWork)
struct FrequencyEndToEndTests {
    @Test("F counts by company; f to eye colour; a row's count is what Enter lists; the filter is counted and said")
    func counts() throws {
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " --no-state")
        #expect(session.waitFor(text: "1/400"))
        session.send("F")
        #expect(session.waitFor("counts by company of everyone") { $0.contains("counts by company") && $0.contains("400 people") })
        session.send("f", "f", "f")
        #expect(session.waitFor("counts by eye color, blue's bar drawn") {
            $0.contains("counts by eye color") && $0.components(separatedBy: "\n").contains { $0.hasPrefix(" blue ") && $0.contains("█") }
        })
        let blue = try #require(session.lines().first { $0.hasPrefix(" blue ") })
        let count = try #require(blue.split(separator: " ").dropFirst().first.map(String.init))
        #expect(blue.contains("█"))
        session.send("Enter")
        #expect(session.waitFor(text: "filter: eye=\"blue\""))
        #expect(session.waitFor(text: "1/\(count) "))
        #expect(session.screen().contains("counts by eye color"))
        session.send("Escape")  // straight back: the value's term is what the list is of
        #expect(session.waitFor(text: "counts by eye color"))
        session.send("Tab")  // back to the list: filter it, sort by age, count again
        #expect(session.waitFor(text: "1/400"))
        session.send("/")
        session.type("age>30")
        session.send("Enter")
        #expect(session.waitFor(text: "filter: age>30"))
        session.send("s", "s", "s")  // last → first → balance → age
        #expect(session.waitFor(text: "age ↑"))
        session.send("F")
        #expect(session.waitFor(text: "counts by age band"))
        #expect(session.waitFor(text: "people matching 'age>30'"))
        #expect(!session.screen().contains(" 20–29 "))
        let thirties = try #require(session.lines().first { $0.hasPrefix(" 30–39 ") })
        let inThirties = try #require(thirties.split(separator: " ").dropFirst().first.map(String.init))
        session.send("Enter")
        #expect(session.waitFor(text: "filter: age>30 age:30-39"))
        #expect(session.waitFor(text: "1/\(inThirties) "))
        session.send("Left")  // back: the list's filter is as it was
        #expect(session.waitFor("counts by age band, filtered as before") { $0.contains("counts by age band") && $0.contains("filter: age>30") })
        session.send("q")
        #expect(session.exitStatus() == 0)
    }

    @Test("text values fold alike into one row; Enter on it, and on (none), lists exactly the people counted")
    func wholeValues() throws {
        let file = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).json"
        try (#"[{"name":{"first":"Ann","last":"Kan"},"address":"1 Main, Springfield, Kansas, 1"},"#
            + #"{"name":{"first":"Ben","last":"Ark"},"address":"2 Oak, Springfield, Arkansas, 2"},"#
            + #"{"name":{"first":"Cy","last":"Kay"},"address":"3 Elm, Concho, KÁNSAS, 3"},"#
            + #"{"name":{"first":"Di","last":"Lone"},"address":"Lone Street"}]"#).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = try TmuxSession(TmuxSession.shellQuoted(rosterBinary) + " --no-state " + TmuxSession.shellQuoted(file))
        #expect(session.waitFor(text: "1/4"))
        session.send("F", "f", "f")
        #expect(session.waitFor("counts by state") {
            $0.contains("by state · value") && $0.components(separatedBy: "\n").contains { $0.hasPrefix(" KÁNSAS ") || $0.hasPrefix(" Kansas ") }
        })
        let kansas = try #require(session.lines().first { $0.hasPrefix(" KÁNSAS ") || $0.hasPrefix(" Kansas ") })
        #expect(kansas.split(separator: " ").dropFirst().first == "2")
        session.send("Down", "Enter")
        #expect(session.waitFor(text: "filter: state="))
        #expect(session.waitFor(text: "1/2 "))
        #expect(session.screen().contains("Ann Kan") && session.screen().contains("Cy Kay") && !session.screen().contains("Ben Ark"))
        session.send("Left")
        #expect(session.waitFor(text: "by state · value"))
        session.send("End", "Enter")  // (none)
        #expect(session.waitFor(text: "filter: state= "))
        #expect(session.waitFor(text: "1/1 "))
        #expect(session.screen().contains("Di Lone"))
        session.send("q")
        #expect(session.exitStatus() == 0)
    }
}
