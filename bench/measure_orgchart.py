"""The org chart's figures (issue 38) for make bench: files roster-gen makes
with --managers id (depth ~8, span 2-12), at each size measure.py runs.

  * where T's time goes, in process (`roster-bench orgchart-open`): the
    manager references read again from the file, resolved, the list's order,
    the tree in it, the rows opened at a person; T pressed as the list shows
    (the chart read then, as the app reads it ahead) and again (kept); the
    memory the kept chart takes;
  * the real binary in tmux: T pressed the moment the list shows `1/N`, and
    again once the chart is kept (Esc, T), to the chart on screen;
  * keys in the chart (`roster-bench orgchart`: p50/p99 of 5,000 keys);
  * `roster --list --tree` against `roster --list`, wall time.
Medians of RUNS fresh processes (keys: of 3)."""
import os
import statistics
import subprocess
import sys
import time
import uuid

import measure


def dataset(people):
    path = os.path.join(measure.DATA, f"org-{people}.json")
    if not os.path.exists(path):
        print(f"generating {path} ...", file=sys.stderr)
        os.makedirs(measure.DATA, exist_ok=True)
        with open(path + ".tmp", "wb") as out:
            subprocess.run([os.path.join(measure.BIN, "roster-gen"), "--people", str(people), "--seed", "42",
                            "--managers", "id"], stdout=out, check=True)
        os.rename(path + ".tmp", path)
    return path


def screen(socket):
    return measure.tmux(socket, "capture-pane", "-p", "-t", "main")


def wait_for(socket, text, limit=60):
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        if text in screen(socket):
            return True
        time.sleep(0.01)
    return False


def chart_in_tmux(path, people):
    """Seconds from T to the chart on screen: pressed as the list shows,
    then again once it is kept."""
    socket = f"roster-bench-{uuid.uuid4().hex[:8]}"
    marker = f"1/{people:,}" if people >= 1000 else f"1/{people}"
    try:
        measure.tmux(socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "-s", "main",
                     f"env TERM=tmux-256color LANG=C.UTF-8 {os.path.join(measure.BIN, 'roster')} {path}")
        if not wait_for(socket, marker, 120):
            return None, None
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            measure.tmux(socket, "send-keys", "-t", "main", "T")
            if not wait_for(socket, " at the top"):
                return None, None
            timings.append(time.perf_counter() - started)
            measure.tmux(socket, "send-keys", "-t", "main", "Escape")
            wait_for(socket, marker)
            time.sleep(0.5)
        return timings[0], timings[1]
    finally:
        measure.tmux(socket, "kill-server")


def measured_row(people):
    path = dataset(people)
    bench = os.path.join(measure.BIN, "roster-bench")
    runs = measure.RUNS
    opens = [measure.key_values([bench, "orgchart-open", path]) for _ in range(runs)]
    browsing = [measure.key_values([bench, "orgchart", path]) for _ in range(3)]
    roster = os.path.join(measure.BIN, "roster")
    listing = [measure.run_measured([roster, "--list", path])[0] for _ in range(runs)]
    tree = [measure.run_measured([roster, "--list", "--tree", path])[0] for _ in range(runs)]
    tmux = [chart_in_tmux(path, people) for _ in range(runs)]
    tmux = [t for t in tmux if t[0] is not None]
    median = lambda key: measure.median_of(opens, key)
    return {
        "people": people,
        "references": median("phase_references_read_ms"), "resolve": median("phase_resolve_ms"),
        "order": median("phase_order_keys_ms"), "tree": median("phase_tree_in_order_ms"),
        "rows": median("phase_rows_open_ms"), "read_ahead": median("open_read_ahead_ms"),
        "kept": median("open_kept_median_ms"), "bytes": median("kept_chart_bytes_per_person"),
        "t_first": statistics.median(t for t, _ in tmux) if tmux else None,
        "t_kept": statistics.median(t for _, t in tmux) if tmux else None,
        "key_p50": measure.median_of(browsing, "key_p50_ms"), "key_p99": measure.median_of(browsing, "key_p99_ms"),
        "list": statistics.median(listing), "tree_list": statistics.median(tree),
    }


def section(sizes, load):
    rows = [measured_row(people) for people in sizes]
    seconds = lambda value: "–" if value is None else f"{value:.3f} s"
    lines = [
        "",
        "## Org chart (`T`)",
        "",
        f"Files from `roster-gen --seed 42 --managers id` (one top person, 2–12 reports each, 7 levels at 1M). {load}",
        "*References … rows opened*: where the chart's time goes, in process (`roster-bench orgchart-open`): each record's",
        "`manager` read again from the file (a run of records at a time, both cores), resolved, the list's order, the tree in",
        "it, the rows opened at a person. The app does this once per store, in the background as soon as the list is up, and",
        "keeps the chart: *T as the list shows* is the real binary in tmux, T sent the moment the status bar shows `1/N`,",
        "to the chart on screen; *T again* is T once the chart is kept. *Keys*: moving, opening and closing in the chart,",
        "in process (`roster-bench orgchart`, 5,000 keys). *Kept chart*: resident memory it adds, per person.",
        "Targets at 1M: T ≤ 0.3 s after the list is on screen, keys < 16 ms, `--list --tree` ≤ 2× `--list`.",
        "",
        "| people | references | resolve | order | tree | rows opened | T as the list shows | T again | key p50 / p99 "
        "| `--list` | `--list --tree` | ratio | kept chart |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['people']:,} | {row['references']:.0f} ms | {row['resolve']:.0f} ms | {row['order']:.0f} ms "
            f"| {row['tree']:.0f} ms | {row['rows']:.0f} ms | {seconds(row['t_first'])} | {seconds(row['t_kept'])} "
            f"| {row['key_p50']:.2f} / {row['key_p99']:.2f} ms | {row['list']:.3f} s | {row['tree_list']:.3f} s "
            f"| {row['tree_list'] / row['list']:.2f}× | {row['bytes']:.0f} B/person |")
    return lines


if __name__ == "__main__":
    # The org chart's section alone (BENCH_SIZES, BENCH_RUNS as measure.py), printed.
    print("\n".join(section(measure.SIZES, f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")))
