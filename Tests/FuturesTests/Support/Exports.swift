// The helpers shared with the other test targets (Tests/FuturesTestSupport), seen by every file of
// this target as if they were its own.
@_exported import FuturesTestSupport
