#if TETHER_TSAN
import Tether

// Under `make tsan`, this module's locks are Tether's pthread-backed one too: ThreadSanitizer
// cannot see the futex `Synchronization.Mutex` uses on Linux (see Tether's SanitizerMutex).
typealias Mutex<Value> = SanitizerMutex<Value>
#endif
