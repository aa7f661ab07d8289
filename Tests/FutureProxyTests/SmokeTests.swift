import Testing
import FutureProxy
@Test func proxySmoke() { #expect(LazyFuture { 1 }.value == 1) }
