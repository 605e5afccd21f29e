"""Curricula over the counter fixture game (tests/fixtures/games/counter), whose score only ArrowUp raises, with
tasks of other targets made beside its own score-3 (so a round's figures are known from the actions played)."""
from django.utils import timezone

from catalogue.bundle_loading import load_bundles
from catalogue.models import Task, TaskSet
from rounds import services
from sandbox.registry import Registry
from tests.conftest import FIXTURE_GAMES


def counter_tasks(*targets):
    """counter/score-<target>@1 for each target (score-3 is the bundle's own), loaded into the database."""
    report = load_bundles(games_registry=Registry(FIXTURE_GAMES), slugs=["counter"], capture_frames=False,
                          publish_default=False)
    assert not report.errors, report.errors
    base = Task.objects.get(game__slug="counter", slug="score-3")
    found = []
    for target in targets:
        task, _ = Task.objects.get_or_create(game=base.game, slug=f"score-{target}", version=1, defaults={
            **{f: getattr(base, f) for f in ("game_version", "instruction", "score_field", "start", "max_actions",
                                             "step_ms", "seeds", "reference", "null")},
            "title": f"Score {target}", "target": target})
        found.append(task)
    return found


def counter_curriculum(slug="counter-basics", *, training=(3,), held_out=(2,), rounds=2, episodes=2, **options):
    tasks = counter_tasks(*training, *held_out)
    task_set = TaskSet.objects.create(slug=f"{slug}-set", name=f"{slug} set", status=TaskSet.Status.PUBLISHED,
                                      published_at=timezone.now())
    task_set.tasks.set(tasks)
    return services.create_curriculum(
        slug=slug, title=slug.replace("-", " ").title(), task_set=task_set, training=tasks[:len(training)],
        held_out=tasks[len(training):], rounds=rounds, episodes_per_round=episodes, published=True, **options)
