import Foundation
import RosterCore
import RosterLDAP
import TestServers

/// `roster-bench ldap N`: a real slapd (TestSlapd) loaded with N people by
/// slapadd, size limit 1,000 (Active Directory's MaxPageSize), and the
/// client layer measured on it: reading everyone with paging against
/// `ldapsearch -E pr=1000/noprompt` on the same server, the first page,
/// windows by position (VLV), searches as typed, and a change from another
/// connection reaching a change feed.
func ldapBench(people: Int) async {
    var configuration = TestSlapd.Configuration()
    configuration.people = people
    configuration.sizeLimit = 1000
    let loadStarted = ContinuousClock.now
    guard let server = try? TestSlapd.start(configuration),
          let url = try? LDAPURL.parse(server.ldapURL + "/" + server.peopleBase) else {
        print("error=slapd did not start")
        exit(1)
    }
    print("ldap_people=\(people)")
    print("ldap_slapadd_and_start_s=\(seconds(ContinuousClock.now - loadStarted))")
    let everyone = LDAPSearch(base: server.peopleBase, filter: .equals("objectClass", "inetOrgPerson"))
    do {
        try await ldapReadEveryone(url, everyone, server)
        try await ldapWindows(url, everyone)
        try await ldapSearchesAsTyped(url, everyone)
        try await ldapLiveChange(url, server)
    } catch {
        print("error=\(error)")
        exit(1)
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

private func format(_ value: Double) -> String { String(format: "%.1f", value) }

/// CPU time (user and system) of this process, or of its waited-for
/// children: on a shared machine the wall clock also counts others' work.
private func cpuMilliseconds(_ who: __rusage_who) -> Double {
    var usage = rusage()
    getrusage(who.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// Everyone with every user attribute, 1,000 a page: ours three times, then
/// ldapsearch three times (its LDIF to /dev/null).
private func ldapReadEveryone(_ url: LDAPURL, _ everyone: LDAPSearch, _ server: TestSlapd) async throws {
    var ours: [Double] = []
    var oursCPU: [Double] = []
    for _ in 1...3 {
        let connection = try await LDAPConnection.open(url, options: LDAPConnectionOptions(operationTimeout: .seconds(120)))
        var count = 0
        let cpuBefore = cpuMilliseconds(RUSAGE_SELF)
        ours.append(milliseconds(try await ContinuousClock().measure { count = try await connection.readAll(everyone, pageSize: 1000).count }))
        oursCPU.append(cpuMilliseconds(RUSAGE_SELF) - cpuBefore)
        guard count > 0 else { throw LDAPError(.other, "nobody read") }
    }
    print("ldap_read_everyone_ms=\(format(median(ours)))")
    print("ldap_read_everyone_cpu_ms=\(format(median(oursCPU)))")
    print("ldap_read_everyone_peak_rss_mib=\(peakResidentMiB())")
    var theirs: [Double] = []
    var theirsCPU: [Double] = []
    for _ in 1...3 {
        let cpuBefore = cpuMilliseconds(RUSAGE_CHILDREN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldapsearch")
        process.arguments = ["-x", "-LLL", "-H", server.ldapURL, "-b", server.peopleBase, "-E", "pr=1000/noprompt", "(objectClass=inetOrgPerson)"]
        process.standardOutput = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        theirs.append(milliseconds(ContinuousClock.now - started))
        theirsCPU.append(cpuMilliseconds(RUSAGE_CHILDREN) - cpuBefore)
    }
    print("ldapsearch_read_everyone_ms=\(format(median(theirs)))")
    print("ldapsearch_read_everyone_cpu_ms=\(format(median(theirsCPU)))")
    let connection = try await LDAPConnection.open(url)
    var firstPages: [Double] = []
    for _ in 1...9 {
        firstPages.append(milliseconds(try await ContinuousClock().measure { _ = try await connection.page(everyone, size: 50, after: nil) }))
    }
    print("ldap_first_page_50_ms=\(format(median(firstPages)))")
}

/// 30-row windows sorted by cn: the first (the server sorts everyone),
/// then 20 at spread positions reusing the list's context.
private func ldapWindows(_ url: LDAPURL, _ everyone: LDAPSearch) async throws {
    let connection = try await LDAPConnection.open(url, options: LDAPConnectionOptions(operationTimeout: .seconds(120)))
    let keys = [LDAPSortKey("cn")]
    var window: LDAPWindow?
    let first = milliseconds(try await ContinuousClock().measure {
        window = try await connection.window(everyone, sortedBy: keys, LDAPWindowRequest(.position(offset: 1, contentCount: 0), after: 29))
    })
    guard let count = window?.contentCount else { return }
    var later: [Double] = []
    for step in 1...20 {
        let offset = max(1, count * step / 21)
        later.append(milliseconds(try await ContinuousClock().measure {
            window = try await connection.window(everyone, sortedBy: keys, LDAPWindowRequest(.position(offset: offset, contentCount: count),
                                                                                              after: 29, contextID: window?.contextID))
        }))
    }
    print("ldap_vlv_first_window_ms=\(format(first))")
    print("ldap_vlv_window_p50_ms=\(format(median(later)))")
    print("ldap_vlv_window_max_ms=\(format(later.max() ?? 0))")
}

/// A search as typed, one key at a time: the first 50 matches of an
/// indexed substring filter on cn or mail.
private func ldapSearchesAsTyped(_ url: LDAPURL, _ everyone: LDAPSearch) async throws {
    let connection = try await LDAPConnection.open(url)
    var times: [Double] = []
    for typed in ["g", "gr", "gra", "grac", "grace", "m", "mu", "mül", "müll", "p0004"] {
        let narrowed = everyone.narrowed(by: .or([.contains("cn", LDAPValue(typed)), .contains("mail", LDAPValue(typed))]))
        times.append(milliseconds(try await ContinuousClock().measure { _ = try await connection.page(narrowed, size: 50, after: nil) }))
    }
    print("ldap_search_keystroke_p50_ms=\(format(median(times)))")
    print("ldap_search_keystroke_max_ms=\(format(times.max() ?? 0))")
}

/// A title changed by the admin, until the feed hands it over; 10 times.
private func ldapLiveChange(_ url: LDAPURL, _ server: TestSlapd) async throws {
    let arrived = Locked<[String: ContinuousClock.Instant]>([:])
    let caughtUp = Locked(false)
    let feed = LDAPChangeFeed(url: url, credentials: .anonymous,
                              search: LDAPSearch(base: server.peopleBase, filter: .equals("uid", "p000001"), attributes: ["title"]))
    let watching = Task {
        await feed.run(from: nil, known: nil) { change in
            switch change {
            case .caughtUp: caughtUp.withLock { $0 = true }
            case .changed(let entry, _): if let title = entry.text("title") { arrived.withLock { $0[title] = .now } }
            default: break
            }
        }
    }
    while !caughtUp.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    let admin = try await LDAPConnection.open(url, credentials: .simple(dn: server.adminDN, password: LDAPPassword(Array(TestSlapd.adminPassword.utf8))))
    var times: [Double] = []
    for round in 1...10 {
        let title = "Bench \(round)"
        let started = ContinuousClock.now
        try await admin.modify(TestDirectoryLDIF.dn(ofPerson: 1, suffix: server.suffix), [.replace("title", with: [LDAPValue(title)])])
        while arrived.withLock({ $0[title] }) == nil { try await Task.sleep(for: .milliseconds(1)) }
        times.append(milliseconds((arrived.withLock { $0[title] } ?? started) - started))
    }
    watching.cancel()
    print("ldap_live_change_p50_ms=\(format(median(times)))")
    print("ldap_live_change_max_ms=\(format(times.max() ?? 0))")
}
