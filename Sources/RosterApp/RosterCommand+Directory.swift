import Foundation
import RosterCore
import RosterLDAP
import RosterTUI

/// A company directory server named by an LDAP URL (RFC 4516):
/// `ldap://host[:port]/BASE`, `ldaps://…`, `ldapi://%2Fpath%2Fsocket/BASE`;
/// its filter narrows who is a person, its `bindname` extension (or
/// `BINDDN` in ldaprc) says whom to bind as.
enum DirectoryTarget {
    /// Whether `argument` names a directory server rather than a file or a database.
    static func names(_ argument: String?) -> Bool {
        guard let scheme = argument?.split(separator: ":", maxSplits: 1).first?.lowercased() else { return false }
        return ["ldap", "ldaps", "ldapi"].contains(scheme) && argument?.contains("://") == true
    }

    /// The search that reads everyone: the URL's base, scope (the whole
    /// subtree unless it names one) and filter (people by default).
    static func search(_ url: LDAPURL) -> LDAPSearch {
        LDAPSearch(base: url.base, scope: url.scope ?? .subtree, filterText: url.filter ?? LDAPPersonMapping.defaultFilter,
                   attributes: LDAPPersonMapping.attributes)
    }

    /// Why `argument` is not a URL Roster can use (a usage error), or nil.
    static func malformation(of argument: String) -> String? {
        do throws(LDAPURLError) {
            _ = try LDAPURL.parse(argument, defaults: LDAPDefaults.configured())
            return nil
        } catch {
            return DisplayText.sanitized(error.message)
        }
    }
}

extension RosterCommand {
    /// A directory URL that cannot be read, or `--password-file` given for
    /// something else: the usage error to print, or nil.
    static func directoryUsageError(_ options: Options) -> String? {
        guard options.mode != .help, options.mode != .version else { return nil }
        if let file = options.file, DirectoryTarget.names(file) { return DirectoryTarget.malformation(of: file) }
        guard options.passwordFile == nil else { return "--password-file is for directory servers (ldap://…); PostgreSQL reads ~/.pgpass" }
        return nil
    }

    /// Binds to the directory server `argument` names, before any screen:
    /// anonymously, or as the URL's (or ldaprc's) bind DN with the password
    /// from `--password-file` or asked on the terminal, echo off. The
    /// directory (nothing read yet), or the one line to print.
    @MainActor
    static func openDirectory(_ argument: String, options: Options, prompt: PasswordPrompt?) async -> Result<LDAPDirectory, DirectoryFailure> {
        let url: LDAPURL
        do throws(LDAPURLError) {
            url = try LDAPURL.parse(argument, defaults: LDAPDefaults.configured())
        } catch {
            return .failure(DirectoryFailure(DisplayText.sanitized(error.message)))
        }
        let name = url.displayName
        let credentials: LDAPCredentials
        switch directoryCredentials(url, options: options, prompt: prompt) {
        case .success(let given): credentials = given
        case .failure(let failure): return .failure(failure)
        }
        do throws(LDAPError) {
            let connection = try await LDAPConnection.open(url, credentials: credentials,
                                                           options: LDAPConnectionOptions(networkTimeout: .seconds(5), label: "browse"))
            let directory = LDAPDirectory(name: name, connection: connection, credentials: credentials, search: DirectoryTarget.search(url))
            return .success(directory)
        } catch {
            let said = DisplayText.sanitized(error.message)
            return .failure(DirectoryFailure(said.contains(name) ? said : "\(name): \(said)"))
        }
    }

    /// How to bind to `url`: anonymously, or as its bind DN with a password.
    @MainActor
    private static func directoryCredentials(_ url: LDAPURL, options: Options, prompt: PasswordPrompt?)
        -> Result<LDAPCredentials, DirectoryFailure> {
        let name = url.displayName
        guard let dn = url.bindName, !dn.isEmpty else {
            if options.passwordFile != nil {
                return .failure(DirectoryFailure("\(name): --password-file needs a DN to bind as (the URL's ?bindname=DN extension, or BINDDN in ldaprc)"))
            }
            return .success(.anonymous)
        }
        if let path = options.passwordFile {
            do throws(PasswordFile.Problem) {
                return .success(.simple(dn: dn, password: LDAPPassword(try PasswordFile.read(path))))
            } catch {
                return .failure(DirectoryFailure(DisplayText.sanitized(error.message)))
            }
        }
        guard let prompt else {
            return .failure(DirectoryFailure("\(name): binding as \(DisplayText.sanitized(dn)) needs a password: give --password-file FILE (none is asked off a terminal)"))
        }
        switch prompt.read("Password for \(dn) at \(name): ") {
        case .line(let password): return .success(.simple(dn: dn, password: LDAPPassword(Array(password.utf8))))
        case .interrupted: return .failure(DirectoryFailure("\(name): no password given (the prompt was interrupted)"))
        case .failed(let reason): return .failure(DirectoryFailure("\(name): a password is needed, and the terminal could not be read (\(reason))"))
        }
    }

    /// Browses a directory server: bound to before the screen starts (a
    /// failure is one line), its people read behind the loading screen, a
    /// page at a time, and kept as the server has them by its change feed.
    @MainActor
    static func browseDirectory(_ argument: String, options: Options, theme: Theme) async -> ExitStatus {
        let prompt = PasswordPrompt.forThisTerminal()
        switch await openDirectory(argument, options: options, prompt: prompt) {
        case .success(let directory):
            let feed = LDAPChangeFeed(url: directory.connection.url, credentials: directory.credentials, search: directory.search)
            let changes = SourceChanges(watch: LDAPDirectoryWatch(directory: directory, feed: feed)) {
                directory.takeNote() ?? "changed in the directory; read again"
            }
            let placeStore = options.noState ? nil : PlaceStore(stateFile: PlaceStore.defaultStateFile(), dataFile: directory.name)
            let status = browse(interactor: LDAPDirectoryInteractor(directory: directory), sourceName: directory.name, placeStore: placeStore,
                                options: options, theme: theme,
                                editing: .success(LDAPDirectoryEditing(directory: directory)),
                                sourceChanges: changes)
            changes.watch.stop()
            directory.close()
            return status
        case .failure(let failure):
            Platform.writeError("roster: \(failure.message)")
            return prompt?.wasInterrupted == true ? .interrupted : .failure
        }
    }

    /// `--list` and `--export` over a directory server: everyone read, then
    /// written as for a file.
    @MainActor
    static func listDirectory(_ argument: String, options: Options) async -> ExitStatus {
        switch await openDirectory(argument, options: options, prompt: PasswordPrompt.forThisTerminal()) {
        case .success(let directory):
            defer { directory.close() }
            if case .failure(let error) = await directory.everyone() {
                Platform.writeError("roster: \(directory.name): \(DisplayText.sanitized(error.message))")
                return .failure
            }
            return await write(directory.repository(), options: options)
        case .failure(let failure):
            Platform.writeError("roster: \(failure.message)")
            return .failure
        }
    }
}

/// Why a directory server could not be opened: one line naming it.
struct DirectoryFailure: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
