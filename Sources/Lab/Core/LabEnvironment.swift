import Tether

/// What every screen of the lab shares: the ledger it records into, the clock lab time runs
/// on, the device, the mode the next sheet is presented in, and the residents.
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
    /// Called by view models after they change what their screen shows; the app sets it to
    /// request a frame.
    public var onChange: (@MainActor () -> Void)?
    private var residents: [String: AnyObject] = [:]
    private var releasedOnTearDown: Set<String> = []

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

    /// The lab's `resident`, made the first time a scenario asks for it; it lives as long as the lab.
    func resident<Value>(_ resident: Resident<Value>) -> Value {
        if let value = residents[resident.name] as? Value { return value }
        let value = resident.make(self)
        residents[resident.name] = value
        if resident.releasedOnTearDown { releasedOnTearDown.insert(resident.name) }
        return value
    }

    /// Lets go of the residents that end with the lab (the app session, an owner in the ledger),
    /// so that a lab that quits ends with every counter where it began. Called when the lab
    /// tears down.
    func releaseResidents() {
        for name in releasedOnTearDown { residents[name] = nil }
        releasedOnTearDown = []
    }
}

/// A long-lived object a scenario keeps beyond its sheets — a repository, a consumer, a bag
/// nobody ends — named, typed, and made on first use by ``LabEnvironment/resident(_:)``.
///
/// A plain value: `Sendable`.
struct Resident<Value: AnyObject>: Sendable {
    let name: String
    /// Whether the lab lets go of it when it tears down (``LabEnvironment/releaseResidents()``):
    /// a resident that is an owner in the ledger does, so the lab ends with no owner alive. The
    /// others stay to the end, so that what a leaky twin left with them is still seen.
    var releasedOnTearDown = false
    let make: @MainActor @Sendable (LabEnvironment) -> Value
}

extension Resident where Value == DisposeBag {
    /// A bag that lives as long as the lab: where a leaky twin registers what nobody removes.
    static func bag(_ name: String) -> Resident {
        Resident(name: name) { DisposeBag(ledger: $0.ledger) }
    }
}
