import Testing

extension Tag {
    /// A test that measures the wall clock (idle wake-ups, latency, pacing). `make test` runs
    /// these after the logic tests, one at a time, so a busy machine skews nothing else.
    @Tag public static var timing: Self
}
