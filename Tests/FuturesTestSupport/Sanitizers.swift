package import Testing

#if canImport(Glibc)
    import Glibc

    /// `RTLD_DEFAULT`, which Swift does not import from Glibc (a cast macro): a null handle.
    private var everyLoadedImage: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 0) }
#elseif canImport(Musl)
    import Musl

    /// `RTLD_DEFAULT`, which Swift does not import from Musl (a cast macro): a null handle.
    private var everyLoadedImage: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 0) }
#elseif canImport(Darwin)
    import Darwin

    /// `RTLD_DEFAULT`: -2 on Apple platforms, where a null handle is an error, not "every image".
    private var everyLoadedImage: UnsafeMutableRawPointer? { RTLD_DEFAULT }
#endif

// No Foundation here: on Linux it re-exports Glibc, and scripts/check-darwin type-checks this
// file's Darwin branch against Apple's declarations alone.

/// Whether this process runs under ThreadSanitizer, whose runtime is linked in with its
/// `__tsan_init` entry point (looked up in every loaded image: `RTLD_DEFAULT`). Its own locks can
/// stop a thread that only computes (while it resets its shadow state, every thread waits), so a
/// test that counts the runners the pool found blocked must allow for them there.
package let runsUnderThreadSanitizer: Bool = dlsym(everyLoadedImage, "__tsan_init") != nil

/// Whether this process runs under AddressSanitizer (its `__asan_init` entry point).
package let runsUnderAddressSanitizer: Bool = dlsym(everyLoadedImage, "__asan_init") != nil

/// `limit`, a test's safety limit for something that must end (a watchdog, a bounded wait),
/// stretched under the sanitizers, which run code several times slower (ThreadSanitizer 5 to 15
/// times, AddressSanitizer 2 to 3): a limit is a hang detector, never a timing assertion, and must
/// not fire on a slow but live run. Seen without it in a loaded ThreadSanitizer run: the random
/// graph's 120-second watchdog fired with every node resolved and every reader done.
package func hangLimit(_ limit: Duration) -> Duration {
    limit * sanitizerSlowdown
}

/// How many times a safety limit is stretched: 4 under ThreadSanitizer, 2 under
/// AddressSanitizer, else 1 (`hangLimit`, `hangGuard`).
package let sanitizerSlowdown = runsUnderThreadSanitizer ? 4 : runsUnderAddressSanitizer ? 2 : 1

extension Trait where Self == TimeLimitTrait {
    /// A time limit that only guards against a hang, stretched under the sanitizers as
    /// `hangLimit` is (x4 ThreadSanitizer, x2 AddressSanitizer): a ThreadSanitizer run with busy
    /// cores beside it took 327 s for a `FutureProgress` test that takes one second alone, and
    /// failed its plain two-minute limit though it was live.
    package static func hangGuard(minutes: Int) -> Self {
        .timeLimit(.minutes(minutes * sanitizerSlowdown))
    }
}
