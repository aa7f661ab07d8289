/// A future used as if it were its value (FutureProxy's forwarding).
struct StandingInForTheValue: Chapter {
    let title = "A future standing in for its value"
    let summary =
        "A future forwards its value's members, subscripts, operators and protocols: use it as the value, "
        + "and it waits only where the value is needed."

    func run(_ log: ChapterLog) {
        let loads = Counter()
        let names = LazyFuture { () -> [String] in
            loads.increment()
            return ["Ada", "Grace", "Barbara", "Frances"]
        }
        log.check(loads.value == 0, "a lazy future of names: nothing loaded yet")
        log.say("count: \(names.count); first: \(names[0]); last: \(names.last ?? "-")")
        log.check(names.count == 4 && names[0] == "Ada", "members and subscripts reach the array")
        let longest = names.max { $0.count < $1.count }
        log.check(longest == "Barbara" && loads.value == 1, "the future is a Collection; it loaded once")
        let answer = BackgroundFuture { 6 * 7 }
        log.check(answer == 42 && answer > 40 && answer + 1 == 43, "== , > and + work on the future as on 42")
        let same = LazyFuture { 42 }
        let set: Set<Future<Int, Never>> = [answer, same]
        log.check(set.count == 1, "futures hash and compare as their values: a Set of both holds one")
        log.say("interpolated, the future prints its value: \(answer)")
    }
}
