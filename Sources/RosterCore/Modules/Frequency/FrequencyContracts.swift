// Every protocol of the frequency view (`F`): counts by any field.

/// Presenter → view.
@MainActor
public protocol FrequencyViewInterface: AnyObject {
    func show(_ model: FrequencyViewModel)
}

/// View → presenter: the table's intents, and changing the field.
@MainActor
public protocol FrequencyModuleInterface: TableModuleInterface {
    /// `f` / `F`: count by the next (or, `by: -1`, the previous) field.
    func cycleField(by step: Int)
}

public enum FrequencyRoute: Equatable, Sendable {
    /// One company's people (the company field goes by id, exactly).
    case company(Int)
    /// The people a query term selects (`eye="blue"`, `age:30-39`), added
    /// to the filter in force; `title` says where the list came from
    /// ("counts by eye colour": true even once its filter is changed).
    case matching(term: String, title: String)
    /// Clear the search filter the counts were made from.
    case clearFilter
    /// The command line (`:`), over the counts.
    case commandLine
    /// The counts' help (`:help`, as `?`).
    case help
    case back
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol FrequencyWireframe: AnyObject {
    func navigate(to route: FrequencyRoute)
}
