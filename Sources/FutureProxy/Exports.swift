// `import FutureProxy` brings the whole engine with it.
@_exported public import Futures
