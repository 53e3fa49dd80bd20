/// The lab's scenarios, in the order home lists them (their digits).
public enum Scenarios {
    public static let all: [Scenario] = [
        OrientationScenario.scenario,
        LiveDataScenario.scenario,
        LifecycleScenario.scenario,
    ]

    /// The scenario with `id`, if any.
    public static func scenario(id: String) -> Scenario? { all.first { $0.id == id } }
}
