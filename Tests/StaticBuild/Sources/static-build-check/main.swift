// Every kind of future, every combinator and every execution context, each result checked.
//
// The checks run on a thread of their own while the main thread runs the main queue
// (`dispatchMain()`), so that work on `ExecutionContext.main` runs as in an app. Each check's
// name is printed, unbuffered, before it runs: a program that dies shows the check it died in.
// The program exits 0 when every check passed, 1 otherwise.
import Dispatch
import Foundation

Thread.detachNewThread {
    KindChecks.run()
    CombinatorChecks.run()
    ToolboxChecks.run()
    ContextChecks.run()
    AsyncChecks.run()
    // Last, as a static build of the library once trapped in them (issue 58).
    ZipChecks.run()
    say("\(Checks.passed) checks passed, \(Checks.failed) failed")
    exit(Checks.failed == 0 ? 0 : 1)
}
dispatchMain()
