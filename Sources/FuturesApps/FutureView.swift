#if canImport(SwiftUI)
    public import Futures
    public import SwiftUI

    /// A view that shows a placeholder while a future is pending, then its value, or its error:
    /// the shape of SwiftUI's `AsyncImage`, for any future.
    ///
    /// It observes the future with ``Futures/Future/observed()``: it never blocks and never starts a lazy
    /// future's work (start one with `Future.get()` in a `.task`, or make a `BackgroundFuture`).
    ///
    /// ```swift
    /// FutureView(profile) { profile in
    ///     Text(profile.name)
    /// } placeholder: {
    ///     ProgressView()
    /// } failure: { error in
    ///     Text("Could not load: \(error.localizedDescription)")
    /// }
    /// ```
    public struct FutureView<Value: Sendable, Failure: Error, Content: View, Placeholder: View, FailureContent: View>:
        View
    {
        private let future: Future<Value, Failure>
        private let content: (Value) -> Content
        private let placeholder: () -> Placeholder
        private let failure: (Failure) -> FailureContent
        @State private var observation: FutureObservation<Value, Failure>

        /// A view of `future`: `placeholder` while it is pending, then `content` with its value or
        /// `failure` with its error.
        ///
        /// ```swift
        /// FutureView(thumbnail) { Image(uiImage: $0) } placeholder: { ProgressView() } failure: { _ in
        ///     Image(systemName: "photo.badge.exclamationmark")
        /// }
        /// ```
        /// - Parameters:
        ///   - future: The future to show.
        ///   - content: The view of the value.
        ///   - placeholder: The view while the future is pending.
        ///   - failure: The view of the error.
        public init(
            _ future: Future<Value, Failure>,
            @ViewBuilder content: @escaping (Value) -> Content,
            @ViewBuilder placeholder: @escaping () -> Placeholder,
            @ViewBuilder failure: @escaping (Failure) -> FailureContent
        ) {
            self.future = future
            self.content = content
            self.placeholder = placeholder
            self.failure = failure
            _observation = State(initialValue: future.observed())
        }

        /// The placeholder, the value's view or the error's view.
        public var body: some View {
            Group {
                switch observation.result {
                case nil: placeholder()
                case .success(let value)?: content(value)
                case .failure(let error)?: failure(error)
                }
            }
            .onChange(of: ObjectIdentifier(future)) {
                // The same view given another future: observe that one instead.
                observation = future.observed()
            }
        }
    }

    extension FutureView where FailureContent == EmptyView {
        /// A view of `future`: `placeholder` while it is pending, then `content` with its value;
        /// nothing if it fails.
        ///
        /// ```swift
        /// FutureView(greeting) { Text($0) } placeholder: { ProgressView() }
        /// ```
        /// - Parameters:
        ///   - future: The future to show.
        ///   - content: The view of the value.
        ///   - placeholder: The view while the future is pending.
        public init(
            _ future: Future<Value, Failure>,
            @ViewBuilder content: @escaping (Value) -> Content,
            @ViewBuilder placeholder: @escaping () -> Placeholder
        ) {
            self.init(future, content: content, placeholder: placeholder, failure: { _ in EmptyView() })
        }
    }
#endif
