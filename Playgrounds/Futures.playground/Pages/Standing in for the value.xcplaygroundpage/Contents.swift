//: [Previous](@previous)
/*:
 # A future standing in for its value

 With `import FutureProxy` (instead of `import Futures`) a future can be used as if it were
 its value: read its members, subscript it, compare it, print it, loop over it, and hand it to
 code that wants a `Collection`. Each use waits for the value first (or computes it, for a
 lazy future). Swift forwards at compile time, type-checked: member key paths through
 `@dynamicMemberLookup`, and protocol conformances when the future cannot fail.
 */
import FutureProxy

let loads = Tally()
let names = LazyFuture {  // Future<[String], Never>; nothing runs yet
    loads.increment()
    return ["Grace", "Ada", "Barbara", "Edsger"]
}
print("made a lazy future of names; loads so far: \(loads.value)")

/*:
 ## Members and subscripts

 `names.count` is `names.value.count`: the first use runs the work, the next are plain reads.
 Methods are reached through `()`, which returns the value itself: key paths cannot name
 methods.
 */
print("count: \(names.count)")  // runs the work now
print("first: \(names[0]), last: \(names.last ?? "-")")
print("sorted: \(names().sorted())")  // a method, through ()
print("loads after all that: \(loads.value)")
check(loads.value == 1, "the lazy names were loaded once")

/*:
 ## Comparing, hashing, printing

 A future of an `Equatable` value is `Equatable`, and compares with plain values on either
 side. Two distinct futures with equal values are equal; `===` still compares the futures.
 */
let answer = BackgroundFuture { 6 * 7 }  // Future<Int, Never>
let sameAnswer = LazyFuture { 42 }
print("answer == 42: \(answer == 42), 42 == answer: \(42 == answer)")
print("answer == sameAnswer: \(answer == sameAnswer), answer === sameAnswer: \(answer === sameAnswer)")
print("answer > 40: \(answer > 40), answer + 1 = \(answer + 1)")  // arithmetic gives a plain Int
let both: Set<Future<Int, Never>> = [answer, sameAnswer]
print("a Set of both futures holds \(both.count): they hash as their values")
print("interpolated: \(answer)")

//: `debugDescription` never blocks and never starts work, so a debugger can look safely.
let untouched = LazyFuture { 1 + 1 }
debugPrint(untouched)
_ = untouched.value
debugPrint(untouched)

/*:
 ## Loops, and code that wants a collection

 A future of a sequence is a `Sequence`; of a collection, a `Collection` (random access when the
 value has it). So `for in` works, and so does any generic function.
 */
for name in names {
    print("hello, \(name)")
}
func longest(of words: some Collection<String>) -> String? {
    words.max { $0.count < $1.count }
}
print("longest name: \(longest(of: names) ?? "-")")  // the future passed as a Collection

/*:
 ## Property wrappers: the future disappears

 `@Lazy var x = expression` makes a lazy future of the expression; `@Background var` starts it
 in the background when the property is initialized. The property reads as the value; `$x` is
 the future, for `isResolved`, `peek`, `get()` or to hand on.
 */
let renders = Tally()
func render(_ part: String) -> String {
    renders.increment()
    return "<\(part)>"
}

struct Page: Sendable {
    @Background var header = render("header")  // starts rendering at init
    @Lazy var footer = render("footer")  // renders on first read, if ever
}

let page = Page()
print("header: \(page.header)")
print("footer rendered yet? \(page.$footer.isResolved)")
print("footer: \(page.footer); rendered now? \(page.$footer.isResolved)")
print("renders: \(renders.value)")
check(renders.value == 2, "header and footer rendered once each")

//: [Next](@next)
