// Serves a ledger at PATH for trying `tether-lab attach PATH` by hand and for the inspector's
// end-to-end tests (a second process). Commands, one a line on stdin:
//   bind N     makes N owners, each with a subscription bound to a DisposeBag
//   end        ends them all (bound: nothing leaks)
//   note TEXT  adds a note to the ledger's log
//   stop       stops the server (the socket goes), then keeps reading
//   exit       exits with status 0 (the socket goes, through the exit hook)
// End of input exits too. Prints `serving PATH` once the socket is in place, then `ok` after each
// command, on stdout. While it waits for a line its main thread blocks in read(2): idle, it wakes
// no thread.
import Tether
import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class DemoOwner {
    let bag = DisposeBag()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        events.sink { [unowned self] in received &+= $0 }.store(boundTo: bag)
    }
}

/// Writes a line to a file descriptor at once (stdout is a pipe in the tests: no buffering).
func say(_ text: String, to descriptor: Int32 = 1) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

guard CommandLine.arguments.count == 2 else {
    say("usage: inspector-demo PATH", to: 2)
    exit(2)
}
let path = CommandLine.arguments[1]
let server: LedgerServer
do {
    server = try LedgerServer.start(at: path, ledger: .shared)
} catch {
    say("inspector-demo: \(error)", to: 2)
    exit(2)
}
say("serving \(path)")

let events = PassthroughSubject<Int, Never>()
var owners: [DemoOwner] = []
while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    switch words.first {
    case "bind":
        let count = words.count > 1 ? Int(words[1]) ?? 1 : 1
        owners += (0..<count).map { _ in DemoOwner(events) }
    case "end":
        owners.removeAll()
    case "note":
        Ledger.shared.note(words.count > 1 ? words[1] : "")
    case "stop":
        server.stop()
    case "exit":
        exit(0)
    default:
        break
    }
    say("ok")
}
exit(0)
