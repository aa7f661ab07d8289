import FutureProxy
import Testing

@Suite("Descriptions")
struct DescriptionTests {
    @Test("\"\\(future)\" prints the value")
    func interpolationPrintsValue() {
        let answer = LazyFuture { 42 }
        #expect("\(answer)" == "42")
        #expect(answer.description == "42")
        let greeting = BackgroundFuture { "Hello" }
        #expect("\(greeting), world" == "Hello, world")
        #expect(String(describing: greeting) == "Hello")
    }

    @Test("a value without a description of its own prints as it would alone")
    func interpolationOfPlainStruct() {
        let person = LazyFuture { alan }
        #expect("\(person)" == "\(alan)")
        var printed = ""
        print(person, terminator: "", to: &printed)
        #expect(printed == "\(alan)")
    }

    @Test("debugDescription of an unstarted lazy future neither blocks nor starts the work")
    func debugDescriptionPending() {
        let runs = Counter()
        let table = LazyFuture {
            runs.increment()
            return [1, 2]
        }
        let line = #line - 4
        let text = table.debugDescription
        #expect(text == "LazyFuture<Array<Int>>(pending, created at FutureProxyTests/DescriptionTests.swift:\(line))")
        #expect(runs.value == 0)
        #expect(!table.isResolved)
    }

    @Test("debugDescription of an uncompleted promise does not block")
    func debugDescriptionOfPromise() {
        let promise = Promise<String, LoadError>()
        #expect(promise.future.debugDescription.hasPrefix("Future<String, LoadError>(pending, promise, created at "))
        promise.fail(.missing)
        #expect(
            promise.future.debugDescription == "Future<String, LoadError>(failed: FutureProxyTests.LoadError.missing)")
    }

    @Test("debugDescription of running work says running, without waiting for it")
    func debugDescriptionRunning() {
        let started = Gate()
        let finish = Gate()
        let work = BackgroundFuture { () -> Int in
            started.open()
            finish.wait()
            return 7
        }
        started.wait()
        #expect(work.debugDescription.hasPrefix("BackgroundFuture<Int>(running, created at "))
        finish.open()
        #expect(work.value == 7)
        #expect(work.debugDescription == "BackgroundFuture<Int>(resolved: 7)")
    }

    @Test("debugDescription shows the resolved value in its debug form")
    func debugDescriptionResolved() {
        let name = LazyFuture { "Ada" }
        _ = name.value
        #expect(name.debugDescription == "LazyFuture<String>(resolved: \"Ada\")")
        #expect(String(reflecting: name) == name.debugDescription)
    }

    @Test("a future that can fail interpolates as its debug description, without blocking")
    func throwingFutureInterpolation() {
        let promise = Promise<Int, any Error>()
        #expect("\(promise.future)".hasPrefix("Future<Int, any Error>(pending, "))
        promise.succeed(3)
        #expect("\(promise.future)" == "Future<Int, any Error>(resolved: 3)")
    }
}
