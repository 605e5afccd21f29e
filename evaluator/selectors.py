"""Read queries for the evaluator's pages."""
from django.db.models import Prefetch

from .models import Game, Task


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
