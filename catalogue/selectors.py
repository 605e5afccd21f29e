"""Read queries for the catalogue: the game library, a game, the default task set and its first validation."""
from django.db.models import F, Max, Min, Prefetch

from .bundle_loading import DEFAULT_TASK_SET
from .models import Game, Task, TaskSet, TaskValidation


def latest_tasks(tasks):
    """The newest version of each task slug, in the given order."""
    newest = {}
    for task in tasks:
        if task.slug not in newest or task.version > newest[task.slug].version:
            newest[task.slug] = task
    return [t for t in tasks if newest[t.slug] is t]


def game_library():
    """Every game with its current tasks (the newest version of each), easiest level first."""
    games = Game.objects.defer("frame_png", "manifest").prefetch_related(
        Prefetch("tasks", queryset=Task.objects.order_by("target", "slug", "version")))
    for game in games:
        game.current_tasks = latest_tasks(list(game.tasks.all()))
    return games


def game_detail(slug):
    game = Game.objects.defer("frame_png").get(slug=slug)
    game.current_tasks = latest_tasks(list(game.tasks.order_by("target", "slug", "version")))
    return game


def default_set_validation():
    """The bundled default task set while the worker sets it up (`load_games --background`), whether or not another
    set is published meanwhile; None once it is published, or when there is no such draft. A dict:
    - name, slug; `first_start`: no task set is published yet (the board has nothing to show);
    - phase: "frames" while the worker captures the games' frames (no task checked yet), "checking" while it checks
      the tasks, "publishing" once every task is checked;
    - frames_done, frames_total (the set's games); done, total, failed (the tasks that failed, by id);
    - seconds_left: the tasks left at the rate measured between this set's checks so far (None until two are done;
      with several worker processes the rate is theirs together)."""
    draft = TaskSet.objects.filter(slug=DEFAULT_TASK_SET[0], status=TaskSet.Status.DRAFT).first()
    if draft is None:
        return None
    checked = draft.tasks.filter(validations__game_version=F("game_version"))
    failed = draft.tasks.filter(validations__game_version=F("game_version"), validations__ok=False) \
        .exclude(validations__game_version=F("game_version"), validations__ok=True).select_related("game").distinct()
    done, total = checked.distinct().count(), draft.tasks.count()
    games = Game.objects.filter(tasks__task_sets=draft).distinct()
    frames_done, frames_total = games.filter(frame_png__isnull=False).count(), games.count()
    span = TaskValidation.objects.filter(task__in=draft.tasks.all(), game_version=F("task__game_version")) \
        .aggregate(first=Min("created"), last=Max("created"))
    seconds_left = None
    if done >= 2 and span["last"] > span["first"]:
        seconds_left = (span["last"] - span["first"]).total_seconds() / (done - 1) * (total - done)
    phase = "publishing" if done == total else "checking" if done or frames_done == frames_total else "frames"
    return {"name": draft.name, "slug": draft.slug, "phase": phase, "done": done, "total": total,
            "frames_done": frames_done, "frames_total": frames_total,
            "failed": [task.task_id for task in failed], "seconds_left": seconds_left,
            "first_start": not TaskSet.objects.exclude(status=TaskSet.Status.DRAFT).exists()}


def default_set_being_checked():
    """Why nothing can be submitted or played yet on a new site whose default set is being validated, or None."""
    validation = default_set_validation()
    if validation is None:
        return None
    return (f"the default task set {validation['slug']} is being checked: {validation['done']} of "
            f"{validation['total']}; try again in {about(validation['seconds_left'])}")


def about(seconds):
    """A wait, roughly: "about 40 s", "about 3 min" ("a few minutes" when nothing measured it yet)."""
    if seconds is None:
        return "a few minutes"
    if seconds < 90:
        return f"about {max(10, round(seconds / 10) * 10)} s"
    return f"about {round(seconds / 60)} min"


def published_default_set():
    """The task set agents are evaluated on: the default one once it is published, else None."""
    return TaskSet.objects.filter(is_default=True, status=TaskSet.Status.PUBLISHED).first()


def example_tasks(task_set, count=2):
    """Tasks of the set to show in examples: Brick Breaker's first (the simplest game), then other games'."""
    tasks = sorted(task_set.tasks.light(), key=lambda t: (t.game.slug != "breakout", t.game.level,
                                                          t.game.slug, t.target))
    examples, games = [], set()
    for task in tasks:
        if task.game.slug not in games:
            examples.append(task)
            games.add(task.game.slug)
    return examples[:count]
