import Tether

/// What every screen of the lab shares: the ledger it records into, the clock lab time runs
/// on, the device, and the mode the next sheet is presented in.
///
/// Interactive runs use ``SystemClock``; headless runs and tests a ``ManualClock`` that
/// `wait:MS` advances. Lives as long as the lab; main-actor isolated.
@MainActor
public final class LabEnvironment {
    public let ledger: Ledger
    public let clock: any TetherClock
    public let device: Device
    /// The mode the next presented sheet uses (`m` toggles it).
    public var mode: Mode = .bound
    /// Whether the inspector panel is shown (`i` toggles it).
    public var showsInspector = true
    /// Long-lived objects a scenario keeps beyond its sheet — a repository, a consumer — by
    /// key. They live as long as the lab.
    public var residents: [String: AnyObject] = [:]
    /// Called by view models after they change what their screen shows; the app sets it to
    /// request a frame.
    public var onChange: (@MainActor () -> Void)?

    public init(clock: any TetherClock, gracePeriod: Duration = .milliseconds(300), device: Device = Device())
    {
        self.clock = clock
        self.ledger = Ledger(clock: clock, gracePeriod: gracePeriod)
        self.device = device
    }

    /// Tells the app that something on screen changed.
    public func changed() { onChange?() }

    /// Runs `body` with the lab's ledger current, so every binding made in it is recorded there.
    public func recording<R>(_ body: () throws -> R) rethrows -> R {
        try Ledger.$current.withValue(ledger) { try body() }
    }
}
