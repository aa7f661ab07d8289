// One row of the gate, run once at a given size: `gate-rows ROW COUNT`.
//
// The row runs once at a small size first, so that what happens once in a process (type
// metadata, a pool's threads, lazily made globals) happens before the measured run. Then it runs
// COUNT operations, and the program prints the allocations and the change in heap bytes across
// that run. `scripts/gate` runs each row at two sizes under callgrind and divides the difference
// of the two totals by the difference of the sizes, so that everything the row does once (the
// process, the warm-up, a chain's head) cancels out.
import CGateMalloc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for row in allRows { print(row.name) }
    exit(0)
}
guard arguments.count == 3, let count = Int(arguments[2]), count > 0,
    let row = allRows.first(where: { $0.name == arguments[1] })
else {
    print("usage: gate-rows ROW COUNT | gate-rows --list")
    exit(2)
}

withExtendedLifetime(row.run(16)) {}
Meter.start()
let kept = row.run(count)
Meter.stop()
withExtendedLifetime(kept) {}
print("row=\(row.name) count=\(count) allocations=\(Meter.allocations) bytes=\(Meter.bytes)")
