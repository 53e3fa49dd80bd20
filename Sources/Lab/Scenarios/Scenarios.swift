/// The lab's scenarios, in the order home lists them (their digits).
public enum Scenarios {
    public static let all: [Scenario] = [
        .orientation, .liveData, .fuse, .asyncSink, .observed, .lifecycle, .accumulation, .observation,
    ]
}
