/// The lab's scenarios, in the order home lists them (their digits).
public enum Scenarios {
    public static let all: [Scenario] = [
        OrientationScenario.scenario,
        LiveDataScenario.scenario,
        FuseScenario.scenario(number: 3),
        AsyncSinkScenario.scenario(number: 4),
        ObservedScenario.scenario(number: 5),
        LifecycleScenario.scenario,
    ]

    /// The scenario with `id`, if any.
    public static func scenario(id: String) -> Scenario? { all.first { $0.id == id } }
}
