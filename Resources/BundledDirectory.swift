/// Where the bundled directory (`people.json`) lives once built or installed.
public enum BundledDirectory {
    public static let fileName = "people.json"
    /// The resource bundle SwiftPM writes beside the built executable.
    public static let bundleName = "Roster_RosterResources.resources"
    /// Where `make install` puts it, relative to the binary's directory.
    public static let installedRelativePath = "../share/roster/people.json"
}
