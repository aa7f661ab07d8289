// `import FuturesApps` brings the whole engine with it, as `import FutureProxy` does.
@_exported public import Futures
