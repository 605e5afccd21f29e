"""Verification throughput: the platform's own overhead on verification. The same runs are replayed in this
process with the sandbox's batched replay (the baseline: no site around it), then verified through the site's
path (upload, broker, a Celery worker of --workers processes, 1 by default), in the same run.

Everything runs in a fresh temporary directory (SQLite database, SQLite Celery broker, data dir), set up the
project's own way (migrate, load_games --no-frames --no-validate), so the developer's database and queue are untouched.
The submission is built from the bundled tasks' computer-use reference trajectories (each task at its reference
seed, the shortest references first, each cut to --max-actions so the whole bench stays short; more seeds are
used if there are fewer tasks than --runs). It goes through the server's own path: parse_upload, then
create_submission, which queues one verify_run Celery task per run.

The baseline replays the runs with `sandbox.run_trajectory` (run ahead, as the worker does) in this process, one
after the other, after an untimed one-action run of each game has started its backend (Chromium, PyBoy) and
read its bundle. Then a `celery -A gameworld_site worker --pool prefork --concurrency N` is started as a
subprocess with the same environment, and made ready before anything is timed: a small warm-up submission is
verified until every pool process has launched its own headless Chromium. Then the submission is created, and
what is timed is the wall time from just before create_submission (store + queue the runs, a few ms) until the
database shows the submission finished (polled every 20 ms). Worker start-up, Chromium launches, the warm-up and
worker shut-down are not timed. The submission must end `verified` with the baseline's trace hashes.

The worker phase also prints the time the runs spent replaying (Run.claimed_at to verified_at, summed) as a
share of the processes' time: the rest is waiting for the next message. The embedded SQLite broker is polled
(every 0.1 s, as the site sets it), which is part of what this measures.

    .venv/bin/python bench/verify_throughput.py [--runs 30] [--max-actions 12] [--workers 1] [--keep]
Last line: ratio=<runs/s through upload, broker and worker / runs/s of batched replay in one process>
runs_per_s_batched=.. runs_per_s_site=.. workers=N
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
    """`count` distinct (task, seed) runs: computer-use reference trajectories cut to max_actions, shortest first."""
    tasks = sorted((t for t in task_set.tasks.select_related("game")  # the bench's agent is a computer-use one
                    if all(a.get("type") != "semantic" for a in t.reference["actions"])),
                   key=lambda t: (len(t.reference["actions"]), t.task_id))
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
    from submissions.models import UploadLimits
    from submissions.services import create_submission
    from submissions.uploads import parse_upload

    raw = json.dumps({"format": "gameworld.submission/1", "agent": AGENT, "protocol": "paused",
                      "task_set": task_set.slug, "runs": runs}).encode()
    parsed = parse_upload(raw, user=None, limits=UploadLimits.current())
    return create_submission(user=None, parsed=parsed)


def wait_finished(submission_id, worker, timeout=FINISH_TIMEOUT_S, poll=0.02):
    from submissions.models import Submission

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


def batched_baseline(task_set, runs):
    """Replay the runs in this process with the sandbox alone: (seconds, {(task, seed): trace hash})."""
    from sandbox import Trajectory, run_trajectory

    specs = {task.task_id: task.spec() for task in task_set.tasks.select_related("game")}
    for run in {run["task"].split("/")[0]: run for run in runs}.values():  # each backend up, each bundle read
        run_trajectory(specs[run["task"]], Trajectory(seed=run["seed"], actions=run["actions"][:1]))
    hashes = {}
    t0 = time.perf_counter()
    for run in runs:
        score, _ = run_trajectory(specs[run["task"]], Trajectory(seed=run["seed"], actions=run["actions"]))
        hashes[(run["task"], run["seed"])] = ("verified", score.trace_sha256)
    elapsed = time.perf_counter() - t0
    print(f"batched replay in this process: {len(runs)} runs in {elapsed:.2f} s = {len(runs) / elapsed:.2f} runs/s")
    return elapsed, hashes


def start_worker(concurrency, tmp):
    log = open(tmp / f"worker-{concurrency}.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "gameworld_site", "worker", "--pool", "prefork",
         "--concurrency", str(concurrency), "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "--hostname", f"bench-{concurrency}@%h"],
        cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    process.log = log
    return process


def stop_worker(process):
    """Warm shutdown: the worker stops consuming, its pool processes and their browsers exit."""
    if process.poll() is None:
        process.terminate()
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


def measure(concurrency, task_set, runs, warmup_runs, tmp):
    """Start a worker of `concurrency` processes, warm it up, time one submission; stop the worker."""
    from submissions.models import Run

    worker = start_worker(concurrency, tmp)
    try:
        started = time.perf_counter()
        rounds = warm_up(worker, concurrency, task_set, warmup_runs)
        print(f"{concurrency} worker process(es): ready after {time.perf_counter() - started:.1f} s "
              f"({rounds} warm-up submission(s), not timed)")
        t0 = time.perf_counter()
        submission = submit(task_set, runs)
        status = wait_finished(submission.pk, worker)
        elapsed = time.perf_counter() - t0
    finally:
        stop_worker(worker)
    rows = list(Run.objects.filter(submission=submission).select_related("task__game"))
    busy = sum((r.verified_at - r.claimed_at).total_seconds() for r in rows if r.verified_at and r.claimed_at)
    print(f"{concurrency} worker process(es): {len(rows)} runs {status} in {elapsed:.2f} s = "
          f"{len(rows) / elapsed:.2f} runs/s; replaying {busy:.1f} s in all, "
          f"{busy / (elapsed * concurrency):.0%} of the processes' time")
    hashes = {(r.task.task_id, r.seed): (r.status, r.trace_sha256) for r in rows}
    return status, elapsed, hashes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="runs in each timed submission (default 30)")
    parser.add_argument("--max-actions", type=int, default=12,
                        help="cut each reference trajectory to this many actions (default 12)")
    parser.add_argument("--workers", type=int, default=1, help="processes of the timed worker (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    args = parser.parse_args()

    with site_setup.temporary_site(keep=args.keep) as tmp:
        bench_started = time.perf_counter()
        site_setup.set_up()
        from catalogue.models import TaskSet

        task_set = TaskSet.objects.get(status=TaskSet.Status.PUBLISHED, is_default=True)
        runs = bench_runs(task_set, args.runs, args.max_actions)
        warmup_runs = [{**run, "actions": run["actions"][:2]} for run in runs[:WARMUP_RUNS_PER_PROCESS * 2 * 2]]
        actions = sum(len(r["actions"]) for r in runs)
        print(f"{len(runs)} runs over {len({r['task'] for r in runs})} tasks of {task_set.slug}, {actions} actions "
              f"(references cut to {args.max_actions}); set-up {time.perf_counter() - bench_started:.1f} s")

        elapsed_0, hashes_0 = batched_baseline(task_set, runs)
        status, elapsed, hashes = measure(args.workers, task_set, runs, warmup_runs, tmp)

        problems = []
        if status != "verified":
            problems.append(f"the submission ended {status}, not verified")
        differ = [key for key in hashes_0 if hashes_0[key] != hashes.get(key)]
        if differ or hashes_0.keys() != hashes.keys():
            problems.append(f"{len(differ)} runs not verified with the baseline's trace hash, e.g. {differ[:1]}")
        print(f"the submission verified every run with the baseline's trace hash ({len(hashes)} runs)"
              if not problems else "PROBLEMS: " + "; ".join(problems))
        print(f"total bench time {time.perf_counter() - bench_started:.1f} s")
        per_s_0, per_s = len(runs) / elapsed_0, len(runs) / elapsed
        print(f"ratio={per_s / per_s_0:.2f} runs_per_s_batched={per_s_0:.2f} runs_per_s_site={per_s:.2f} "
              f"workers={args.workers}")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
