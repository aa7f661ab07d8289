import Testing
import Futures
@Test func smoke() { #expect(LazyFuture { 1 }.value == 1) }
