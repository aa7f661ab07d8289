import Foundation
import Testing

/// The stress tests' watchdog (`HangWatchdog`): when it fires, the run ends at once, with the hang
/// dump in its log.
struct HangWatchdogTests {
    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        /// A `fatalError` there left a soak's AddressSanitizer run stalled in the runtime's crash
        /// handler for 13 minutes; the watchdog now leaves with `_exit(EXIT_FAILURE)`, so a trap
        /// (a signal, not that status) fails this test.
        @Test(
            "a watchdog that fires writes the hang dump and ends the process with a failure status",
            .hangGuard(minutes: 5))
        func aFiredWatchdogEndsTheProcess() async throws {
            let result = await #expect(processExitsWith: .exitCode(EXIT_FAILURE), observing: [\.standardErrorContent]) {
                // The dump without gdb: attaching it is slow, and it is not what is tested.
                setenv("FUTURES_HANG_BACKTRACES", "0", 1)
                let watchdog = HangWatchdog(limit: .milliseconds(50)) { "the test's own stall" }
                // The watchdog ends the process long before this; if it never does, the
                // child leaves with success, which fails the expectation.
                sleep(240)
                watchdog.disarm()
                exit(EXIT_SUCCESS)
            }
            let text = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
            #expect(text.contains("=== hang dump of process"))
            #expect(text.contains("thread backtraces: off"))
            #expect(text.contains("Fatal error: hang detected after"))
            #expect(text.contains("the test's own stall"))
        }
    #endif
}
