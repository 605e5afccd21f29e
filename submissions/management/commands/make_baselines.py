"""Play the baseline agents that need no model over a task set and write their submission files.

    .venv/bin/python manage.py make_baselines                 # every agent, the default task set, first seeds
    .venv/bin/python manage.py make_baselines --agents scripted-state --games breakout,runner
    .venv/bin/python manage.py make_baselines --games twinflame --merge   # replay one game into the files

Writes submissions/baselines/<agent>.json (gameworld.submission/1, protocol paused): `random-cua`,
`random-generalist` (uniform over the Gym action space of each interface) and `scripted-state` (the
scripted players of games/<slug>/solver.py, which read the game's state, not pixels). `manage.py load_baselines`
(run by bin/serve) turns them into submissions that the site's worker verifies by replay.
"""
import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalogue.bundle_loading import DEFAULT_TASK_SET
from sandbox import TaskSpec, registry
from submissions import services
from submissions.management.commands._baselines import AGENTS, dump, play
from submissions.models import Protocol


class Command(BaseCommand):
    help = "Play the random and scripted baselines over a task set and write their submission files."

    def add_arguments(self, parser):
        parser.add_argument("--agents", default=",".join(AGENTS), help=f"comma-separated, of {', '.join(AGENTS)}")
        parser.add_argument("--task-set", help="a task set in the database (default: the default task set; "
                                               "without a database, every bundled task as core-v15)")
        parser.add_argument("--games", help="only these games (comma-separated slugs)")
        parser.add_argument("--seeds", choices=["first", "all"], default="first")
        parser.add_argument("--out", default=str(services.BASELINES_DIR),
                            help="the folder written (default submissions/baselines)")
        parser.add_argument("--merge", action="store_true",
                            help="keep the existing files' runs of the other tasks of the set (a game that changed "
                                 "is played again without playing every game)")

    def handle(self, *args, agents, task_set=None, games=None, seeds="first", out=None, merge=False, **options):
        wanted = [a.strip() for a in agents.split(",") if a.strip()]
        unknown = [a for a in wanted if a not in AGENTS]
        if unknown:
            raise CommandError(f"unknown agent {unknown[0]!r}; agents: {', '.join(AGENTS)}")
        slug, tasks = self.tasks(task_set)
        if games:
            keep = {g.strip() for g in games.split(",")}
            tasks = [t for t in tasks if t.game.slug in keep]
        if not tasks:
            raise CommandError("no tasks to play")
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for key in wanted:
            started, runs = time.monotonic(), []
            for task in tasks:
                for seed in (task.seeds if seeds == "all" else task.seeds[:1]):
                    run = play(task, seed, key)
                    runs.append(run)
                    claimed = run["claimed"]
                    self.stdout.write(f"{key} {task.id} seed {seed}: progress {claimed['progress']:.3f} "
                                      f"success {'yes' if claimed['success'] else 'no'} in {len(run['actions'])} actions")
            path = folder / f"{key}.json"
            if merge and path.is_file():
                runs = self.merged(json.loads(path.read_text(encoding="utf-8"))["runs"], runs, slug)
            data = {"format": "gameworld.submission/1", "agent": AGENTS[key], "protocol": Protocol.PAUSED.value,
                    "task_set": slug, "runs": runs}
            path.write_text(dump(data), encoding="utf-8")
            successes = sum(r["claimed"]["success"] for r in runs)
            progress = sum(r["claimed"]["progress"] for r in runs) / len(runs)
            self.stdout.write(self.style.SUCCESS(
                f"{path}: {len(runs)} runs, {successes} successes, mean progress {progress:.3f} "
                f"({time.monotonic() - started:.0f} s)"))

    def merged(self, kept, played, slug):
        """The runs just played, and the kept ones of the set's other tasks, in the set's order."""
        _, tasks = self.tasks(slug)
        order = {task.id: index for index, task in enumerate(tasks)}
        replaced = {run["task"] for run in played}
        runs = [run for run in kept if run["task"] in order and run["task"] not in replaced] + played
        return sorted(runs, key=lambda run: (order[run["task"]], run["seed"]))

    def tasks(self, slug):
        """(task set slug, [TaskSpec]) from the database, or every bundled task when there is none."""
        from django.db import DatabaseError

        from catalogue.models import TaskSet

        try:
            found = TaskSet.objects.filter(slug=slug).first() if slug else TaskSet.objects.filter(is_default=True).first()
        except DatabaseError:
            found = None
        if found is not None:
            rows = found.tasks.select_related("game").order_by("game__level", "game__slug", "target", "slug")
            return found.slug, [self.bundled(row) for row in rows]
        if slug and slug != DEFAULT_TASK_SET[0]:
            raise CommandError(f"no task set {slug!r} in the database (run load_games first)")
        return DEFAULT_TASK_SET[0], [task for game in registry.games() for task in game.tasks.values()]

    @staticmethod
    def bundled(row):
        """The task on the repository's own folder of its game version, where the game's solver may run (a
        site's stored copy of a bundle is data: its solver.py is never imported)."""
        if row.game.slug in registry.slugs() and registry.game(row.game.slug).version == row.game_version:
            return TaskSpec.from_dict(registry.game(row.game.slug), row.spec_dict())
        return row.spec()
