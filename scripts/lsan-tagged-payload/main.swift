// LeakSanitizer cannot see a class reference stored as a tagged enum payload: it reports the
// object as leaked although its holder is alive (docs/testing.md, "Objects alive at exit").
// Every holder below stays reachable from a global until exit; LeakSanitizer reports the ten
// `Watched` objects (reached through `.watched`, whose payload carries a tag in its spare bits)
// and not the ten `Target`s (reached through `.owned`, tag zero: a plain pointer).
//
//     swiftc -sanitize=address scripts/lsan-tagged-payload/main.swift -o /tmp/lsan-tagged-payload
//     ASAN_OPTIONS=detect_leaks=1 /tmp/lsan-tagged-payload

#if canImport(Glibc)
    import Glibc
#endif

final class Target {}
final class Watched {
    weak var object: Target?
    init(_ object: Target) { self.object = object }
}
enum Link {
    case owned(Target)
    case watched(Watched)
    case unlinked
}
final class Holder {
    var link: Link?
    init(_ link: Link) { self.link = link }
}

let target = Target()
var holders: [Holder] = []
for _ in 0..<10 { holders.append(Holder(.owned(Target()))) }
for _ in 0..<10 { holders.append(Holder(.watched(Watched(target)))) }
let owned = unsafeBitCast(holders[0].link!, to: UInt.self)
let watched = unsafeBitCast(holders[10].link!, to: UInt.self)
print("bits of .owned: 0x\(String(owned, radix: 16)), of .watched: 0x\(String(watched, radix: 16))")
print("holders alive at exit: \(holders.count)")
fflush(stdout)  // LeakSanitizer ends the process with _exit, which drops a buffered stdout
