#if !ROSTER_FUZZ
import RosterCore
#endif

/// The org chart of a file held in memory: its people's manager references
/// read from the file's bytes (`FileManagerReferences`), resolved, and the
/// tree built in the list's order.
public enum FileOrgChart {
    /// The chart of `store`'s people, read from `fileBytes` (the file it was
    /// read from); `.noManagers` when no record has a manager field.
    public static func chart(of store: PeopleStore, fileBytes: UnsafeBufferPointer<UInt8>, format: InputFormat?,
                             sourceName: String, orderKeys: [Int32]?) -> OrgChartLoad {
        chart(of: store, references: FileManagerReferences(store: store, fileBytes: fileBytes, format: format), sourceName: sourceName,
              orderKeys: orderKeys)
    }

    /// The chart of `store`'s people whose manager references are
    /// `references` (read from its file); `.noManagers` for none.
    public static func chart(of store: PeopleStore, references: FileManagerReferences?, sourceName: String,
                             orderKeys: [Int32]?) -> OrgChartLoad {
        guard let references else { return .noManagers(noManagersMessage(sourceName)) }
        let (resolution, index) = ManagerResolution.resolve(references)
        let order: OrgReportOrder = orderKeys.map { .keys($0) } ?? .personNumber
        return .loaded(OrgChart(tree: OrgTree(resolution, order: order), people: StorePeopleNames(store: store), references: index))
    }

    /// Said in place of the chart of a file whose records name no manager.
    public static func noManagersMessage(_ sourceName: String) -> String {
        "No one in \(DisplayText.sanitized(sourceName)) has a \"\(FileManagerReferences.fieldName)\" field "
            + "(the _id, email or full name of the person they report to): there is no org chart to show."
    }
}

/// What the chart says of the people of a store.
struct StorePeopleNames: OrgChartPeople {
    let store: PeopleStore

    func name(of person: Int) -> String {
        let first = store.text(.firstName, of: person)
        let last = store.text(.lastName, of: person)
        return first.isEmpty ? last : last.isEmpty ? first : first + " " + last
    }

    func email(of person: Int) -> String { store.text(.email, of: person) }

    func person(recordID: String) -> Int? { store.position(ofOnly: recordID) }

    func recordID(of person: Int) -> String { store.text(.id, of: person) }
}
