"""Thin views: read the request's view parameters, ask the selectors, render. The board, its fragments and the
exports are cached under the data version (catalogue/data_version.py), so a newly verified run shows on the next
request, and their ETags name it (304 while nothing changed)."""
import hashlib
from dataclasses import dataclass, replace
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.serializers.json import DjangoJSONEncoder
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_GET
from django.views.decorators.vary import vary_on_cookie

from catalogue import data_version
from catalogue import selectors as catalogue_selectors
from catalogue.models import Game, Task
from sandbox.commitment import commitment_holds
from sandbox.protocol import describe_action
from submissions.models import Protocol, Run, Submission

from . import charts, replays, selectors
from .exports import csv_response
from .templatetags.leaderboard_tags import interval, pct

MESSAGES_COOKIE = CookieStorage.cookie_name  # the messages framework's cookie (its default storage)
PAGE_ROWS = 100  # rows on the main page unless "show all" is asked for
INTERFACE_CHOICES = [("", "All agents"), *Submission.Interface.choices]


# The paused clock (the benchmark's protocol) and the latency-charged realtime track, never mixed.
TRACKS = dict(Protocol.choices)


@dataclass(frozen=True)
class ViewParams:
    """The state of the main table's view, all of it in the URL so that a view can be shared."""

    ts: str = ""
    board: str = selectors.SEALED_BOARD  # "public": hosted and uploaded entries on public seeds, never ranked
    track: str = Protocol.PAUSED
    iface: str = ""
    view: str = "genre"
    humans: bool = True
    partial: bool = True
    sort: str = "rank"
    dir: str = ""
    all: bool = False
    chance: bool = False  # show each entry's PG above chance beside its PG
    q: str = ""  # search agents by name, model or organisation
    weights: str = ""  # "open" or "closed": agents that declare so
    tuned: bool = True  # False hides agents built or tuned on this benchmark
    reported: bool = False  # show the cost per step submitters reported

    @classmethod
    def from_request(cls, request):
        get = request.GET
        view = get.get("view", "genre")
        view = view if view in selectors.VIEWS else "genre"
        sort = get.get("sort", "rank")
        sort = sort if selectors.valid_sort(sort, view) else "rank"
        direction = get.get("dir", "")
        direction = direction if direction in ("asc", "desc") else ""
        iface = get.get("iface", "")
        track = get.get("track", Protocol.PAUSED)
        weights = get.get("weights", "")
        return cls(ts=get.get("ts", "")[:50], board=requested_board(request), track=track if track in TRACKS else Protocol.PAUSED, iface=iface if iface in selectors.INTERFACES else "", view=view,
                   humans=get.get("humans", "1") != "0", partial=get.get("partial", "1") != "0", sort=sort,
                   dir=direction, all=get.get("all") == "1", chance=get.get("chance") == "1",
                   q=get.get("q", "").strip()[:80], weights=weights if weights in selectors.WEIGHTS else "",
                   tuned=get.get("tuned", "1") != "0", reported=get.get("reported") == "1")

    def query(self, **changes):
        """The query string of this view with some parameters changed (defaults left out)."""
        text = urlencode(self.pairs(**changes))
        return "?" + text if text else "?"

    def pairs(self, **changes):
        """(name, value) of every parameter of this view (some changed) that is not at its default."""
        params = replace(self, **changes)
        pairs = [("ts", params.ts), ("provenance", "" if params.board == selectors.SEALED_BOARD else params.board),
                 ("track", "" if params.track == Protocol.PAUSED else params.track), ("iface", params.iface), ("view", "" if params.view == "genre" else params.view),
                 ("humans", "" if params.humans else "0"), ("partial", "" if params.partial else "0"),
                 ("sort", "" if params.sort == "rank" else params.sort), ("dir", params.dir),
                 ("all", "1" if params.all else ""), ("chance", "1" if params.chance else ""), ("q", params.q),
                 ("weights", params.weights), ("tuned", "" if params.tuned else "0"),
                 ("reported", "1" if params.reported else "")]
        return [(k, v) for k, v in pairs if v]

    def cache_part(self):
        return (f"{self.board}.{self.track}.{self.iface or 'all'}.{self.view}.{int(self.humans)}{int(self.partial)}.{self.sort}."
                f"{self.dir}.{int(self.all)}{int(self.chance)}.{self.weights}{int(self.tuned)}{int(self.reported)}."
                + hashlib.sha256(self.q.encode()).hexdigest()[:12])

    def selection(self):
        """The select_entries arguments of this view."""
        return {"sort": self.sort, "direction": self.dir, "humans": self.humans, "partial": self.partial,
                "search": self.q, "weights": self.weights, "tuned": self.tuned}

    @property
    def direction(self):
        return self.dir or selectors.default_direction(self.sort)


def requested_board(request):
    """?provenance=public: the board of entries on public seeds; anything else: the sealed (default) board."""
    wanted = request.GET.get("provenance", "")
    return wanted if wanted in selectors.BOARDS else selectors.SEALED_BOARD


def _cell(figure, what):
    runs, tasks = figure["runs"], figure["tasks"]
    return {"sr": pct(figure["sr"]), "pg": pct(figure["pg"]), "empty": figure["pg"] is None,
            "heat": "0" if figure["pg"] is None else f"{figure['pg'] / 100:.2f}",
            "title": f"{what}: {runs} run{'s' if runs != 1 else ''} over {tasks} task{'s' if tasks != 1 else ''}"}


def table_rows(entries, view, task_set, held):
    groups = selectors.groups_for(view, held)
    rows = []
    for entry in entries:
        figures = entry["genre"] if view == "genre" else entry["level"]
        o = entry["overall"]
        rows.append({
            **entry, "status_text": selectors.entry_status(entry),
            "cells": [_cell(figures[g], label) for g, label, _ in groups],
            "overall_cell": _cell(o, "Overall"),
            "sr_ci": interval(o, "sr"), "pg_ci": interval(o, "pg"),
            "pg_above": pct(o.get("pg_above")),
            "url": entry_url(entry, task_set)})
    return rows


def entry_url(entry, task_set):
    if entry["kind"] == "human":
        return reverse("leaderboard:human", args=[entry["human_kind"]]) + f"?ts={task_set.slug}"
    return reverse("leaderboard:agent", args=[entry["submission_id"]])


def header(params, held):
    """The table's sortable columns: (label, sort key, link, arrow) per column and the group headings."""
    def column(label, key, title=""):
        active = params.sort == key
        direction = params.direction if active else selectors.default_direction(key)
        flip = ("asc" if direction == "desc" else "desc") if active else direction
        arrow = ("▲" if direction == "asc" else "▼") if active else ""
        return {"label": label, "key": key, "href": params.query(sort=key, dir=flip, all=params.all),
                "arrow": arrow, "active": active, "title": title}

    groups = []
    for group, label, hint in selectors.groups_for(params.view, held):
        groups.append({"label": label, "hint": hint, "group": group,
                       "columns": [column("SR", f"{group}_sr", f"{label}: success rate (%)"),
                                   column("PG", f"{group}_pg", f"{label}: progress (%)")]})
    return {"rank": column("Rank", "rank", "Rank by overall PG; tied while 95 % intervals overlap"),
            "name": column("Agent", "name"), "interface": column("Interface", "interface"),
            "date": column("Date", "date"), "groups": groups,
            "overall_sr": column("SR", "overall_sr", "Overall success rate (%) and its 95 % interval"),
            "overall_pg": column("PG", "overall_pg", "Overall progress (%) and its 95 % interval"),
            "runs": column("Runs", "runs", "Verified, unflagged runs behind the overall figures")}


# What each switch means, for a reader new to the board (shown as the switch's tooltip).
SWITCH_HINTS = {
    "Board": "Sealed: agents played live on the site at seeds the server drew and kept secret (ranked). Public: "
             "actions the submitter chose on the public seeds, checked by replay (shown, never ranked).",
    "Track": "Paused clock: the game waits while the agent thinks. Realtime: the game runs during the agent's "
             "thinking time, as the server measured it.",
    "Interface": "Computer-use agents press keys and click; generalist agents call each game's named actions.",
    "Columns": "Group the figures by genre or by curriculum level (1 basic control to 5 open-world management).",
    "Humans": "Novice and expert people playing the same tasks under the same rules: a reference, never ranked.",
    "Partial entries": "Entries without a verified run on every task: shown, not ranked.",
    "PG above chance": "Overall progress rescaled per task: 0 at random play's mean progress, 100 at the target.",
    "Weights": "Whether the agent's model weights are published (open) or not (closed), as the submitter declares.",
    "Built on this benchmark": "Entries whose submitter declares the agent was tuned or trained on this "
                               "benchmark's games.",
    "Reported cost": "Tokens, seconds and dollars per step as the submitter reports them: never verified, never "
                     "ranked on.",
}


def switches(params):
    """The view's switches as links (each keeps the rest of the view), each group with what it means."""
    def item(label, on, **changes):
        return {"label": label, "on": on, "href": params.query(**changes)}

    groups = [
        {"label": "Board", "items": [item("Sealed seeds (ranked)", params.board == selectors.SEALED_BOARD,
                                          board=selectors.SEALED_BOARD, sort="rank", dir=""),
                                     item("Public seeds (not ranked)", params.board == selectors.PUBLIC_BOARD,
                                          board=selectors.PUBLIC_BOARD, sort="rank", dir="")]},
        {"label": "Track", "items": [item(label, params.track == value, track=value, sort="rank", dir="")
                                     for value, label in TRACKS.items()]},
        {"label": "Interface", "items": [item(label, params.iface == value, iface=value)
                                         for value, label in INTERFACE_CHOICES]},
        {"label": "Columns", "items": [item("Genres", params.view == "genre", view="genre", sort="rank", dir=""),
                                       item("Levels 1–5", params.view == "level", view="level", sort="rank", dir="")]},
        {"label": "Humans", "items": [item("Show", params.humans, humans=True), item("Hide", not params.humans,
                                                                                   humans=False)]},
        {"label": "Partial entries", "items": [item("Show", params.partial, partial=True),
                                               item("Hide", not params.partial, partial=False)]},
        {"label": "PG above chance", "items": [item("Show", params.chance, chance=True),
                                               item("Hide", not params.chance, chance=False)]},
        {"label": "Weights", "items": [item("Any", not params.weights, weights=""),
                                       item("Open", params.weights == "open", weights="open"),
                                       item("Closed", params.weights == "closed", weights="closed")]},
        {"label": "Built on this benchmark", "items": [item("Show", params.tuned, tuned=True),
                                                       item("Hide", not params.tuned, tuned=False)]},
        {"label": "Reported cost", "items": [item("Show", params.reported, reported=True),
                                             item("Hide", not params.reported, reported=False)]},
    ]
    return [{**group, "hint": SWITCH_HINTS[group["label"]]} for group in groups]


def _etag(*depends_on):
    """An ETag naming the data version and what else the answer depends on."""
    digest = hashlib.sha256("\0".join(depends_on).encode()).hexdigest()[:16]
    return f"{data_version.current()}-{digest}"


def page_etag(request, *args, **kwargs):
    """A page's: its data, its URL and who asks (a signed-in visitor's page has their name and form token)."""
    return _etag(request.get_full_path(), visitor(request))


def export_etag(request, *args, **kwargs):
    """An export's: its data and its URL."""
    return _etag(request.get_full_path())


class NoPublicTaskSet(Http404):
    """No public task set holds what a page shows."""


def while_setting_up(view):
    """A page that answers, while the site's worker sets up the default task set, with how far it is (instead of
    a 404 because no public set holds what it shows yet)."""
    @wraps(view)
    def answer(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NoPublicTaskSet:
            setting_up = catalogue_selectors.default_set_validation()
            if setting_up is None:
                raise
            return render(request, "leaderboard/setting_up.html", {"setting_up": setting_up})
    return answer


@require_GET
@vary_on_cookie
@cache_control(no_cache=True)  # kept by browsers, asked about again each time: 304 while nothing changed
@condition(etag_func=page_etag)
def index(request):
    """The board. A visitor who is not signed in gets the page everyone gets, whole from the cache; one who is
    gets their own page (their name, their form token) around the board from the cache."""
    params = ViewParams.from_request(request)
    public = selectors.task_sets()
    task_set = selectors.choose_task_set(public, params.ts)
    if task_set is not None and params.ts and params.ts != task_set.slug:
        return redirect(reverse("leaderboard:index") + params.query(ts=task_set.slug))

    def page():
        context = {"params": params, "task_sets": public, "task_set": task_set, "switches": switches(params),
                   "search_keep": params.pairs(q="", all=False)}
        context["setting_up"] = catalogue_selectors.default_set_validation()
        if task_set is not None:
            context["board"] = mark_safe(selectors.from_cache(f"board.{task_set.pk}.{params.cache_part()}",
                                                              lambda: render_board(task_set, params)))
        return render_to_string("leaderboard/index.html", context, request=request)

    if not is_anonymous_visit(request):
        return HttpResponse(page())
    return HttpResponse(selectors.from_cache(f"page.{task_set.pk if task_set else ''}.{params.cache_part()}", page))


def is_anonymous_visit(request):
    """A visit without a session or pending messages: its page is the same for everyone (no name, no form
    token), so it is served whole from the cache. Decided from the cookies, without reading the session."""
    return not any(name in request.COOKIES for name in (settings.SESSION_COOKIE_NAME, MESSAGES_COOKIE))


def visitor(request):
    """What a page depends on besides its data and URL: the visitor's session, form token and messages."""
    if is_anonymous_visit(request):
        return "anonymous"
    cookies = [request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""), request.META.get("CSRF_COOKIE", ""),
               request.COOKIES.get(MESSAGES_COOKIE, "")]
    return hashlib.sha256("\0".join(cookies).encode()).hexdigest()


def render_board(task_set, params):
    table = selectors.leaderboard(task_set, interface=params.iface, protocol=params.track, board=params.board)
    entries = selectors.select_entries(table, **params.selection())
    shown = entries if params.all else entries[:PAGE_ROWS]
    if not params.all:  # the human reference rows are always shown
        shown += [e for e in entries[PAGE_ROWS:] if e["kind"] == "human"]
    agents = [e for e in table["entries"] if e["kind"] == "agent"]
    held = selectors.held_groups(table, params.view)
    context = {
        "params": params, "task_set": task_set, "table": table,
        "rows": table_rows(shown, params.view, task_set, held), "header": header(params, held), "hidden_rows": len(entries) - len(shown), "total_rows": len(entries),
        "counts": {"ranked": sum(e["ranked"] for e in agents), "partial": sum(e["partial"] for e in agents),
                   "humans": sum(e["kind"] == "human" for e in table["entries"])},
        "charts": {"groups": charts.grouped_bars(table["entries"], params.view, held),
                   "scatter": charts.scatter([e for e in table["entries"] if params.humans or e["kind"] != "human"]),
                   "gap": charts.gap_to_novice(table["entries"]),
                   "time": charts.progress_over_time(table["entries"])},
        "has_novice": any(e["human_kind"] == "novice" for e in table["entries"]),
        "public_note": selectors.PUBLIC_NOTE,
        "export": {"csv": reverse("leaderboard:export", args=["csv"]) + params.query(all=False),
                   "json": reverse("leaderboard:export", args=["json"]) + params.query(all=False),
                   "runs_csv": reverse("leaderboard:export_runs", args=["csv"]) + params.query(all=False),
                   "runs_json": reverse("leaderboard:export_runs", args=["json"]) + params.query(all=False)},
        "games": table["games"], "baselines_verifying": selectors.baselines_verifying(task_set),
    }
    return render_to_string("leaderboard/_board.html", context, request=None)


def _table_for_export(request, params, task_set):
    table = selectors.leaderboard(task_set, interface=params.iface, protocol=params.track, board=params.board)
    entries = selectors.select_entries(table, **params.selection())
    return table, entries


def cached_export(build):
    """An export view whose answer is built once per data version and view, from the cache, and answered 304 to
    a conditional GET while the data has not changed."""
    @require_GET
    @cache_control(no_cache=True)
    @condition(etag_func=export_etag)
    @wraps(build)
    def view(request, fmt):
        params = ViewParams.from_request(request)
        task_set = selectors.choose_task_set(selectors.task_sets(), params.ts)
        if task_set is None:
            raise Http404("No public task set")

        def answer():
            response = build(request, fmt, params, task_set)
            return response.content, response["Content-Type"], response["Content-Disposition"]

        content, content_type, disposition = selectors.from_cache(
            f"export.{build.__name__}.{fmt}.{task_set.pk}.{params.cache_part()}", answer)
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = disposition
        return response
    return view


def _filters(params, task_set):
    return {"task_set": task_set.slug, "provenance": list(selectors.BOARDS[params.board]),
            "interface": params.iface or "all", "view": params.view,
            "humans": params.humans, "partial": params.partial, "sort": params.sort, "dir": params.direction,
            "search": params.q, "weights": params.weights or "any", "built_on_benchmark": params.tuned}


@cached_export
def export(request, fmt, params, task_set):
    table, entries = _table_for_export(request, params, task_set)
    columns = [c.label for c in selectors.export_columns(params.view)]
    rows = [selectors.export_row(e, params.view) for e in entries]
    name = f"gameworld-{task_set.slug}-{params.view}"
    if fmt == "csv":
        return csv_response(columns, _rounded(rows), f"{name}.csv")
    return _json_response({"task_set": task_set.slug, "task_set_name": task_set.name, "tasks": table["tasks"],
                           "filters": _filters(params, task_set), "figures": "percent (0-100); SR success rate, "
                           "PG progress; means over tasks of per-task means over runs", "columns": columns,
                           "rows": _rounded(rows)}, name)


@cached_export
def export_runs(request, fmt, params, task_set):
    table, entries = _table_for_export(request, params, task_set)
    shown = {e["key"] for e in entries}
    rows = [r for r in selectors.run_rows(task_set, interface=params.iface, protocol=params.track, board=params.board,
                                          humans=params.humans)
            if (f"s{r['submission_id']}" if r["submission_id"] else r["kind"]) in shown]
    columns = ["run_id", "entry", "kind", "submission_id", "model", "interface", "provenance", "task", "game", "genre",
               "level",
               "seed", "progress", "success", "attempts", "actions_used", "invalid_actions", "flagged", "counted"]
    name = f"gameworld-{task_set.slug}-runs"
    if fmt == "csv":
        return csv_response(columns, _rounded(rows), f"{name}.csv")
    return _json_response({"task_set": task_set.slug, "filters": _filters(params, task_set),
                           "figures": "progress in percent; flagged runs (claim differs from the replay) are listed "
                           "but never counted", "columns": columns, "rows": _rounded(rows)}, name)


EXPORT_DECIMALS = 1  # figures are shown with one decimal on the pages


def export_value(value):
    """A figure rounded as the pages show it; other values as they are."""
    return round(value, EXPORT_DECIMALS) if isinstance(value, float) else value


def _rounded(rows):
    return [{k: export_value(v) for k, v in row.items()} for row in rows]


def _json_response(data, name):
    response = JsonResponse(data, encoder=DjangoJSONEncoder, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="{name}.json"'
    return response


# Drill-downs.

def _entry_context(request, task_set, key, board=selectors.SEALED_BOARD):
    table = selectors.leaderboard(task_set, board=board)
    entry = next((e for e in table["entries"] if e["key"] == key), None)
    humans = [e for e in table["entries"] if e["kind"] == "human"]
    profile = selectors.entry_profile(task_set, key)
    context = {"task_set": task_set, "entry": entry, "humans": humans, "profile": profile,
               "tasks_total": table["tasks"]}
    if entry is not None:
        context["genre_rows"] = [{"label": label, **entry["genre"][g]} for g, label, _ in selectors.groups_for("genre")]
        context["level_rows"] = [{"label": label, "hint": hint, **entry["level"][g]}
                                 for g, label, hint in selectors.groups_for("level")]
        context["charts"] = {"genre": charts.profile_bars(entry, humans, "genre"),
                             "radar": charts.level_radar(entry, humans)}
        context["ranked_count"] = sum(e["ranked"] for e in table["entries"])
    flagged_ids = profile["flagged_runs"]
    context["flagged"] = list(Run.objects.filter(pk__in=flagged_ids).select_related("task__game")
                              .defer("actions").order_by("task__game__level", "task__target", "seed"))
    return context


@require_GET
def agent(request, pk):
    submission = get_object_or_404(Submission.objects.select_related("task_set"), pk=pk)
    board = selectors.SEALED_BOARD if submission.is_baseline else selectors.board_of(submission.provenance)
    context = _entry_context(request, submission.task_set, f"s{submission.pk}", board)
    context.update(submission=submission, board=board, public_note=selectors.PUBLIC_NOTE)
    context["siblings"] = list(Submission.objects.filter(agent_name=submission.agent_name)
                               .select_related("task_set").order_by("-created")[:50])
    return render(request, "leaderboard/entry.html", context)


@require_GET
@while_setting_up
def human(request, kind):
    if kind not in selectors.HUMAN_KINDS:
        raise Http404("No such human level")
    task_set = selectors.resolve_task_set(request.GET.get("ts"))
    if task_set is None:
        raise NoPublicTaskSet("No public task set")
    context = _entry_context(request, task_set, kind)
    context["human_kind"] = kind
    context["human_name"] = selectors.HUMAN_NAMES[kind]
    return render(request, "leaderboard/entry.html", context)


@require_GET
@while_setting_up
def game(request, slug):
    found = get_object_or_404(Game.objects.defer("frame_png"), slug=slug)
    task_set = _task_set_with(request, Task.objects.filter(game=found))
    tasks = list(task_set.tasks.filter(game=found).order_by("target", "slug", "version"))
    board = requested_board(request)
    results = selectors.game_results(task_set, found, board=board)
    task_rows = [{"task_id": t.pk, "title": t.title} for t in tasks]
    per_task = {t.pk: [] for t in tasks}
    for run in results["runs"]:
        per_task.setdefault(run["task_id"], []).append(run["progress"])
    context = {"game": found, "task_set": task_set, "results": results, "board": board,
               "tasks": [(t, len(per_task.get(t.pk, []))) for t in tasks],
               "chart": charts.progress_by_task(results["runs"], task_rows)}
    return render(request, "leaderboard/game.html", context)


@require_GET
@while_setting_up
def task(request, game, slug, version):
    found = get_object_or_404(Task.objects.select_related("game"), game__slug=game, slug=slug, version=version)
    task_set = _task_set_with(request, Task.objects.filter(pk=found.pk))
    board = requested_board(request)
    results = selectors.task_results(task_set, found, board=board)
    show_all = request.GET.get("all") == "1"
    rows = results["rows"] if show_all else results["rows"][:PAGE_ROWS]
    card = found.calibration_summary()
    context = {"task": found, "game": found.game, "task_set": task_set, "results": results, "rows": rows, "board": board,
               "hidden_rows": len(results["rows"]) - len(rows), "card": card,
               "chart": charts.progress_histogram(results["progress"]),
               "noise_chart": charts.noise_ladder(card["noise"]) if card and card["noise"] else None}
    return render(request, "leaderboard/task.html", context)


@require_GET
@while_setting_up
def compare(request):
    """Two entries side by side on the tasks both ran, with the paired bootstrap of their difference."""
    task_set = selectors.resolve_task_set(request.GET.get("ts"))
    if task_set is None:
        raise NoPublicTaskSet("No public task set")
    board = requested_board(request)
    table = selectors.leaderboard(task_set, board=board)
    first, second = request.GET.get("a", "")[:20], request.GET.get("b", "")[:20]
    chosen_for_you = not (first or second)
    if chosen_for_you:  # a first visit compares the two best entries, agents before the human rows
        best = sorted(table["entries"], key=lambda e: e["kind"] != "agent" or bool(e.get("reference")))
        first, second = ([e["key"] for e in best[:2]] + ["", ""])[:2]
    context = {"task_set": task_set, "task_sets": selectors.task_sets(), "first": first, "second": second,
               "chosen_for_you": chosen_for_you and bool(second), "board": board, "public_note": selectors.PUBLIC_NOTE,
               "choices": [(e["key"], charts.entry_label(e)) for e in table["entries"]], "result": None}
    if first and second:
        if first == second:
            context["error"] = "Pick two different entries."
        else:
            context["result"] = selectors.compare_entries(task_set, first, second, board=board)
            if context["result"] is None:
                context["error"] = f"No entry {first if first not in {e['key'] for e in table['entries']} else second!r} " \
                                   f"with verified runs on {task_set.name}: pick from the lists."
    if context["result"]:
        context["charts"] = {"genre": charts.compare_bars(context["result"], "genre"),
                             "level": charts.compare_bars(context["result"], "level")}
    return render(request, "leaderboard/compare.html", context)


def _task_set_with(request, tasks):
    """The requested (or default) public task set if it holds the task(s), else any public one that does."""
    task_set = selectors.resolve_task_set(request.GET.get("ts"))
    if task_set is not None and task_set.tasks.filter(pk__in=tasks.values("pk")).exists():
        return task_set
    for candidate in selectors.task_sets():
        if candidate.tasks.filter(pk__in=tasks.values("pk")).exists():
            return candidate
    raise NoPublicTaskSet("No public task set holds this")


@require_GET
def run(request, pk):
    found = get_object_or_404(Run.objects.select_related("task__game", "submission__task_set"), pk=pk)
    task_set = found.submission.task_set if found.submission_id else selectors.resolve_task_set(request.GET.get("ts"))
    context = {"run": found, "task": found.task, "game": found.task.game, "task_set": task_set,
               "commitment_checks": commitment_holds(seed=found.seed, salt=found.salt, commitment_hex=found.commitment),
               "public_note": selectors.PUBLIC_NOTE,
               "replayable": found.status == Run.Status.VERIFIED, "action_count": len(found.actions),
               "entry_url": reverse("leaderboard:agent", args=[found.submission_id]) if found.submission_id
               else reverse("leaderboard:human", args=[found.kind]) + (f"?ts={task_set.slug}" if task_set else ""),
               "entry_name": (f"{found.submission.agent_name} ({found.submission.model_name})"
                              if found.submission_id else selectors.HUMAN_NAMES.get(found.kind, found.kind))}
    return render(request, "leaderboard/run.html", context)


@require_GET
def replay(request, pk):
    """The replay's state as JSON (the run page polls it); asking for it has a worker render it, once."""
    found = get_object_or_404(Run.objects.only("pk", "status", "trace_sha256", "actions"), pk=pk)
    if found.status != Run.Status.VERIFIED:
        return JsonResponse({"state": "unavailable", "error": "Only verified runs are replayed."}, status=409)
    current = replays.progress(replays.ask(found, retry=request.GET.get("retry") == "1"))
    if current["state"] == "ready":
        for step in current["steps"]:
            step["label"] = "start (ready)" if step["action"] is None else describe_action(step["action"])
        current["frame_url"] = reverse("leaderboard:replay_frame", args=[found.pk, 0])[:-len("0.png")]
        current["version"] = (found.trace_sha256 or "")[:12]
    return JsonResponse(current)


@require_GET
def replay_frame(request, pk, step):
    found = get_object_or_404(Run.objects.only("pk", "trace_sha256"), pk=pk)
    path = replays.frame_path(found, step)
    if not path.exists():
        raise Http404("This frame is not rendered (yet)")
    response = FileResponse(path.open("rb"), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response
