// A future that cannot fail has no error to map or recover from: these compile, with a warning
// that says what to write. (In a file of their own: an error elsewhere would stop the compiler
// before the pass that finds code that will never be executed.)
import Futures

func widening(never: Future<Int, Never>) {
    // expect warning: 'mapError(fileID:line:_:)' is deprecated: a future that cannot fail has no error to map; to change its error type write 'setFailureType(to:)' or 'eraseFailure()'
    // expect warning: will never be executed
    _ = never.mapError { $0 as any Error }
    // expect warning: 'recover(fileID:line:_:)' is deprecated: a future that cannot fail has nothing to recover from
    // expect warning: will never be executed
    _ = never.recover { _ in 0 }
}
