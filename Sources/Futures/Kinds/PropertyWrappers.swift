/// A property whose value is computed on its first read, exactly once, by a ``LazyFuture``.
///
/// The property reads as the value; its projection `$name` is the future. Unlike `lazy var`, it
/// is safe to read from many threads, and reading never mutates its owner.
///
/// ```swift
/// @Lazy var index = buildIndex(of: words)   // nothing runs yet
/// print(index.count)                        // builds the index, once
/// if $index.isResolved { print("built") }
/// ```
///
/// The initial value expression is captured, not evaluated, so it must be `@Sendable`.
/// Swift forbids the wrapper in a `Sendable` class (keep the future in a `let`; with
/// `import FutureProxy` it reads as its value) and with an initial value that uses another
/// property (initialize it in `init`, from the parameter):
///
/// ```swift
/// final class Service: Sendable { let table = LazyFuture { buildTable() } }   // not @Lazy var
/// struct Glossary {
///     @Lazy var index: [String: Int]
///     init(words: [String]) { _index = Lazy(wrappedValue: buildIndex(of: words)) }   // not self.words
/// }
/// ```
@propertyWrapper
public struct Lazy<Value: Sendable>: Sendable {
    /// The future behind the property: `$name`.
    ///
    /// ```swift
    /// let table = await $table.get()   // from async code, for `@Lazy var table = buildTable()`
    /// ```
    public let projectedValue: LazyFuture<Value, Never>

    /// Makes the property from its initial value expression, which runs on the first read.
    ///
    /// ```swift
    /// @Lazy var table = buildTable()
    /// ```
    /// - Parameters:
    ///   - wrappedValue: The expression that computes the value.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> Value,
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        projectedValue = LazyFuture(fileID: fileID, line: line, wrappedValue)
    }

    /// The value, computed on the first read (on the reading thread) and remembered.
    ///
    /// ```swift
    /// print(table.rows)   // reads wrappedValue, for `@Lazy var table = buildTable()`
    /// ```
    /// - Important: Blocks while the value is computed, by this read or another thread's. From async
    ///   code read `await $name.get()`; the compiler cannot flag a wrapped property read.
    public var wrappedValue: Value { projectedValue.value }
}

/// A property whose value is computed in the background, starting when the property is
/// initialized, by a ``BackgroundFuture``.
///
/// The property reads as the value, waiting only if the work has not finished; `$name` is the
/// future.
///
/// ```swift
/// @Background var image = loadImage(at: url)   // starts loading now
/// prepareTheView()                            // runs while the image loads
/// imageView.show(image)                       // waits only if it must
/// ```
///
/// The initial value expression is captured, not evaluated, so it must be `@Sendable`. As with
/// ``Lazy``, a `Sendable` class keeps the future in a `let`, and an initial value using another
/// property is set in `init`: `_image = Background(wrappedValue: loadImage(at: url))`.
@propertyWrapper
public struct Background<Value: Sendable>: Sendable {
    /// The future behind the property: `$name`.
    ///
    /// ```swift
    /// $image.onSuccess(on: .main) { imageView.show($0) }   // for `@Background var image = load()`
    /// ```
    public let projectedValue: BackgroundFuture<Value, Never>

    /// Starts computing the property's initial value expression on `context`.
    ///
    /// ```swift
    /// @Background(on: .global(qos: .utility)) var report = buildReport()
    /// ```
    /// - Parameters:
    ///   - wrappedValue: The expression that computes the value.
    ///   - context: Where the work is queued; by default the global context, threads of Futures' own.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> Value,
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        projectedValue = BackgroundFuture(on: context, fileID: fileID, line: line, wrappedValue)
    }

    /// The value, waiting for the background work if it has not finished.
    ///
    /// ```swift
    /// print(image.size)   // reads wrappedValue, for `@Background var image = load()`
    /// ```
    /// - Important: Blocks until the work finishes. From async code read `await $name.get()`; the
    ///   compiler cannot flag a wrapped property read.
    public var wrappedValue: Value { projectedValue.value }
}
