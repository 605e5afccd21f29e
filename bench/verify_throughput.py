"""Verification throughput: the same submission replayed by a Celery worker of 1 process, then of 2.

Everything runs in a fresh temporary directory (SQLite database, SQLite Celery broker, data dir), set up the
project's own way (migrate, load_games --no-frames --no-validate), so the developer's database and queue are untouched.
The submission is built from the bundled tasks' reference trajectories (each task at its reference seed,
the shortest references first, each cut to --max-actions so the whole bench stays short; more seeds are used
if there are fewer tasks than --runs). It goes through the server's own path: parse_upload, then
create_submission, which queues one verify_run Celery task per run.

For each worker size N (1, then 2) a `celery -A gameworld_site worker --pool prefork --concurrency N` is
started as a subprocess with the same environment, and made ready before anything is timed: a small warm-up
submission is verified until every pool process has launched its own headless Chromium. Then a fresh,
identical submission is created, and what is timed is the wall time from just before create_submission
(store + queue the runs, a few ms) until the database shows the submission finished (polled every 20 ms).
Worker start-up, Chromium launches, the warm-up and worker shut-down are not timed (the 1-process worker is
gone before the 2-process timing starts). Both timed submissions must end `verified` with identical per-run
trace hashes.

Each phase also prints the time the runs spent replaying (Run.claimed_at to verified_at, summed) as a share
of the processes' time: the rest is waiting for the next message. The embedded SQLite broker is polled
(every 0.1 s, as the site sets it), which is part of what this measures.

    .venv/bin/python bench/verify_throughput.py [--runs 30] [--max-actions 12] [--keep]
Last line: ratio=<2 workers/1 worker> runs_per_s_1=.. runs_per_s_2=..
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import site_setup  # noqa: E402  (the bench folder is on sys.path when a bench runs)
from site_setup import ROOT  # noqa: E402

AGENT = {"name": "throughput-bench", "model": "reference-trajectories", "interface": "cua"}
WARMUP_RUNS_PER_PROCESS = 1
WORKER_READY_TIMEOUT_S = 120
FINISH_TIMEOUT_S = 600


def bench_runs(task_set, count, max_actions):
    """`count` distinct (task, seed) runs: reference trajectories cut to max_actions, shortest first."""
    tasks = sorted(task_set.tasks.select_related("game"), key=lambda t: (len(t.reference["actions"]), t.task_id))
    if not tasks:
        raise SystemExit(f"task set {task_set.slug} has no tasks")
    runs, round_ = [], 0
    while len(runs) < count:
        added = False
        for task in tasks:
            seeds = [task.reference["seed"]] + [s for s in task.seeds if s != task.reference["seed"]]
            if round_ < len(seeds) and len(runs) < count:
                runs.append({"task": task.task_id, "seed": seeds[round_],
                             "actions": task.reference["actions"][:max_actions]})
                added = True
        if not added:
            raise SystemExit(f"only {len(runs)} distinct (task, seed) runs exist in {task_set.slug}")
        round_ += 1
    return runs


def submit(task_set, runs):
    """The server's own path: parse the upload, store it, queue one verify_run per run."""
    from evaluator.models import UploadLimits
    from evaluator.services import create_submission
    from evaluator.uploads import parse_upload

    raw = json.dumps({"format": "gameworld.submission/1", "agent": AGENT, "protocol": "paused",
                      "task_set": task_set.slug, "runs": runs}).encode()
    parsed = parse_upload(raw, user=None, limits=UploadLimits.current())
    return create_submission(user=None, parsed=parsed)


def wait_finished(submission_id, worker, timeout=FINISH_TIMEOUT_S, poll=0.02):
    from evaluator.models import Submission

    deadline = time.monotonic() + timeout
    while True:
        status = Submission.objects.filter(pk=submission_id).values_list("status", flat=True).get()
        if status in (Submission.Status.VERIFIED, Submission.Status.REJECTED):
            return status
        if worker.poll() is not None:
            raise SystemExit(f"the worker exited (code {worker.returncode}) before submission {submission_id} "
                             "finished")
        if time.monotonic() > deadline:
            raise SystemExit(f"submission {submission_id} did not finish within {timeout} s")
        time.sleep(poll)


def start_worker(concurrency, tmp):
    log = open(tmp / f"worker-{concurrency}.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gameworld_site", "worker", "--pool", "prefork",
         "--concurrency", str(concurrency), "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "--hostname", f"bench-{concurrency}@%h"],
        cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    process.log = log
    return process


def begin_stop(process):
    """Warm shutdown: the worker stops consuming, its pool processes and their browsers exit."""
    if process.poll() is None and not getattr(process, "stopping", False):
        process.terminate()
        process.stopping = True


def stop_worker(process):
    begin_stop(process)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # anything of this worker's session left over (a browser)
    except ProcessLookupError:
        pass
    process.wait()
    process.log.close()


def children(pid):
    """Direct child processes of pid (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def pool_processes_with_browser(worker):
    pool = children(worker.pid)
    return pool, [pid for pid in pool if children(pid)]  # a launched Playwright driver is a child process


def warm_up(worker, concurrency, task_set, warmup_runs):
    """Verify small submissions until every pool process has its Chromium running."""
    deadline = time.monotonic() + WORKER_READY_TIMEOUT_S
    size = WARMUP_RUNS_PER_PROCESS * concurrency
    rounds = 0
    while True:
        rounds += 1
        start = (rounds - 1) * size % len(warmup_runs)
        runs = (warmup_runs * 2)[start:start + size]  # distinct (task, seed) pairs
        submission = submit(task_set, runs)
        if wait_finished(submission.pk, worker, timeout=WORKER_READY_TIMEOUT_S) != "verified":
            raise SystemExit(f"the warm-up submission {submission.pk} was rejected: check the worker log")
        pool, ready = pool_processes_with_browser(worker)
        if len(pool) == concurrency and len(ready) == concurrency:
            return rounds
        if time.monotonic() > deadline:
            raise SystemExit(f"only {len(ready)} of {concurrency} pool processes started a browser")


def measure(concurrency, task_set, runs, warmup_runs, tmp, previous=None):
    """Start a worker of `concurrency` processes, warm it up, time one submission. The previous worker's
    shutdown overlaps this one's warm-up and is complete before the timing starts. Returns the worker,
    shutting down, for the caller to stop."""
    from evaluator.models import Run

    worker = start_worker(concurrency, tmp)
    try:
        started = time.perf_counter()
        rounds = warm_up(worker, concurrency, task_set, warmup_runs)
        if previous is not None:
            stop_worker(previous)
            previous = None
        print(f"{concurrency} worker process(es): ready after {time.perf_counter() - started:.1f} s "
              f"({rounds} warm-up submission(s), not timed)")
        t0 = time.perf_counter()
        submission = submit(task_set, runs)
        status = wait_finished(submission.pk, worker)
        elapsed = time.perf_counter() - t0
    except BaseException:
        stop_worker(worker)
        raise
    finally:
        if previous is not None:
            stop_worker(previous)
    begin_stop(worker)
    rows = list(Run.objects.filter(submission=submission).select_related("task__game"))
    busy = sum((r.verified_at - r.claimed_at).total_seconds() for r in rows if r.verified_at and r.claimed_at)
    print(f"{concurrency} worker process(es): {len(rows)} runs {status} in {elapsed:.2f} s = "
          f"{len(rows) / elapsed:.2f} runs/s; replaying {busy:.1f} s in all, "
          f"{busy / (elapsed * concurrency):.0%} of the processes' time")
    hashes = {(r.task.task_id, r.seed): (r.status, r.trace_sha256) for r in rows}
    return status, elapsed, hashes, worker


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="runs in each timed submission (default 30)")
    parser.add_argument("--max-actions", type=int, default=12,
                        help="cut each reference trajectory to this many actions (default 12)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    args = parser.parse_args()

    with site_setup.temporary_site(keep=args.keep) as tmp:
        bench_started = time.perf_counter()
        site_setup.set_up()
        from evaluator.models import TaskSet

        task_set = TaskSet.objects.get(status=TaskSet.Status.PUBLISHED, is_default=True)
        runs = bench_runs(task_set, args.runs, args.max_actions)
        warmup_runs = [{**run, "actions": run["actions"][:2]} for run in runs[:WARMUP_RUNS_PER_PROCESS * 2 * 2]]
        actions = sum(len(r["actions"]) for r in runs)
        print(f"{len(runs)} runs over {len({r['task'] for r in runs})} tasks of {task_set.slug}, {actions} actions "
              f"(references cut to {args.max_actions}); set-up {time.perf_counter() - bench_started:.1f} s")

        status_1, elapsed_1, hashes_1, worker_1 = measure(1, task_set, runs, warmup_runs, tmp)
        status_2, elapsed_2, hashes_2, worker_2 = measure(2, task_set, runs, warmup_runs, tmp, previous=worker_1)
        stop_worker(worker_2)

        problems = []
        if status_1 != "verified" or status_2 != "verified":
            problems.append(f"submissions ended {status_1} and {status_2}, not both verified")
        unverified = [key for key, (status, digest) in {**hashes_1, **hashes_2}.items()
                      if status != "verified" or not digest]
        if unverified:
            problems.append(f"{len(unverified)} runs without a verified trace, e.g. {unverified[0]}")
        differ = [key for key in hashes_1 if hashes_1[key] != hashes_2.get(key)]
        if differ or hashes_1.keys() != hashes_2.keys():
            problems.append(f"trace hashes differ between the two submissions for {len(differ)} runs, "
                            f"e.g. {differ[:1]}")
        print(f"both submissions verified with identical trace hashes for all {len(hashes_1)} runs"
              if not problems else "PROBLEMS: " + "; ".join(problems))
        print(f"total bench time {time.perf_counter() - bench_started:.1f} s")
        per_s_1, per_s_2 = len(runs) / elapsed_1, len(runs) / elapsed_2
        print(f"ratio={per_s_2 / per_s_1:.2f} runs_per_s_1={per_s_1:.2f} runs_per_s_2={per_s_2:.2f}")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
