"""A new site's first start: the checks of the default task set, as the site runs them now against the way they
ran before, in the same run.

Everything runs in a fresh temporary directory (SQLite database, SQLite Celery broker, bundle store), loaded the
project's own way (migrate, then the bundled games with the default set left a draft, as `load_games --background`
leaves it). The set is cut to its first --tasks tasks (in the board's order) so that the bench stays short.

- The baseline is the check as it ran before: in one process, one task after the other, the reference replayed
  step by step with a frame rendered after every step, the reference again, the null, and one stored random run
  of each interface.
- Now: `publish_default_task_set` is queued, and the site's background worker (`runsite`'s command for it, with
  GAMEWORLD_BACKGROUND_CONCURRENCY processes, one a core by default) checks the tasks one message each and
  publishes the set. Timed from the message until the set is published; the worker's start-up is not timed (it
  is made ready first).

    .venv/bin/python bench/first_start.py [--tasks 10] [--keep]
Last line: ratio=<baseline s / now s> baseline_s_per_task=.. now_s_per_task=.. processes=N tasks=N
"""
import argparse
import os
import subprocess
import sys
import time

from site_setup import ROOT, stop, temporary_site


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    with temporary_site(keep=args.keep) as tmp:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        from catalogue.bundle_loading import DEFAULT_TASK_SET, load_bundles
        from catalogue.models import TaskSet

        call_command("migrate", verbosity=0)
        load_bundles(capture_frames=False, publish_default=False)
        draft = TaskSet.objects.get(slug=DEFAULT_TASK_SET[0], status=TaskSet.Status.DRAFT)
        draft.tasks.set(draft.tasks.order_by("game__level", "game__slug", "target")[:args.tasks])
        tasks = list(draft.tasks.select_related("game"))

        started = time.perf_counter()
        for task in tasks:
            check_as_before(task.spec(), task.calibration)
        baseline_s = time.perf_counter() - started
        print(f"before: {baseline_s:.1f} s for {len(tasks)} tasks in one process")

        processes = settings.GAMEWORLD_BACKGROUND_CONCURRENCY
        worker = start_background_worker(tmp)
        try:
            now_s = time_the_publication(draft)
        finally:
            stop(worker)
        print(f"now: {now_s:.1f} s for {len(tasks)} tasks on the background worker ({processes} processes)")
        print(f"ratio={baseline_s / now_s:.1f} baseline_s_per_task={baseline_s / len(tasks):.2f} "
              f"now_s_per_task={now_s / len(tasks):.2f} processes={processes} tasks={len(tasks)}")


def check_as_before(spec, card):
    """The check before the first start was spread and trimmed: every replay it made."""
    from sandbox import run_trajectory
    from sandbox.calibration import verify_task_sample

    run_trajectory(spec, spec.reference, on_step=lambda *step: None, frames=True)
    run_trajectory(spec, spec.reference)
    run_trajectory(spec, spec.null)
    verify_task_sample(spec, card, out=lambda line: None)


def start_background_worker(tmp):
    """`runsite`'s background worker, once it is ready to take messages (its Chromiums start with the first)."""
    from gameworld_site.management.commands.runsite import worker_commands

    log_path = tmp / "worker.log"
    command = worker_commands(["--loglevel", "INFO", "--without-gossip", "--without-mingle"])["the background worker"]
    process = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ), stdout=open(log_path, "w"),
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while " ready." not in log_path.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise SystemExit(f"the background worker did not start: see {log_path}")
        time.sleep(0.1)
    return process


def time_the_publication(draft):
    from catalogue.models import TaskSet
    from catalogue.tasks import publish_default_task_set

    started = time.perf_counter()
    publish_default_task_set.delay(draft.pk)
    while TaskSet.objects.get(pk=draft.pk).status != TaskSet.Status.PUBLISHED:
        if time.perf_counter() - started > 600:
            raise SystemExit("the set was not published within 10 minutes")
        time.sleep(0.1)
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
