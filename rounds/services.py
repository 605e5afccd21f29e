"""Writes of rounds evaluations: a maintainer's curriculum, an entry's next round. The agent socket
(hosted.consumers) calls `begin` for a begin message that names a curriculum or an entry; the round it opens is a
sealed hosted evaluation restricted to the round's tasks, played and submitted as any other."""
from django.core.exceptions import ValidationError
from django.db import transaction

from catalogue.bundle_loading import DEFAULT_TASK_SET
from catalogue.models import Game, TaskSet
from hosted.live import Refusal
from hosted.models import HostedEvaluation
from hosted.services import checked_agent, checked_protocol
from submissions.limits import LimitReached, charge

from .models import Curriculum, Entry, Round, task_problems


def create_curriculum(*, slug, title, task_set, training, held_out, rounds=3, episodes_per_round=2,
                      artifact_max_chars=4000, description="", published=False):
    """A curriculum over tasks of `task_set`; ValidationError naming every problem."""
    curriculum = Curriculum(slug=slug, title=title, description=description, task_set=task_set, rounds=rounds,
                            episodes_per_round=episodes_per_round, artifact_max_chars=artifact_max_chars,
                            published=published)
    curriculum.full_clean()
    problems = task_problems(task_set=task_set, training=training, held_out=held_out)
    if problems:
        raise ValidationError(problems)
    with transaction.atomic():
        curriculum.save()
        curriculum.training_tasks.set(training)
        curriculum.held_out_tasks.set(held_out)
    return curriculum


def begin(user, message):
    """The evaluation a rounds begin message opens: round 0 of a new entry ({"curriculum": slug, "agent": {...}}),
    or the next round of an entry of this user's ({"rounds_entry": id, "artifact": "..."}); the entry's open round
    when it has one (then no artifact may be sent)."""
    if message.get("curriculum") is not None:
        return _new_entry(user, message)
    entry_id = message.get("rounds_entry")
    entry = Entry.objects.select_related("curriculum").filter(
        pk=entry_id if isinstance(entry_id, int) and not isinstance(entry_id, bool) else None, user=user).first()
    if entry is None:
        raise Refusal(f"no rounds entry {entry_id!r} for your account")
    return _next_round(entry, message.get("artifact"))


def _new_entry(user, message):
    slug = message["curriculum"]
    curriculum = Curriculum.objects.select_related("task_set").filter(
        slug=slug if isinstance(slug, str) else None, published=True).first()
    if curriculum is None:
        raise Refusal(f"curriculum: no published curriculum {slug!r} (they are listed at /rounds/)")
    if curriculum.task_set.status != TaskSet.Status.PUBLISHED:
        raise Refusal(f"curriculum {curriculum.slug}: its task set {curriculum.task_set.slug} is no longer published")
    if message.get("artifact"):
        raise Refusal("round 0 is played cold: carry no artifact into it (send one when you begin round 1)")
    protocol, agent = checked_protocol(message), checked_agent(message)
    try:
        charge("hosted_evaluation", who=user.pk)
    except LimitReached as reached:
        raise Refusal(f"{reached} (continue an entry of yours with {{\"type\": \"begin\", \"rounds_entry\": <id>}})"
                      ) from None
    with transaction.atomic():
        entry = Entry.objects.create(curriculum=curriculum, user=user, agent=agent, protocol=protocol)
        return _open_round(entry, 0, "")


def _next_round(entry, artifact):
    curriculum = entry.curriculum
    latest = entry.latest_round()
    stage = entry.stage()
    if stage == "playing":
        if artifact is not None:
            raise Refusal(f"{latest.label} of entry {entry.pk} is still open: submit it before carrying an artifact "
                          "into the next round")
        return latest.evaluation
    if stage == "expired":
        raise Refusal(f"{latest.label} of entry {entry.pk} expired without activity: the entry cannot go on; "
                      "begin a new one")
    if stage == "finished":
        raise Refusal(f"entry {entry.pk} is finished: its held-out round is submitted")
    if not isinstance(artifact, str):
        raise Refusal('send the text you carry into the next round: {"type": "begin", "rounds_entry": '
                      f'{entry.pk}, "artifact": "..."}} ("" to carry nothing)')
    if len(artifact) > curriculum.artifact_max_chars:
        raise Refusal(f"artifact: {len(artifact):,} characters; {curriculum.slug} carries at most "
                      f"{curriculum.artifact_max_chars:,}")
    if "\x00" in artifact:
        raise Refusal("artifact: text without NUL characters")
    with transaction.atomic():
        return _open_round(entry, latest.index + 1, artifact)


def _open_round(entry, index, artifact):
    """Round `index` of the entry: a sealed evaluation of the round's tasks (round 0: every task, cold; rounds 1..R:
    the training tasks; the held-out round: the held-out tasks), `episodes_per_round` episodes each."""
    curriculum = entry.curriculum
    held_out = index == curriculum.held_out_round
    evaluation = HostedEvaluation.objects.create(
        user=entry.user, task_set=curriculum.task_set, protocol=entry.protocol, sealed=True, agent=entry.agent,
        kind=HostedEvaluation.Kind.ROUND, episodes_per_task=curriculum.episodes_per_round)
    if held_out:
        tasks = curriculum.held_out_tasks.all()
    elif index == 0:  # round 0 plays the held-out tasks cold too: the transfer compares the same tasks
        tasks = [*curriculum.training_tasks.all(), *curriculum.held_out_tasks.all()]
    else:
        tasks = curriculum.training_tasks.all()
    evaluation.tasks.set(tasks)
    Round.objects.create(entry=entry, index=index, artifact=artifact, evaluation=evaluation)
    return evaluation


def after_submit(evaluation_id):
    """What the agent is told once a round is submitted: what comes next."""
    round_ = Round.objects.select_related("entry__curriculum").get(evaluation_id=evaluation_id)
    curriculum = round_.entry.curriculum
    if round_.held_out:
        upcoming = None
    elif round_.index == curriculum.rounds:
        upcoming = "held-out"
    else:
        upcoming = f"round {round_.index + 1}"
    return {"entry": round_.entry_id, "submitted": round_.label, "next": upcoming,
            "url": f"/rounds/entries/{round_.entry_id}/"}


# The curriculum a new site publishes on its default task set, so that its rounds board is there from the start:
# three untimed planning games whose rules can be learned from play; each game's first two tasks (in its manifest's
# order, easiest first) are trained on and its third is held out.
DEFAULT_CURRICULUM = {
    "slug": "first-lessons", "title": "First lessons: three planning games",
    "description": "Mine Sweep, Crate Push and Tally Grid: rules a player learns by playing. Two tasks of each game "
                   "round after round, the third held out.",
    "games": ("minesweeper", "cratepush", "tallygrid"), "rounds": 3, "episodes_per_round": 2,
}


def ensure_default_curriculum():
    """Publish DEFAULT_CURRICULUM on the published default task set once (a maintainer's edits are kept); the
    curriculum, or None when there is no such set or none of its games."""
    existing = Curriculum.objects.filter(slug=DEFAULT_CURRICULUM["slug"]).first()
    task_set = TaskSet.objects.filter(slug=DEFAULT_TASK_SET[0], status=TaskSet.Status.PUBLISHED).first()
    if existing is not None or task_set is None:
        return existing
    training, held_out = [], []
    for game in Game.objects.filter(slug__in=DEFAULT_CURRICULUM["games"]).order_by("level", "slug"):
        in_set = {task.slug: task for task in task_set.tasks.light().filter(game=game)}
        ordered = [in_set[task["slug"]] for task in game.manifest["tasks"] if task["slug"] in in_set]
        if len(ordered) >= 3:
            training += ordered[:2]
            held_out.append(ordered[2])
    if not training:
        return None
    return create_curriculum(
        slug=DEFAULT_CURRICULUM["slug"], title=DEFAULT_CURRICULUM["title"],
        description=DEFAULT_CURRICULUM["description"], task_set=task_set, training=training, held_out=held_out,
        rounds=DEFAULT_CURRICULUM["rounds"], episodes_per_round=DEFAULT_CURRICULUM["episodes_per_round"],
        published=True)
