#!/usr/bin/env python3
"""Prints the comparison table of a stored benchmark baseline, as Markdown.

Usage: table.py .benchmarkBaselines/FuturesBenchmarks/<baseline>/results.json
       table.py --compare <before results.json> <after results.json>

package-benchmark stores every metric as an HdrHistogram of per-iteration values; its text
output shows per-operation values rounded to whole units (a 2.7 ns read prints as 3), too coarse
for ratios. This script decodes the histograms, takes the median as the tool does, and divides by
the row's scaling factor, so ratios come from the same medians at full precision.
"""
import json
import sys


def value_from_index(index, histogram):
    half_magnitude = histogram["subBucketHalfCountMagnitude"]
    half_count = 1 << half_magnitude
    unit_magnitude = histogram["unitMagnitude"]
    bucket = (index >> half_magnitude) - 1
    sub_bucket = (index & (half_count - 1)) + half_count
    if bucket < 0:
        sub_bucket -= half_count
        bucket = 0
    return sub_bucket << (bucket + unit_magnitude)


def size_of_equivalent_range(value, histogram):
    half_magnitude = histogram["subBucketHalfCountMagnitude"]
    unit_magnitude = histogram["unitMagnitude"]
    sub_bucket_count = 1 << (half_magnitude + 1)
    # The bucket a value falls in, as in HdrHistogram's bucketIndexForValue.
    pow2_ceiling = 64 - _leading_zeros(value | (sub_bucket_count - 1) << unit_magnitude)
    bucket = pow2_ceiling - unit_magnitude - (half_magnitude + 1)
    sub_bucket = value >> (bucket + unit_magnitude)
    adjusted = bucket + 1 if sub_bucket >= sub_bucket_count else bucket
    return 1 << (unit_magnitude + adjusted)


def _leading_zeros(value):
    return 64 - value.bit_length()


def median(histogram):
    """The 50th percentile, as HdrHistogram's valueAtPercentile(50) reports it."""
    counts = histogram["counts"]
    total = sum(counts)
    if total == 0:
        return 0
    wanted = max(1, int(0.5 * total + 0.5))
    running = 0
    for index, count in enumerate(counts):
        running += count
        if running >= wanted:
            value = value_from_index(index, histogram)
            lowest = value - (value % size_of_equivalent_range(value, histogram))
            return lowest + size_of_equivalent_range(value, histogram) - 1
    return histogram["maxValue"]


def load(path):
    data = json.load(open(path))
    results = data["results"]
    rows = {}
    for key, measurements in zip(results[0::2], results[1::2]):
        metrics = {}
        for measurement in measurements:
            metric = next(iter(measurement["metric"]))
            scaling = measurement["scalingFactor"]
            if metric == "custom":
                custom = measurement["metric"]["custom"]
                metric = custom["_0"]
                if not custom.get("useScalingFactor", True):
                    scaling = 1
            metrics[metric] = median(measurement["statistics"]["histogram"]) / scaling
        rows[key["name"]] = metrics
    return rows, data.get("machine", {})


def time_text(nanoseconds):
    if nanoseconds is None:
        return "–"
    if nanoseconds >= 1e6:
        return f"{nanoseconds / 1e6:.1f} ms"
    if nanoseconds >= 1e4:
        return f"{nanoseconds / 1e3:.1f} µs"
    if nanoseconds >= 1e3:
        return f"{nanoseconds / 1e3:.2f} µs"
    if nanoseconds >= 100:
        return f"{nanoseconds:.0f} ns"
    return f"{nanoseconds:.2f} ns"


def mallocs_text(count):
    if count is None:
        return ""
    return f"{count:.0f}" if abs(count - round(count)) < 0.005 else f"{count:.2f}"


def count_text(value):
    return "–" if value is None else f"{value:.0f}"


def cell(metrics):
    if metrics is None:
        return "not run", ""
    return time_text(metrics.get("wallClock")), mallocs_text(metrics.get("mallocCountTotal"))


def ratio(ours, peer, metric="wallClock"):
    if ours is None or peer is None or not peer.get(metric):
        return "–"
    return f"{ours[metric] / peer[metric]:.2f}×"


def compare(before_path, after_path):
    before, _ = load(before_path)
    after, _ = load(after_path)
    print("| Row | as it is | mallocs | instructions | with the patch | mallocs | instructions | "
          "time, patched ÷ as is | instructions, patched ÷ as is |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in sorted(set(before) & set(after)):
        old_time, old_mallocs = cell(before[name])
        new_time, new_mallocs = cell(after[name])
        # Instructions count the measuring thread only: meaningless where a team of threads reads.
        threaded = name.startswith("4 contended")
        old_instructions = None if threaded else before[name].get("instructions")
        new_instructions = None if threaded else after[name].get("instructions")
        print(f"| {name} | {old_time} | {old_mallocs} | {count_text(old_instructions)} | {new_time} | {new_mallocs} | "
              f"{count_text(new_instructions)} | {ratio(after[name], before[name])} | "
              f"{'–' if threaded else ratio(after[name], before[name], 'instructions')} |")
    cpu = "CPU time per read (ps)"
    threaded = [name for name in sorted(set(before) & set(after)) if cpu in before[name] and cpu in after[name]]
    if threaded:
        print()
        print("| Row | CPU time per read, as it is | with the patch | patched ÷ as is |")
        print("| --- | ---: | ---: | ---: |")
        for name in threaded:
            print(f"| {name} | {time_text(before[name][cpu] / 1000)} | {time_text(after[name][cpu] / 1000)} | "
                  f"{ratio(after[name], before[name], cpu)} |")


def blocking_rows(get, out):
    """Group 7: blocking loads, as ratios to a thread per load, with the peak thread counts."""
    targets = {64: "≤ 3×", 256: "≤ 5×"}
    rows = []
    for count in [16, 64, 256, 1024]:
        prefix = f"7 blocking, {count} loads of 100 ms:"
        floor = get(f"{prefix} peer thread per load")
        if not floor:
            continue
        cells = []
        for name in ["BackgroundFuture", "BackgroundFuture on .io", "peer DispatchQueue.global()", "peer TaskGroup"]:
            metrics = get(f"{prefix} {name}")
            if not metrics:
                cells.append("not run")
                continue
            threads = metrics.get("peak threads")
            peak = f", {threads:.0f} threads" if threads else ""
            cells.append(f"{time_text(metrics['wallClock'])} = {ratio(metrics, floor)}{peak}")
        rows.append(f"| {count} | {time_text(floor['wallClock'])} | " + " | ".join(cells) + f" | {targets.get(count, '')} |")
    if not rows:
        return
    out.append("")
    out.append("| Loads of 100 ms, read in order | a thread per load | BackgroundFuture (default context) | "
               "BackgroundFuture on `.io` | `DispatchQueue.global()` | `TaskGroup` | Target (default ÷ thread per load) |")
    out.append("| ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    out.extend(rows)
    mixed = get("7 blocking, mixed 16 + 16: BackgroundFuture")
    alone = get("7 blocking, mixed 16 + 16: sequential CPU half alone")
    if mixed and alone:
        peers = [("a thread per load", get("7 blocking, mixed 16 + 16: peer thread per load")),
                 ("`DispatchQueue.global()`", get("7 blocking, mixed 16 + 16: peer DispatchQueue.global()"))]
        text = ", ".join(f"{label} {time_text(m['wallClock'])} ({ratio(mixed, m)})" for label, m in peers if m)
        threads = mixed.get("peak threads")
        out.append("")
        out.append(f"Mixed, 16 × 20 ms computing + 16 × 100 ms blocking: BackgroundFuture {time_text(mixed['wallClock'])}"
                   f"{f', {threads:.0f} threads at most' if threads else ''}; {text}; the computing half alone, "
                   f"sequentially, {time_text(alone['wallClock'])}.")
    settled = get("7 blocking, threads settled 3 s after the loads")
    if settled and settled.get("threads settled"):
        out.append(f"Threads left 3 s after 256 loads on the default context: {settled['threads settled']:.0f}.")


def composition_rows(get, out):
    """Group 9: composition per step or per item, beside NIO on its loop and a TaskGroup.

    Rows of 100,000 steps are stored per 100 steps (the tool's scaling); shown here per step."""
    def per_step(name):
        metrics = get(name)
        if not metrics:
            return None
        scale = 100 if "x100,000" in name else 1
        return {key: value / scale for key, value in metrics.items()}

    rows = []
    for label, ours, peers, target in [
        ("`map`, pending source, 1,000 steps", "9 map x1,000, pending source: Future",
         ["9 map x1,000, pending source: peer NIO"], "≤ 1.0× NIO"),
        ("`map`, resolved source, 1,000 steps", "9 map x1,000, resolved source: Future",
         ["9 map x1,000, resolved source: peer NIO"], "≤ 1.0× NIO"),
        ("`map`, pending source, 100,000 steps", "9 map x100,000, pending source: Future",
         ["9 map x100,000, pending source: peer NIO"], "≤ 1.0× NIO"),
        ("`map`, resolved source, 100,000 steps", "9 map x100,000, resolved source: Future",
         ["9 map x100,000, resolved source: peer NIO"], "≤ 1.0× NIO"),
        ("`flatMap` to a resolved future, pending source, 1,000", "9 flatMap x1,000, pending source: Future",
         ["9 flatMap x1,000, pending source: peer NIO"], "≤ 1.0× NIO"),
        ("`flatMap` to a resolved future, resolved source, 1,000", "9 flatMap x1,000, resolved source: Future",
         ["9 flatMap x1,000, resolved source: peer NIO"], "≤ 1.0× NIO"),
        ("`flatMap` to a resolved future, pending source, 100,000", "9 flatMap x100,000, pending source: Future",
         ["9 flatMap x100,000, pending source: peer NIO"], "≤ 1.0× NIO"),
        ("`flatMap` to a resolved future, resolved source, 100,000", "9 flatMap x100,000, resolved source: Future",
         ["9 flatMap x100,000, resolved source: peer NIO"], "≤ 1.0× NIO"),
        ("callback (`onSuccess`, `.immediate`) on a pending promise",
         "9 callback on a pending promise: Future.onSuccess",
         ["9 callback on a pending promise: peer NIO whenSuccess"], "≤ 1.0× NIO"),
        ("`all` of 1,000 resolved futures, per item", "9 all x1,000, resolved: Future.all",
         ["9 all x1,000, resolved: peer NIO whenAllSucceed", "9 all x1,000, resolved: peer TaskGroup"],
         "≤ 1.0× NIO and TaskGroup"),
        ("`all` of 1,000 promises, per item", "9 all x1,000, pending: Future.all",
         ["9 all x1,000, pending: peer NIO whenAllSucceed"], "≤ 1.0× NIO"),
        ("promise: create, succeed, read", "9 round trip, create+succeed+read: Promise",
         ["9 round trip, create+succeed+read: peer NIO"], "≤ 0.3× NIO"),
        ("`recover`, pending source, 1,000 steps", "9 recover x1,000, pending source: Future",
         ["9 recover x1,000, pending source: peer NIO"], "≤ 1.0× NIO"),
        ("`zip` of two pending promises, per zip", "9 zip of two pending promises: Future zip",
         ["9 zip of two pending promises: peer NIO and"], "≤ 1.0× NIO"),
        ("`Future.all` of two pending promises, per `all`", "9 all of two pending promises: Future.all",
         ["9 all of two pending promises: peer NIO whenAllSucceed"], "≤ 1.0× NIO"),
        ("`await get()` of a resolved future", "9 get, resolved: Future.get()",
         ["9 get, resolved: peer Task.value"], "≤ 1.0× `Task.value`"),
    ]:
        mine = per_step(ours)
        if mine is None:
            continue
        cells = []
        for peer_name in peers:
            peer = per_step(peer_name)
            if peer is None:
                continue
            peer_label = ("TaskGroup" if "TaskGroup" in peer_name
                          else "`Task.value`" if "Task.value" in peer_name else "NIO")
            cells.append(f"{peer_label} {time_text(peer['wallClock'])}, {mallocs_text(peer.get('mallocCountTotal'))} "
                         f"mallocs: **{ratio(mine, peer)}**")
        rows.append(f"| {label} | {time_text(mine['wallClock'])} | {mallocs_text(mine.get('mallocCountTotal'))} | "
                    + "; ".join(cells) + f" | {target} |")
    for kind in ["map", "flatMap"]:
        for source in ["pending", "resolved"]:
            short = per_step(f"9 {kind} x1,000, {source} source: Future")
            long = per_step(f"9 {kind} x100,000, {source} source: Future")
            if short and long:
                rows.append(f"| `{kind}`, {source} source: per step at 100,000 ÷ at 1,000 | "
                            f"{ratio(long, short)} | | | ≤ 1.2× |")
    if not rows:
        return
    out.append("")
    out.append("| Composition, per step or item | Futures | mallocs | Peer(s), same run: Futures ÷ peer | Target |")
    out.append("| --- | ---: | ---: | --- | --- |")
    out.extend(rows)


def main():
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
        return
    rows, machine = load(sys.argv[1])
    get = rows.get
    out = []
    if machine:
        out.append(f"Machine: {machine.get('processors')} × {machine.get('processorType')}, "
                   f"{machine.get('memory')} GB. Medians; time and mallocs are per operation.")
        out.append("")
    out.append("| Comparison | Futures | mallocs | Peer | Peer time | mallocs | Futures ÷ peer | "
               "instructions, Futures ÷ peer | Target |")
    out.append("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |")

    def line(comparison, ours_name, peer_label, peer_name, target=""):
        ours, peer = get(ours_name), get(peer_name)
        our_time, our_mallocs = cell(ours)
        peer_time, peer_mallocs = cell(peer)
        instructions = "–"
        # Instructions count the measuring thread only: shown where all the work runs on it.
        single_threaded = ours_name.startswith(("1 read", "3 lazy")) and "NIO" not in peer_name
        if single_threaded and ours and peer and ours.get("instructions") and peer.get("instructions"):
            instructions = (f"{ours['instructions']:.0f} ÷ {peer['instructions']:.0f} = "
                            f"{ours['instructions'] / peer['instructions']:.2f}×")
        out.append(f"| {comparison} | {our_time} | {our_mallocs} | {peer_label} | {peer_time} | "
                   f"{peer_mallocs} | {ratio(ours, peer)} | {instructions} | {target} |")

    read = "1 read: Future.value, resolved"
    line("Read a resolved future", read, "stored property", "1 read: peer stored property", "≤ 1.2×, 0 mallocs")
    line("", read, "stored property, reloaded", "1 read: peer stored property, reloaded")
    line("", read, "`Atomic` load", "1 read: peer Atomic load")
    line("", read, "`Mutex`", "1 read: peer Mutex")
    line("", read, "`NSCondition`", "1 read: peer NSCondition")
    line("", read, "NIO `wait()`", "1 read: peer NIO EventLoopFuture.wait(), succeeded")
    line(
        "Read a resolved future through a `BackgroundFuture` variable",
        "1 read: BackgroundFuture.value, resolved, through its own type",
        "stored property, reloaded",
        "1 read: peer stored property, reloaded",
        "≤ 1.2×, 0 mallocs",
    )

    now = "2 background, create+read: BackgroundFuture"
    line("BackgroundFuture, create → read at once", now, "Dispatch + semaphore",
         "2 background, create+read: peer Dispatch + semaphore", "< 1×")
    line("", now, "`Task {}` + `await`", "2 background, create+read: peer Task + await", "< 1×")
    line("", now, "NIO `submit{}.wait()`", "2 background, create+read: peer NIO submit().wait()")
    batch = "2 background, 1,000 then read: BackgroundFuture"
    line("BackgroundFuture, create 1,000 → read in order (per job)", batch, "Dispatch + semaphore",
         "2 background, 1,000 then read: peer Dispatch + semaphore", "≤ 1.05×")
    line("", batch, "`Task {}` + `await`", "2 background, 1,000 then read: peer Task + await", "≤ 1.05×")

    lazy = "3 lazy, create+read: LazyFuture"
    line("LazyFuture, create → read", lazy, "closure holder (unsynchronized)",
         "3 lazy, create+read: peer closure holder (unsynchronized)", "≤ 1.1× (issue 22), ≤ 2 mallocs")
    line("", lazy, "Mutex-guarded once", "3 lazy, create+read: peer Mutex-guarded once")

    for label, suffix in [("Future.value", "Future.value"), ("stored property", "peer stored property"),
                          ("NSCondition", "peer NSCondition")]:
        two, one = f"4 contended, 2 thread(s): {suffix}", f"4 contended, 1 thread(s): {suffix}"
        target = "≤ 1.5×" if label == "Future.value" else ""
        ours, peer = get(two), get(one)
        out.append(f"| Contended read, 2 threads vs 1, wall time per read: {label} | {cell(ours)[0]} | | 1 thread | "
                   f"{cell(peer)[0]} | | {ratio(ours, peer)} | | |")
        cpu = "CPU time per read (ps)"
        if ours and peer and ours.get(cpu) and peer.get(cpu):
            out.append(f"| Contended read, 2 threads vs 1, CPU time per read: {label} | "
                       f"{time_text(ours[cpu] / 1000)} | | 1 thread | {time_text(peer[cpu] / 1000)} | | "
                       f"{ratio(ours, peer, cpu)} | | {target} |")

    sequential = get("5 parallel, 8 jobs of 20 ms: sequential")
    background = get("5 parallel, 8 jobs of 20 ms: BackgroundFuture")
    perform = get("5 parallel, 8 jobs of 20 ms: peer concurrentPerform")
    if sequential and background and perform:
        ours_speedup = sequential["wallClock"] / background["wallClock"]
        peer_speedup = sequential["wallClock"] / perform["wallClock"]
        out.append(f"| Parallel speedup, 8 × 20 ms jobs, separate rows (sequential "
                   f"{time_text(sequential['wallClock'])}) | {time_text(background['wallClock'])} = "
                   f"{ours_speedup:.2f}× | | concurrentPerform | {time_text(perform['wallClock'])} = "
                   f"{peer_speedup:.2f}× | | {ours_speedup / peer_speedup:.2f} of peer | | |")
    interleaved = get("5 parallel, 8 jobs of 20 ms: interleaved speedups")
    if interleaved:
        ours_speedup = interleaved["speedup x100, BackgroundFuture"] / 100
        peer_speedup = interleaved["speedup x100, concurrentPerform"] / 100
        of_peer = interleaved["BackgroundFuture / concurrentPerform x100"] / 100
        out.append(f"| Parallel speedup, 8 × 20 ms jobs, interleaved (median of per-iteration ratios) | "
                   f"{ours_speedup:.2f}× | | concurrentPerform | {peer_speedup:.2f}× | | {of_peer:.2f} of peer | | "
                   f"≥ 1.9×, or ≥ 0.95 of peer |")

    line("Timeout, source in time (per operation)", "8 timeout, in time: Future.timeout(after:)",
         "`withThrowingTaskGroup` racing `Task.sleep`",
         "8 timeout, in time: peer withThrowingTaskGroup racing Task.sleep")
    line("Bounded fan-out, 1,000 jobs, 4 at a time (per job)",
         "8 all, 1,000 jobs, 4 at a time: Future.all(maxConcurrent:)", "`TaskGroup` keeping 4 children",
         "8 all, 1,000 jobs, 4 at a time: peer TaskGroup")
    line("Results as they finish, 1,000 jobs (per job)", "8 completions, 1,000 jobs: Future.completions(of:)",
         "`TaskGroup` + `for await`", "8 completions, 1,000 jobs: peer TaskGroup for await")

    blocking_rows(get, out)
    composition_rows(get, out)

    out.append("")
    out.append("| Pending value (1M, closure captures an Int) | mallocs each | bytes requested each |")
    out.append("| --- | ---: | ---: |")
    for label, name in [("LazyFuture", "6 pending x1M: LazyFuture"),
                        ("peer: closure holder", "6 pending x1M: peer closure holder"),
                        ("peer: NIO EventLoopPromise", "6 pending x1M: peer NIO EventLoopPromise")]:
        metrics = get(name)
        if metrics is None:
            out.append(f"| {label} | not run | |")
            continue
        out.append(f"| {label} | {mallocs_text(metrics.get('mallocCountTotal'))} | "
                   f"{metrics.get('mallocBytesCount', 0):.0f} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
