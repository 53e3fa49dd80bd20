/// The checks' ids. They are fixed: ignore comments, CI configurations and SARIF consumers
/// name them.
public enum RuleID: String, Sendable, CaseIterable, Codable, Comparable {
    case unstoredTask = "unstored-task"
    case strongSelfLoop = "strong-self-loop"
    case sinkRetainCycle = "sink-retain-cycle"
    case foreignBag = "foreign-bag"
    case unownedSelfPublisher = "unowned-self-publisher"
    case taskInSink = "task-in-sink"
    case discardedObserver = "discarded-observer"
    /// Not a rule: a file that does not parse, reported once instead of checked.
    case parseError = "parse-error"

    /// The seven rules, in the design's order (`parseError` is not one of them).
    public static let rules: [RuleID] = allCases.filter { $0 != .parseError }

    /// One line on what the rule finds: SARIF's short description and `--help`'s list.
    public var summary: String {
        switch self {
        case .unstoredTask:
            "a Task whose value is discarded in a class, an actor or a View, whose body loops"
        case .strongSelfLoop:
            "a task's loop that holds its owner strongly, so the owner never ends"
        case .sinkRetainCycle:
            "a sink or observation that captures self strongly and is stored in self"
        case .foreignBag:
            "a subscription or task stored in another object's bag: it grows each time"
        case .unownedSelfPublisher:
            "[unowned self] in a returned publisher chain: a subscriber outliving self crashes"
        case .taskInSink:
            "an unstored Task started in a sink: cancelling the subscription cancels none"
        case .discardedObserver:
            "addObserver(forName:object:queue:using:) whose token is discarded: never removed"
        case .parseError:
            "a file that does not parse"
        }
    }

    public static func < (a: RuleID, b: RuleID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
