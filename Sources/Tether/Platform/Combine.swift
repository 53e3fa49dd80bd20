// The one place that chooses Combine or OpenCombine.
//
// `import Tether` gives users `AnyCancellable`, `AnyPublisher`, `PassthroughSubject`, `Just`
// and the rest of Combine's vocabulary on every platform: Apple's Combine where it exists,
// OpenCombine elsewhere.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import OpenCombine
#endif
