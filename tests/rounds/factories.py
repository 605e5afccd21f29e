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


def people_rounds(curriculum, played):
    """A campaign with rounds linked to the curriculum, whose volunteers ({name: [progress of round 0, 1, ...]})
    played its first training task round by round (verified runs: round 0 a novice run, the later learning runs)."""
    from datetime import date, timedelta

    from humanplay.models import Assignment, Campaign
    from submissions.models import Run
    from tests.factories import make_user

    task = curriculum.training_tasks.order_by("target").first()
    campaign = Campaign.objects.create(slug=f"{curriculum.slug}-people", title="Learning, people",
                                       task_set=curriculum.task_set, rounds=max(map(len, played.values())),
                                       consent_text="ok", starts_on=date.today(), ends_on=date.today() + timedelta(1))
    curriculum.campaign = campaign
    curriculum.save(update_fields=["campaign"])
    for slot, (name, values) in enumerate(played.items()):
        player = make_user(name)
        for index, value in enumerate(values):
            run = Run.objects.create(kind="novice" if index == 0 else "learning", player=player, task=task, seed=1,
                                     actions=[], status=Run.Status.VERIFIED, progress=value, success=value >= 1)
            Assignment.objects.create(campaign=campaign, user=player, task=task, kind="novice", slot=slot,
                                      round=index, status="done", run=run, held_until=run.created)
    return campaign
