/// The lab's scenarios, in the order home lists them (their digits).
public enum Scenarios {
    public static let all: [Scenario] = [
        Scenario("orientation", model: OrientationViewModel.self),
        Scenario("livedata", model: LiveDataViewModel.self),
        Scenario("fuse", model: ForwarderViewModel.self),
        Scenario("asyncsink", model: AsyncSinkViewModel.self),
        Scenario("observed", model: ObservedViewModel.self),
        Scenario("lifecycle") { LifecycleViewModel(mode: $0, environment: $1, lifecycle: $2) },
        Scenario("accumulation", model: AccumulationViewModel.self),
        Scenario("observation", model: ObservationViewModel.self),
    ]
}
