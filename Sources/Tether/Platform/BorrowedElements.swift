/// What ``Swift/Array/visitBorrowed(_:)`` shows each element of an array to.
@usableFromInline
protocol BorrowingVisitor {
    associatedtype Element: AnyObject
    /// Visits `element`, borrowed from the array: storing it retains it as usual. False stops.
    mutating func visit(_ element: Element) -> Bool
}

extension Array where Element: AnyObject {
    /// Shows `visitor` each element in order, until it returns false, without retaining the
    /// elements: the array holds every one of them for as long as the loop lasts.
    ///
    /// For a hot loop that calls code the compiler cannot see (a stored closure): it then retains
    /// and releases each element around the call, two atomic operations an element, which is what
    /// ``LiveData``'s dispatch would pay per observer (measured in Benchmarks/README.md). A
    /// visitor, not a closure, so that the compiler specializes the loop for it.
    ///
    /// Safe because the array is a value the caller holds: a mutation through another copy of it
    /// copies the storage first, so the storage this loop reads stays whole until it returns.
    @inlinable
    func visitBorrowed<Visitor: BorrowingVisitor>(_ visitor: inout Visitor) where Visitor.Element == Element {
        withUnsafeBufferPointer { elements in
            for index in elements.indices {
                let more = Unmanaged.passUnretained(elements[index])._withUnsafeGuaranteedRef {
                    visitor.visit($0)
                }
                if !more { return }
            }
        }
    }
}
