"""The leaderboard's main page with 1,000 verified submissions: cold cache, warm cache, and the CSV export.

Uses the project's settings on a temporary SQLite database and data folder (the embedded default: the page
cache is the file cache under the data folder). Generates N verified submissions over the whole default task
set (one run per task each, bulk-created) plus novice and expert human runs, then times, through Django's
test client (the whole request: middleware, view, template):
  cold  the main page after the cache is cleared (aggregation with pandas, charts, rendering),
  warm  the main page again (the data-version query and the cached table),
  csv   the table's CSV export (from the cached aggregate).

    .venv/bin/python bench/leaderboard_render.py [--submissions 1000] [--cold 3] [--warm 30] [--csv 10]
Last line: cold_p50_ms=.. warm_p50_ms=.. csv_p50_ms=.. ratio=<cold/warm>
"""
import argparse
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(data_dir):
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):  # the embedded default, on a temporary DB
        os.environ.pop(name, None)
    os.environ["GAMEWORLD_DATA_DIR"] = str(data_dir)
    os.environ["GAMEWORLD_SQLITE_PATH"] = str(Path(data_dir) / "bench.sqlite3")
    os.environ["DJANGO_SETTINGS_MODULE"] = "gameworld_site.settings"
    os.environ.setdefault("GAMEWORLD_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    try:
        call_command("load_games", "--no-frames", "--no-validate", verbosity=0, stdout=io.StringIO())
    except CommandError as exc:  # a bundle being written elsewhere in the tree: the others are loaded
        print(f"note: load_games refused some bundles ({str(exc).splitlines()[1].strip()} ...)")


def generate(count, seed=1):
    from django.contrib.auth.models import User
    from django.utils import timezone

    from catalogue.models import TaskSet
    from submissions.models import Run, Submission

    rng = random.Random(seed)
    task_set = TaskSet.objects.get(is_default=True)
    tasks = list(task_set.tasks.select_related("game").order_by("pk"))
    now = timezone.now()
    submissions = Submission.objects.bulk_create([
        Submission(task_set=task_set, agent_name=f"agent-{i:04d}", model_name=f"model-{i % 37}",
                   organisation=f"org-{i % 11}", interface="cua" if i % 3 else "generalist",
                   status=Submission.Status.VERIFIED, runs_total=len(tasks), runs_done=len(tasks),
                   provenance=Submission.Provenance.SEALED)
        for i in range(count)])
    if submissions[0].pk is None:  # older backends do not return keys from bulk_create
        submissions = list(Submission.objects.filter(task_set=task_set).order_by("pk"))
    runs = []
    for sub in submissions:
        skill = rng.random()
        for task in tasks:
            progress = max(0.0, min(1.0, rng.gauss(skill - (task.game.level - 1) * 0.1, 0.25)))
            runs.append(Run(kind=Run.Kind.AGENT, submission=sub, task=task, seed=rng.randrange(1 << 30),
                            actions=[{"type": "wait"}], claimed_progress=progress, claimed_success=progress >= 1,
                            status=Run.Status.VERIFIED, progress=progress, success=progress >= 1.0, attempts=1,
                            actions_used=rng.randint(10, 100), invalid_actions=rng.randint(0, 5),
                            trace_sha256="0" * 64, verified_at=now))
    players = [User.objects.create_user(f"player{i}") for i in range(6)]
    for kind, skill in ((Run.Kind.NOVICE, 0.65), (Run.Kind.EXPERT, 0.85)):
        for player in players[:3] if kind == Run.Kind.NOVICE else players[3:]:
            for task in tasks:
                progress = max(0.0, min(1.0, rng.gauss(skill, 0.2)))
                runs.append(Run(kind=kind, player=player, task=task, seed=rng.randrange(1 << 30),
                                actions=[{"type": "wait"}], status=Run.Status.VERIFIED, progress=progress,
                                success=progress >= 1.0, attempts=1, actions_used=50, invalid_actions=0,
                                trace_sha256="0" * 64, verified_at=now))
    Run.objects.bulk_create(runs, batch_size=2000)
    return task_set, len(tasks), len(runs)


def timed(client, url, times, before=None):
    """Wall-clock and CPU milliseconds of `times` requests (CPU time shows the work on a busy machine)."""
    wall, cpu = [], []
    for _ in range(times):
        if before:
            before()
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return wall, cpu


def report(label, wall, cpu):
    print(f"{label}: p50 {statistics.median(wall):7.1f} ms wall (min {min(wall):.1f}, max {max(wall):.1f}), "
          f"p50 {statistics.median(cpu):7.1f} ms CPU, n={len(wall)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--cold", type=int, default=3)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--csv", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gameworld-bench-") as data_dir:
        started = time.perf_counter()
        setup(data_dir)
        from django.core.cache import cache
        from django.test import Client

        task_set, n_tasks, n_runs = generate(args.submissions)
        print(f"{args.submissions} verified submissions x {n_tasks} tasks of {task_set.slug}: {n_runs} runs "
              f"(humans included), set up in {time.perf_counter() - started:.1f} s")
        client = Client(HTTP_HOST="localhost")
        page = client.get("/")
        assert page.status_code == 200 and b'id="leaderboard"' in page.content
        cold, cold_cpu = timed(client, "/", args.cold, before=cache.clear)
        client.get("/")
        warm, warm_cpu = timed(client, "/", args.warm)
        csv_body = client.get("/leaderboard/export.csv").content
        assert csv_body.count(b"\n") == args.submissions + 3  # header, the agents and two human rows
        csv, csv_cpu = timed(client, "/leaderboard/export.csv", args.csv)
        report("main page, cold cache", cold, cold_cpu)
        report("main page, warm cache", warm, warm_cpu)
        report(f"CSV export ({len(csv_body) / 1024:.0f} KiB)", csv, csv_cpu)
        p50 = {name: statistics.median(values) for name, values in (("cold", cold), ("warm", warm), ("csv", csv))}
        print(f"goal: warm main page under 100 ms p50: {'met' if p50['warm'] < 100 else 'NOT met'}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; total {time.perf_counter() - started:.1f} s")
        print(f"cold_p50_ms={p50['cold']:.1f} warm_p50_ms={p50['warm']:.1f} csv_p50_ms={p50['csv']:.1f} "
              f"ratio={p50['cold'] / p50['warm']:.1f}")

if __name__ == "__main__":
    main()
