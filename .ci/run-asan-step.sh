#!/usr/bin/env bash
# The AddressSanitizer step of the CI, kept apart so that .ci/run can call it after the
# ThreadSanitizer step:
#
#     bash .ci/run-asan-step.sh build    # only the build (.ci/run runs it beside the TSan tests)
#     bash .ci/run-asan-step.sh test     # only the tests, on that build
#     bash .ci/run-asan-step.sh          # both
#
# Two flags matter on Linux with Swift 6.3.1:
# --disable-xctest  SwiftPM also starts the XCTest runner (this package has no XCTest tests); it
#                   leaks a few of its own objects at exit (XCTMainMisc, XCTestSuiteRun) and
#                   LeakSanitizer turns that into exit status 1 although every test passed. The
#                   Swift Testing process, which runs all our tests, is leak-free.
# -use-ld=lld       the default gold linker prints ~280 "Cannot export local symbol
#                   '__asan_report_…'" warnings for ASan's runtime; lld prints none.
set -euo pipefail
cd "$(dirname "$0")/.."
phase=${1:-all}
case "$phase" in build | test | all) ;; *) echo "usage: $0 [build|test]" >&2; exit 2 ;; esac
[ "$phase" = test ] || swift build --build-tests --sanitize=address --scratch-path .build-asan -Xswiftc -use-ld=lld
# No LeakSanitizer suppression: every leak fails the step. (LeakSanitizer cannot see the side
# table of a live Swift object that had weak references, llvm/llvm-project#56751, so an object
# kept for ever shows up as a leaked 32-byte side table: that is how the bounded `all`'s cycle
# was found; docs/testing.md.)
[ "$phase" = build ] || swift test --sanitize=address --scratch-path .build-asan --disable-xctest -Xswiftc -use-ld=lld --skip-build
