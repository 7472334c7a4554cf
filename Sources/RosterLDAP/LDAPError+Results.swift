/// What was being done when a result came back: the words a refusal is
/// told in.
enum LDAPErrorContext {
    case connecting(to: String)
    case binding(as: String)
    case reading(String, by: String)
    case modifying(String, attributes: [String], by: String)
    case adding(String, by: String)
    case deleting(String, by: String)
    case sorting(by: [String])

    /// The entry or base the operation named.
    var target: String {
        switch self {
        case .connecting(let address): address
        case .binding(let dn): dn
        case .reading(let dn, _), .modifying(let dn, _, _), .adding(let dn, _), .deleting(let dn, _): dn
        case .sorting: "the sorted list"
        }
    }

    /// "change title", "add uid=…", "read ou=People,…".
    var deed: String {
        switch self {
        case .connecting: "connect"
        case .binding: "log in"
        case .reading(let dn, _): "read " + dn
        case .modifying(let dn, let attributes, _): attributes.isEmpty ? "change " + dn : "change " + attributes.joined(separator: ", ")
        case .adding(let dn, _): "add " + dn
        case .deleting(let dn, _): "delete " + dn
        case .sorting(let keys): "sort by " + keys.joined(separator: ", ")
        }
    }

    var isBind: Bool {
        if case .binding = self { return true }
        return false
    }

    var who: String {
        switch self {
        case .connecting, .sorting: "this connection"
        case .binding(let dn): dn
        case .reading(_, let who), .modifying(_, _, let who), .adding(_, let who), .deleting(_, let who): who
        }
    }
}

extension LDAPError {
    /// A failure of libldap itself, with no result from a server: the
    /// connection went or could not be made, or a deadline passed.
    static func library(code: Int32, detail: String) -> LDAPError {
        switch code {
        case -1: lost(detail)
        case -11: LDAPError(.cannotConnect, "the directory could not be reached", detail: detail, resultCode: code)
        case -5: LDAPError(.timedOut, "the directory did not answer in time", detail: detail, resultCode: code)
        case -8: cancelled()
        default: LDAPError(.other, "the directory connection failed", detail: detail, resultCode: code)
        }
    }

    /// What a result that was not success means, said about `context`.
    static func result(_ result: LDAPResult, _ context: LDAPErrorContext) -> LDAPError {
        let detail = LDAPHandle.describe(result.code) + (result.diagnostic.isEmpty ? "" : ": " + result.diagnostic)
        let (kind, message) = meaning(of: result.code, context)
        return LDAPError(kind, message, detail: detail, resultCode: result.code)
    }

    private static func meaning(of code: Int32, _ context: LDAPErrorContext) -> (Kind, String) {
        switch code {
        case 50: (.insufficientAccess, "the directory does not let \(context.who) \(context.deed)")
        case 32: (.noSuchObject, "\(context.target) is not in the directory")
        case 122: (.assertionFailed, "\(context.target) was changed by someone else since it was read")
        case 4: (.sizeLimitExceeded, "the directory stopped at its size limit: not everyone was read")
        case 3: (.timeLimitExceeded, "the directory stopped at its time limit: not everyone was read")
        case 49: (.authentication, "the directory refused the password for \(context.who)")
        // Outside a bind, "stronger authentication required" is slapd's
        // refusal of an anonymous write.
        case 8 where !context.isBind: (.insufficientAccess, "the directory does not let \(context.who) \(context.deed)")
        case 48, 7, 8, 13: (.authentication, "the directory does not accept this way of logging in for \(context.who)")
        case 51: (.busy, "the directory is busy; try again")
        case 52: (.busy, "the directory is not available just now; try again")
        case 53: (.busy, "the directory is unwilling to \(context.deed)")
        case 11: (.busy, "the directory's administrative limit stopped the search")
        case 12, 18, 76: (.unsupported, "the directory cannot \(context.deed)")
        case 118: (.cancelled, "cancelled")
        case -1: (.connectionLost, "the connection to the directory was lost")
        default: (.other, "the directory refused to \(context.deed): \(phrase(for: code))")
        }
    }

    /// The other results a change can meet, in a few words.
    private static func phrase(for code: Int32) -> String {
        switch code {
        case 16: "the attribute has no such value"
        case 17: "the directory does not know that attribute"
        case 19: "a value breaks a constraint"
        case 20: "the value is there already"
        case 21: "a value has the wrong form"
        case 34: "the name is not a valid DN"
        case 64: "the name breaks a naming rule"
        case 65: "the entry would break its object classes"
        case 66, 67: "the entry has entries below it, or the change touches its name"
        case 68: "an entry with that name exists"
        case 10: "another server holds it (a referral)"
        default: "result \(code)"
        }
    }
}
