import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test support that runs the lab and the demo as children: what the end-to-end tests rest on.
@Suite struct ChildProcessTests {
    @Test func itKeepsBothOutputsApartAndGivesTheExitCode() throws {
        let result = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"]).finish()
        #expect(result.status == 3)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func itWritesInputAndTheChildReadsItsEnd() throws {
        let child = try ChildProcess("/bin/cat", [], input: true)
        child.send("one\n")
        child.send("two\n")
        child.closeInput()
        #expect(child.finish().stdout == "one\ntwo\n")
    }

    @Test func theEnvironmentIsTheTestsWithTheGivenVariablesOver() throws {
        let result = try ChildProcess(
            "/bin/sh", ["-c", "echo $CHILD_PROCESS_TEST"],
            environment: [
                "CHILD_PROCESS_TEST": "set"
            ]
        ).finish()
        #expect(result.stdout == "set\n")
    }

    @Test func aSignalEndsItAsAShellReportsIt() throws {
        let child = try ChildProcess("/bin/sleep", ["100"])
        child.send(signal: SIGTERM)
        #expect(child.waitForExit() == 128 + SIGTERM)
        #expect(!child.isRunning)
    }

    /// A hung child fails its test and is killed, instead of hanging the run.
    @Test func aChildThatDoesNotExitWithinTheBoundIsKilled() throws {
        let child = try ChildProcess("/bin/sleep", ["100"])
        var status: Int32 = 0
        withKnownIssue { status = child.waitForExit(within: .milliseconds(50)) }
        #expect(status == 128 + SIGKILL)
        #expect(!child.isRunning)
    }

    /// A child holds no descriptor of the test process but its standard streams: a socket the
    /// test closes ends its connection, even while a long child (a build) runs. (Another test's
    /// child may hold it for the moment between its start and its exec: hence a wait.)
    @Test func aChildHoldsNoOtherDescriptorOfTheTest() async throws {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        #else
        #expect(socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0)
        #endif
        let ours = ends[0]
        defer { close(ours) }
        let child = try ChildProcess("/bin/cat", [], input: true)  // runs until its input closes
        close(ends[1])
        _ = fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK)
        await waitUntil("the end of the closed socket, which the child does not hold", within: .seconds(20)) {
            var byte: UInt8 = 0
            return read(ours, &byte, 1) == 0
        }
        child.closeInput()
        #expect(child.finish().status == 0)
    }

    @Test func aProgramThatCannotStartIsAnError() {
        #expect(throws: ChildProcess.SpawnError.self) {
            _ = try ChildProcess("/no/such/program", [])
        }
    }
}
