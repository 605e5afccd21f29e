"""The rounds pages: the curricula, a curriculum's board (curves, the table ranked by held-out transfer, exports) and
an entry's page (its curves per game and its artifacts round by round)."""
import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from leaderboard.exports import csv_response

from . import charts, selectors
from .models import Curriculum

EXPORT_COLUMNS = ["entry", "agent", "model", "interface", "stage", "rank", "scope", "round", "pg", "cold", "best",
                  "rounds_to_best", "final", "auc", "gain", "gain_lo", "gain_hi", "held_out_cold", "held_out", "transfer",
                  "transfer_lo", "transfer_hi"]


@require_GET
def index(request):
    curricula = [(c, c.entries.count()) for c in selectors.published_curricula()]
    return render(request, "rounds/index.html", {"curricula": curricula})


def _published(slug):
    return get_object_or_404(Curriculum.objects.select_related("task_set"), slug=slug, published=True)


@require_GET
def board(request, slug):
    curriculum = _published(slug)
    rows = selectors.board(curriculum)
    people = selectors.people_curve(curriculum)
    return render(request, "rounds/board.html", {
        "curriculum": curriculum, "rows": rows, "people": people, "overall": selectors.OVERALL,
        "training": curriculum.training_tasks.light().order_by("game__slug", "target"),
        "held_out": curriculum.held_out_tasks.light().order_by("game__slug", "target"),
        "chart": charts.board_curves(rows, curriculum.rounds, people)})


@require_GET
def entry(request, pk):
    found = selectors.entry_of(pk)
    if found is None or not found.curriculum.published:
        raise Http404("no such rounds entry")
    detail = selectors.entry_detail(found)
    games = [(scope, figures) for scope, figures in detail["figures"].items() if scope != selectors.OVERALL]
    return render(request, "rounds/entry.html", {
        "entry": found, "detail": detail, "curriculum": found.curriculum, "games": games,
        "overall": detail["figures"][selectors.OVERALL],
        "chart": charts.entry_curves(detail["figures"], found.curriculum.rounds)})


@require_GET
def export(request, slug, fmt):
    curriculum = _published(slug)
    rows = selectors.export_rows(curriculum)
    name = f"gameworld-rounds-{curriculum.slug}"
    if fmt == "csv":
        return csv_response(EXPORT_COLUMNS, rows, f"{name}.csv")
    body = {"curriculum": curriculum.slug, "title": curriculum.title, "rounds": curriculum.rounds,
            "episodes_per_round": curriculum.episodes_per_round,
            "figures": "PG in percent (0-100), verified runs only; a round's score is the mean over its tasks of "
                       "the mean over their episodes; gain = final - cold (paired bootstrap over the training tasks), "
                       "transfer = held-out - held-out cold (the held-out tasks in round 0; paired bootstrap over "
                       "them), 95 % intervals",
            "columns": EXPORT_COLUMNS, "rows": rows}
    response = HttpResponse(json.dumps(body, indent=1, default=str), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response
