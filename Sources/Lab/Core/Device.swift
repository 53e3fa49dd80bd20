import Foundation
import Observation
import Tether

/// The simulated device: its orientation, and the ways the lab hears about a rotation — a
/// notification (as `UIDevice.orientationDidChangeNotification`), a publisher, a `LiveData`,
/// and the current value, which is `@Observable` (watched with `Observations { device.orientation }`).
///
/// Lives as long as the lab. Main-actor isolated: rotations happen on the lab's thread and are
/// delivered synchronously to notification observers and subscribers before `rotate()` returns;
/// an `Observations` loop hears them at its next turn on the main actor.
@MainActor @Observable
public final class Device {
    /// Posted on ``notificationCenter`` after each rotation; no user info.
    public static let orientationDidChange = Notification.Name("TetherLab.orientationDidChange")

    /// The lab's own notification center (not `.default`, so each lab instance — and each
    /// test — hears only its own device).
    public let notificationCenter = NotificationCenter()

    /// The current orientation.
    public private(set) var orientation: Orientation

    /// How many rotations so far.
    public private(set) var rotations = 0

    private let subject: CurrentValueSubject<Orientation, Never>

    /// The orientation as a `LiveData`, published after each rotation (the LiveData library's value holder).
    public let orientationLiveData: LiveData<Orientation>

    public init(orientation: Orientation = .portrait) {
        self.orientation = orientation
        subject = CurrentValueSubject(orientation)
        orientationLiveData = LiveData(orientation)
    }

    /// The orientation now and after every rotation.
    public var orientationPublisher: AnyPublisher<Orientation, Never> { subject.eraseToAnyPublisher() }

    /// Rotates to the next orientation; notifies subscribers, then posts the notification.
    public func rotate() {
        orientation = orientation.next
        rotations += 1
        subject.send(orientation)
        orientationLiveData.publish(value: orientation)
        notificationCenter.post(name: Device.orientationDidChange, object: nil)
    }
}
