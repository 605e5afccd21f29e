"""Debian's Chromium headless shell vs its full browser, as the sandbox's browser: the same replays in each, in one run.

Each round replays the reference trajectory of every task of a few games (`run_trajectory`, run ahead, a fresh
context a run, as verification and calibration do) once in a host of each browser, in turns; a side's time is its
median round (the machine is shared: a round another process slowed down does not count). Both browsers must give
every run the same trace.

    .venv/bin/python bench/headless_shell.py [--games minesweeper,coil,breakout] [--rounds 5]
Last line: ratio=<full/shell> shell_runs_per_s=.. full_runs_per_s=.. runs=..
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import registry, run_trajectory  # noqa: E402
from sandbox.backends.browser import BrowserHost  # noqa: E402

BROWSERS = {"shell": "/usr/bin/chromium-headless-shell", "full": "/usr/bin/chromium"}


def one_round(host, tasks):
    """(seconds, [trace hash of each run])."""
    began = time.monotonic()
    hashes = [run_trajectory(task, task.reference, host=host)[0].trace_sha256 for task in tasks]
    return time.monotonic() - began, hashes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="minesweeper,coil,breakout")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    tasks = [task for slug in args.games.split(",") for task in registry.game(slug).tasks.values()]
    hosts = {name: BrowserHost(executable=path) for name, path in BROWSERS.items()}
    for host in hosts.values():
        one_round(host, tasks[:1])  # the browser started and its renderer warm
    times, traces = {name: [] for name in hosts}, {}
    for round_number in range(1, args.rounds + 1):
        for name, host in hosts.items():
            seconds, hashes = one_round(host, tasks)
            times[name].append(seconds)
            traces.setdefault(name, hashes)
            if hashes != traces[name]:
                sys.exit(f"{name}: round {round_number} replayed other traces than round 1")
        print(f"round {round_number}: " + "  ".join(f"{name} {times[name][-1]:.2f} s" for name in hosts))
    if traces["shell"] != traces["full"]:
        differ = [task.id for task, a, b in zip(tasks, traces["shell"], traces["full"]) if a != b]
        sys.exit(f"the browsers replayed other traces for {', '.join(differ)}")
    for host in hosts.values():
        host.close()
    shell, full = statistics.median(times["shell"]), statistics.median(times["full"])
    print(f"{len(tasks)} runs a round, the same traces in both browsers; median round: shell {shell:.2f} s, "
          f"full {full:.2f} s")
    print(f"ratio={full / shell:.2f} shell_runs_per_s={len(tasks) / shell:.1f} full_runs_per_s={len(tasks) / full:.1f} "
          f"runs={len(tasks)}")


if __name__ == "__main__":
    main()
