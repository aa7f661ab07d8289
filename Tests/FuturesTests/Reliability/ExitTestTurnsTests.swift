import Testing

/// `oneExitTestAtATime`, which keeps exit tests from holding both threads of Swift's cooperative
/// pool at once, gives its turn to one body at a time and to every caller in the end.
@Suite("exit tests take turns")
struct ExitTestTurnsTests {
    @Test("of 50 tasks asking at once, one body runs at a time, and every body runs")
    func oneBodyAtATime() async {
        // (inside now, most inside at once, bodies run)
        let counts = Locked((inside: 0, most: 0, ran: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await oneExitTestAtATime {
                        counts.withLock { counts in
                            counts.inside += 1
                            counts.most = max(counts.most, counts.inside)
                        }
                        await Task.yield()  // another task may ask meanwhile
                        counts.withLock { counts in
                            counts.inside -= 1
                            counts.ran += 1
                        }
                    }
                }
            }
        }
        #expect(counts.withLock { $0.most } == 1)
        #expect(counts.withLock { $0.ran } == 50)
    }
}
