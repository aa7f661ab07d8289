import Synchronization

/// An atomic alone on its cache line, for a value one thread writes and another watches in a loop.
final class PaddedCounter: @unchecked Sendable {
    // @unchecked: the storage is allocated once, holds one `Atomic`, and is used only through it.
    private let storage: UnsafeMutableRawPointer

    init() {
        storage = .allocate(byteCount: 128, alignment: 128)
        storage.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
    }

    deinit {
        storage.assumingMemoryBound(to: Atomic<Int>.self).deinitialize(count: 1)
        storage.deallocate()
    }

    func load() -> Int { storage.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .relaxed) }

    func store(_ value: Int) {
        storage.assumingMemoryBound(to: Atomic<Int>.self).pointee.store(value, ordering: .relaxed)
    }
}
