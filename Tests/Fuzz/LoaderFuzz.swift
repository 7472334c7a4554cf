// libFuzzer target for the loader (`make fuzz`): any bytes in, a directory
// or a LoadError out, never a crash. Built by the Makefile with
// `swiftc -sanitize=fuzzer,address` over RosterCore's sources, so it is not
// a SwiftPM target. Inputs that ever crashed it are kept in regressions/
// and replayed by `make fuzz` and by RosterCoreTests' FuzzRegressionTests.
public func fuzzLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let directory = try? PeopleLoader().load(bytes: bytes, sourceName: "fuzz") else { return 0 }
    // Everything built from the bytes must also be safe to arrange and show.
    let repository = InMemoryPeopleRepository(directory)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    let rows = ListRows(everyone, repository: repository)
    for row in rows.prefix(64) {
        if case .person(let person) = row, case .loaded(let listed) = person.person {
            _ = DisplayText.fit(listed.name, columns: 20)
            _ = repository.peopleAtOnce(in: everyone, positions: person.position..<(person.position + 1))
        }
    }
    return 0
}
