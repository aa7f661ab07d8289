import Testing

@testable import Futures

/// The parking lot's callback table, against a `Dictionary` doing the same: random parks,
/// take-backs and hand-overs on keys crowded into a few homes, so that probes wrap around the
/// table's end and every removal moves entries back.
struct CallbackTableTests {
    /// A future's identity made from a heap-like address (16-byte aligned, never 0).
    static func key(_ number: Int) -> ObjectIdentifier {
        unsafeBitCast(UInt(0x7F00_0000_0000) + UInt(number) * 16, to: ObjectIdentifier.self)
    }

    static func entry(_ token: UInt64) -> ParkedEntry {
        ParkedEntry(token: token, callback: .closure { _ in })
    }

    /// The tokens of `callbacks`, in order.
    static func tokens(_ callbacks: ParkedCallbacks?) -> [UInt64]? {
        switch callbacks {
        case nil: nil
        case .one(let entry)?: [entry.token]
        case .many(let entries)?: entries.map(\.token)
        }
    }

    @Test("parks, takes back and hands over as a dictionary does", arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func matchesADictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var table = CallbackTable()
        var model: [ObjectIdentifier: [UInt64]] = [:]
        var token: UInt64 = 0
        // Few keys at first (one small table, many collisions), then more (growth), then a drain.
        for round in 0..<6_000 {
            let keys = round < 2_000 ? 24 : 600
            let key = Self.key(Int.random(in: 0..<keys, using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5 where round < 4_000:
                token += 1
                var swept: [ParkedEntry] = []
                table.append(Self.entry(token), forKey: key, sweepingInto: &swept)
                #expect(swept.isEmpty)  // closures are never spent
                model[key, default: []].append(token)
            case 5..<7:
                // A registrant takes its callback back: the last one, or all of them.
                if var tokens = model[key] {
                    tokens.removeLast()
                    let rest: ParkedCallbacks? =
                        tokens.isEmpty
                        ? nil : tokens.count == 1 ? .one(Self.entry(tokens[0])) : .many(tokens.map(Self.entry))
                    table.replace(forKey: key, with: rest)
                    model[key] = tokens.isEmpty ? nil : tokens
                }
            default:
                // The future resolves, or is freed: all its callbacks go.
                #expect(Self.tokens(table.removeValue(forKey: key)) == model.removeValue(forKey: key))
            }
            #expect(table.count == model.count)
            if round.isMultiple(of: 97) {
                for number in 0..<keys {
                    let key = Self.key(number)
                    #expect(Self.tokens(table[key]) == model[key])
                }
            }
        }
        for key in Array(model.keys) {
            #expect(Self.tokens(table.removeValue(forKey: key)) == model.removeValue(forKey: key))
        }
        #expect(table.count == 0)
        #expect(table[Self.key(0)] == nil)
    }

    @Test("a key not in the table is found nowhere, and removing it changes nothing")
    func missingKeys() {
        var table = CallbackTable()
        #expect(table[Self.key(1)] == nil)
        #expect(table.removeValue(forKey: Self.key(1)) == nil)
        var swept: [ParkedEntry] = []
        table.append(Self.entry(7), forKey: Self.key(1), sweepingInto: &swept)
        #expect(table.removeValue(forKey: Self.key(2)) == nil)
        #expect(table.count == 1)
        #expect(Self.tokens(table[Self.key(1)]) == [7])
    }
}
