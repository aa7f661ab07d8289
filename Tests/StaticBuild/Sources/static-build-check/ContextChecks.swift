import Dispatch
import Foundation
import Futures

/// Every execution context: `.immediate`, `.main` (the main thread runs `dispatchMain()`),
/// `.global(qos:)`, `.io`, `.queue(_:)` and a custom one.
///
/// Work on `.main` is recognized by a value set on the main queue, not by `Thread.isMainThread`:
/// on Linux, `dispatchMain()` ends the main thread and another thread drains the main queue.
///
/// Where a check asks which thread ran the work, it waits with a callback instead of a blocking
/// read: a reader may claim work that has not started and run it on its own thread.
enum ContextChecks {
    private static let queueKey = DispatchSpecificKey<Int>()

    static func run() {
        DispatchQueue.main.setSpecific(key: queueKey, value: 1)
        Checks.check(".immediate runs the work in the creating thread") {
            let creator = pthread_self()
            let ranOn = BackgroundFuture(on: .immediate) { pthread_self() }
            return ranOn.peek != nil && pthread_equal(ranOn.value, creator) != 0
        }
        Checks.check(".immediate callback runs on the resolving thread") {
            let promise = Promise<Int, Never>()
            let ran = Counter()
            promise.future.onSuccess(on: .immediate) { _ in ran.bump() }
            promise.succeed(1)
            return ran.value == 1
        }
        Checks.check(".main runs work on the main queue") {
            let onMain = BackgroundFuture(on: .main) { DispatchQueue.getSpecific(key: queueKey) == 1 }
            let seen = Counter()
            onMain.onSuccess { if $0 { seen.bump() } }
            return Checks.eventually { seen.value == 1 } && onMain.value
        }
        Checks.check(".main callback") {
            let seen = Counter()
            BackgroundFuture { 1 }.onSuccess(on: .main) { _ in
                if DispatchQueue.getSpecific(key: queueKey) == 1 { seen.bump() }
            }
            return Checks.eventually { seen.value == 1 }
        }
        Checks.check(".global(qos:)") {
            BackgroundFuture(on: .global(qos: .userInitiated)) { 4 }.value == 4
                && BackgroundFuture(on: .global(qos: .background)) { 5 }.value == 5
        }
        Checks.check(".io") { BackgroundFuture(on: .io) { 6 }.value == 6 }
        Checks.check(".queue(_:) runs the work on the queue") {
            let queue = DispatchQueue(label: "static-build-check.queue")
            queue.setSpecific(key: queueKey, value: 7)
            let seen = Counter()
            let onQueue = BackgroundFuture(on: .queue(queue)) { DispatchQueue.getSpecific(key: queueKey) }
            onQueue.onSuccess { if $0 == 7 { seen.bump() } }
            return Checks.eventually { seen.value == 1 } && onQueue.value == 7
        }
        Checks.check(".queue(_:) callback") {
            let queue = DispatchQueue(label: "static-build-check.callbacks")
            queue.setSpecific(key: queueKey, value: 8)
            let seen = Counter()
            Future<Int, Never>(value: 1).onSuccess(on: .queue(queue)) { _ in
                if DispatchQueue.getSpecific(key: queueKey) == 8 { seen.bump() }
            }
            return Checks.eventually { seen.value == 1 }
        }
        Checks.check("a custom ExecutionContext") {
            let used = Counter()
            let custom = ExecutionContext { work in
                used.bump()
                DispatchQueue.global().async { work() }
            }
            let seen = Counter()
            let future = BackgroundFuture(on: custom) { 12 }
            future.onSuccess(on: custom) { if $0 == 12 { seen.bump() } }
            return Checks.eventually { seen.value == 1 } && future.value == 12 && used.value >= 1
        }
    }
}
