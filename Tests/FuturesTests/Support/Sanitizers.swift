#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// No Foundation here: on Linux it re-exports Glibc, and scripts/check-darwin type-checks this
// file's Darwin branch against Apple's declarations alone.

/// Whether this process runs under ThreadSanitizer, whose runtime is linked in with its
/// `__tsan_init` entry point. Its own locks can stop a thread that only computes (while it
/// resets its shadow state, every thread waits), so a test that counts the runners the pool found
/// blocked must allow for them there.
let runsUnderThreadSanitizer: Bool = dlsym(everyLoadedImage, "__tsan_init") != nil

/// The handle with which `dlsym` searches every image loaded into the process: `RTLD_DEFAULT`,
/// which is -2 on Apple platforms (a null handle there is an error) and a null pointer on Linux,
/// where Swift does not import the macro.
private var everyLoadedImage: UnsafeMutableRawPointer? {
    #if canImport(Darwin)
        RTLD_DEFAULT
    #else
        UnsafeMutableRawPointer(bitPattern: 0)
    #endif
}
