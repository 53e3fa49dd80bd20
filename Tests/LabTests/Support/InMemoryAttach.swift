import TerminalUI
import TetherInspector

@testable import Lab

/// Attach on the in-memory backend for the process `hello` names, at /tmp/myapp.sock: fed events
/// by hand, as `AttachSession` feeds them from a socket.
@MainActor
struct InMemoryAttach {
    static let hello = InspectorHello(pid: 4242, process: "myapp")
    let app: AttachApp
    let backend: TestBackend

    init(size: Size = Size(width: 120, height: 30)) {
        backend = TestBackend(size: size)
        app = AttachApp(backend: backend, path: "/tmp/myapp.sock", hello: Self.hello)
    }

    /// A frame drawn now, one line a row without trailing spaces.
    var screenText: String {
        app.application.render()
        return backend.trimmedTextLines.joined(separator: "\n")
    }
}
