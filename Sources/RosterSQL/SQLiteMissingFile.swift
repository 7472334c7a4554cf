import Foundation

extension SQLPeopleRepository {
    /// "PATH: no such file; make one with: roster import FILE --into PATH"
    /// when `path` names nothing (browsing never creates a file), nil when
    /// it exists: SQLite's own words, "unable to open database file", say
    /// neither what is wrong nor what to do.
    public static func missingFile(_ path: String) -> DatabaseError? {
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        return DatabaseError(.missingTable, "\(path): no such file; make one with: roster import FILE --into \(path)",
                             code: PeopleTable.shapeCode)
    }
}
