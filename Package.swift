// swift-tools-version:6.0
import PackageDescription

// Async functions start on their caller's actor (`nonisolated(nonsending)`):
// a read of a source that answers at once (a file in memory) then never
// leaves the main actor (`BackgroundReading`). For the targets that read
// through the repository protocol.
let startOnTheCaller: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "Roster",
    targets: [
        // The only C: ncurses with wide characters, wrapped by a tiny shim.
        // No pkgConfig: Debian's ncursesw.pc adds -D flags SwiftPM refuses
        // (a warning on every build); the headers are on the default path.
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // libpq and SQLite, each behind its own module; only one Swift file
        // imports each (PostgresConnection.swift, SQLiteConnection.swift).
        // No pkgConfig for libpq either: Debian's libpq.pc adds nothing the
        // default paths lack.
        .systemLibrary(
            name: "CLibpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // OpenLDAP's libldap, without its deprecated calls; only
        // LDAPHandle.swift imports it.
        .systemLibrary(
            name: "CLDAP",
            providers: [.apt(["libldap-dev"])]
        ),
        // The bundled directory (people.json) and where to find it.
        .target(
            name: "RosterResources",
            path: "Resources",
            exclude: ["README.md"],
            resources: [.copy("people.json")]
        ),
        // Entities, the repository protocol, presenters, view models:
        // Foundation only, no storage internals, no unsafe flags.
        .target(name: "RosterCore", swiftSettings: startOnTheCaller),
        // The in-memory repository: loaders, the compact store, grouping and
        // search. The only place for unchecked tricks.
        .target(
            name: "RosterStore",
            dependencies: ["RosterCore"],
            // The loader's buffers are classes written by one thread; runtime
            // exclusivity checks on them cost 15% of load time (measured).
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        // Screen protocol, the ncurses adapter and the passive views.
        .target(name: "RosterTUI", dependencies: ["RosterCore", "CNcursesw"]),
        // AppDependencies, wireframes, the event loop, options.
        .target(name: "RosterApp", dependencies: ["RosterCore", "RosterStore", "RosterTUI", "RosterResources", "RosterSQL", "RosterLDAP"],
                swiftSettings: startOnTheCaller),
        .executableTarget(name: "roster", dependencies: ["RosterApp"]),
        // Connections, schema and import for PostgreSQL and SQLite.
        .target(name: "RosterSQL", dependencies: ["RosterCore", "RosterStore", "CLibpq", "CSQLite3"]),
        // The directory server client: connections, paging, windows,
        // writes with assertions, content synchronisation.
        .target(name: "RosterLDAP", dependencies: ["RosterCore", "CLDAP"]),
        // Deterministic directory generator (bundled data and benchmarks).
        .executableTarget(name: "roster-gen"),
        .executableTarget(name: "roster-bench", dependencies: ["RosterCore", "RosterStore", "RosterTUI", "RosterApp", "TestSupport",
                                                      "RosterLDAP", "RosterSQL", "TestServers"]),
        .target(name: "TestSupport", dependencies: ["RosterCore", "RosterStore", "RosterTUI"],
                swiftSettings: startOnTheCaller),
        .target(name: "TestTraits"),
        .target(name: "TestServers", dependencies: ["RosterCore", "RosterSQL"]),
        .testTarget(name: "RosterCoreTests", dependencies: ["RosterCore", "RosterStore", "TestSupport", "TestTraits"],
                    swiftSettings: startOnTheCaller),
        .testTarget(name: "RosterStoreTests", dependencies: ["RosterStore", "RosterCore", "TestSupport"],
                    exclude: ["Formats/Fixtures"]),
        .testTarget(name: "RosterTUITests", dependencies: ["RosterTUI", "RosterCore", "RosterStore", "TestSupport"],
                    exclude: ["__Snapshots__"], swiftSettings: startOnTheCaller),
        .testTarget(name: "RosterAppTests", dependencies: ["RosterApp", "RosterLDAP", "RosterCore", "RosterStore", "RosterTUI", "TestSupport", "TestTraits"],
                    swiftSettings: startOnTheCaller),
        .testTarget(name: "EndToEndTests", dependencies: ["RosterCore", "RosterSQL", "TestSupport", "TestTraits", "TestServers"]),
        .testTarget(name: "RosterLDAPTests", dependencies: ["RosterLDAP", "RosterCore", "TestServers", "TestTraits"]),
        .testTarget(name: "RosterSQLTests", dependencies: ["RosterSQL", "RosterCore", "RosterStore", "TestSupport", "TestTraits", "TestServers"]),
    ],
    swiftLanguageModes: [.v6]
)
