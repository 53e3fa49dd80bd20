import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive loop: Dispatch sources on the main queue for terminal input, signals
/// and one timer armed only while a frame or a wake-up is pending. Nothing else wakes the
/// process, so an idle app sleeps. Internal; lives for one `Application.run()`.
@MainActor
final class RunLoopDriver {
    private unowned let app: Application
    private let backend: any InteractiveBackend
    private let finish: (Int32) -> Void
    private var input: DispatchSourceRead?
    private var signals: DispatchSourceRead?
    private let timer: DispatchSourceTimer
    private var frameQueued = false
    private var lastFrame: ContinuousClock.Instant?
    private var stopped = false
    /// Frames are at least this far apart (60 a second).
    static let frameInterval: Duration = .microseconds(16_667)

    init(app: Application, backend: any InteractiveBackend, finish: @escaping (Int32) -> Void) {
        self.app = app
        self.backend = backend
        self.finish = finish
        timer = DispatchSource.makeTimerSource(queue: .main)
    }

    func start() {
        let input = DispatchSource.makeReadSource(fileDescriptor: backend.inputFileDescriptor, queue: .main)
        input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
        let signals = DispatchSource.makeReadSource(
            fileDescriptor: backend.signalFileDescriptor, queue: .main)
        signals.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readSignals() } }
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.timerFired() } }
        timer.schedule(deadline: .distantFuture)
        self.input = input
        self.signals = signals
        input.resume()
        signals.resume()
        timer.resume()
        app.render()
        lastFrame = .now
        armTimer()
    }

    private func readInput() {
        let events = backend.readEvents()
        for event in events {
            app.send(event)
            if stopped { return }
        }
        // Readable but nothing to read: at end-of-file or after a hang-up the descriptor
        // stays readable forever, so quit instead of being woken in a loop.
        if events.isEmpty, Self.isHungUp(backend.inputFileDescriptor) { app.inputEnded() }
    }

    /// True when `fd` is hung up, in error or closed (poll says so without consuming input).
    static func isHungUp(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 0) >= 0 else { return errno != EINTR }
        return p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    private func readSignals() {
        for s in backend.readSignals() {
            // After a stop the window may have another size.
            if s == SIGWINCH || s == SIGCONT { _ = backend.updateSize() }
            app.handleSignal(s)
            if stopped { return }
        }
    }

    /// Draws now if a frame is due, otherwise arms the timer for when it will be.
    func scheduleFrame() {
        guard !stopped, app.hasPendingFrame, !frameQueued else { return }
        if let last = lastFrame, ContinuousClock.now - last < Self.frameInterval {
            armTimer()
        } else {
            // Draw after the current event's handlers have run, so their changes share a frame.
            frameQueued = true
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.frameQueued = false
                    self.drawFrame()
                }
            }
        }
    }

    private func drawFrame() {
        guard !stopped, app.hasPendingFrame else { return }
        app.drawFrameIfNeeded()
        lastFrame = .now
        armTimer()
    }

    private func timerFired() {
        guard !stopped else { return }
        app.runDueWakeups()
        if app.hasPendingFrame, let last = lastFrame, ContinuousClock.now - last >= Self.frameInterval {
            drawFrame()
        } else {
            armTimer()
        }
    }

    /// Arms the one-shot timer for the earliest of the next frame (if one is pending) and
    /// the next wake-up; disarms it when neither is pending.
    func armTimer() {
        guard !stopped else { return }
        var deadline: ContinuousClock.Instant?
        if app.hasPendingFrame, !frameQueued {
            deadline = (lastFrame ?? .now) + Self.frameInterval
        }
        if let wake = app.nextDeadline { deadline = min(deadline ?? wake, wake) }
        guard let deadline else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let delay = max(.zero, deadline - .now)
        let (seconds, attoseconds) = delay.components
        let nanos = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), leeway: .milliseconds(1))
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        input?.cancel()
        signals?.cancel()
        timer.cancel()
        let code = app.pendingExitCode ?? 0
        finish(code)
    }
}
