"""The leaderboard's figures, aggregated with pandas from the database.

Rules (the same for every page, chart and export):
- Only verified runs count. A run whose claim differed from its replay (``mismatch``) never contributes to
  any figure; its submission does not cover the task set (shown as partial, unranked).
- An entry is a submission (an agent) or a human level (novice, expert: every player's runs pooled).
- A task's figure for an entry is the mean over its runs (seeds): SR = mean of success, PG = mean of progress.
  A genre's, a level's and the overall figure are the means over the tasks in scope that the entry has.
- Two boards, never mixed: the default one ranks `sealed` submissions (played live at seeds the server drew
  and committed to); the public one shows `hosted` and `uploaded` ones (actions the submitter chose on public
  seeds, checked by replay), never ranked. Both show the reference rows.
- An agent of the sealed board is ranked when it has a verified, unflagged run on every task of the task set
  and is not a copy of an earlier entry's runs (`Submission.copy_of`); humans and the platform's own
  baselines (random agents, the state-reading solver: `Submission.is_baseline`) are reference rows on both
  boards, never ranked.
- 95 % intervals for the overall SR and PG: percentile bootstrap over tasks (B resamples, a fixed seed, the
  same resamples for every entry). Rank by overall PG as LMArena does: 1 + the number of ranked agents
  whose lower bound is above this agent's upper bound, so agents whose intervals overlap share a rank.
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
from django.core.cache import cache
from django.db.models import Q

from catalogue import data_version
from catalogue.models import GENRES, LEVELS, Task, TaskSet
from submissions.models import Protocol, Provenance, Run, Submission

from .models import BoardSettings
from .statistics import above_chance, bootstrap_intervals, interval_ranks, paired_difference

CACHE_SHAPE = "lb7"  # in every key: change it when a cached structure changes shape
CACHE_SECONDS = 24 * 3600
HUMAN_KINDS = (Run.Kind.NOVICE.value, Run.Kind.EXPERT.value)
HUMAN_NAMES = {Run.Kind.NOVICE.value: "Novice humans", Run.Kind.EXPERT.value: "Expert humans"}
GENRE_IDS = [g for g, _ in GENRES]
GENRE_NAMES = dict(GENRES)
LEVEL_IDS = [lv for lv, _ in LEVELS]
LEVEL_NAMES = dict(LEVELS)
INTERFACES = dict(Submission.Interface.choices)
VIEWS = ("genre", "level")
REPORTED = ("tokens_per_step", "seconds_per_step", "cost_per_step_usd")  # per step, as submitters report them
# The boards and the provenances each shows ("" in a selector: every submission, for one entry's own pages).
SEALED_BOARD, PUBLIC_BOARD = "sealed", "public"
BOARDS = {SEALED_BOARD: (Provenance.SEALED,), PUBLIC_BOARD: (Provenance.HOSTED, Provenance.UPLOADED)}
PUBLIC_NOTE = "actions chosen by the submitter on public seeds, checked by replay"


# Scope: which task set, which interface.

def task_sets():
    """The task sets a visitor may choose: published and retired ones (drafts are not public)."""
    return from_cache("task-sets", lambda: list(TaskSet.objects.exclude(status=TaskSet.Status.DRAFT)
                                                .order_by("-is_default", "-published_at", "name")))


def baselines_verifying(task_set):
    """The platform's baselines on the task set that are still being verified (a new site verifies them after
    publishing): {names, done, total} in runs, or None when none is."""
    pending = list(Submission.objects.filter(task_set=task_set, is_baseline=True, hidden=False).exclude(
        status__in=[Submission.Status.VERIFIED, Submission.Status.REJECTED]).values("agent_name", "runs_done",
                                                                                      "runs_total"))
    if not pending:
        return None
    return {"names": [p["agent_name"] for p in pending], "done": sum(p["runs_done"] for p in pending),
            "total": sum(p["runs_total"] for p in pending)}


def resolve_task_set(slug=None):
    """The task set named by slug, else the default one, else the newest public one; None if there is none."""
    public = TaskSet.objects.exclude(status=TaskSet.Status.DRAFT)
    if slug:
        found = public.filter(slug=slug).first()
        if found:
            return found
    return public.filter(is_default=True).first() or public.order_by("-published_at", "-pk").first()


def choose_task_set(public, slug=None):
    """resolve_task_set over the list task_sets() returned (the home page asks the database once for both)."""
    if slug:
        found = next((ts for ts in public if ts.slug == slug), None)
        if found:
            return found
    default = next((ts for ts in public if ts.is_default), None)
    if default or not public:
        return default
    return max(public, key=lambda ts: (ts.published_at is not None, ts.published_at or 0, ts.pk))


LEVEL_SHORT = {1: "timing", 2: "reactive", 3: "spatial", 4: "symbolic", 5: "open-world"}


def groups_for(view, held=None):
    """(id, label, hint) of the column groups of a view: genres, or curriculum levels 1-5; only the ones in
    `held` when it is given (see held_groups)."""
    if view == "level":
        groups = [(str(lv), f"L{lv} {LEVEL_SHORT[lv]}", "Level " + LEVEL_NAMES[lv]) for lv in LEVEL_IDS]
    else:
        groups = [(g, GENRE_NAMES[g], "") for g in GENRE_IDS]
    return [group for group in groups if held is None or group[0] in held]


def held_groups(table, view):
    """The ids of the view's groups that the table's task set has tasks in: the board draws only these (a group
    without tasks would be a column of dashes); the exports keep every group, so their columns never change."""
    return {str(game[view]) for game in table["games"]}


# The cache.

def from_cache(key, build):
    """build()'s answer, kept in the shared cache under the data version: built once while nothing is written."""
    return cache.get_or_set(f"{CACHE_SHAPE}.{key}", build, CACHE_SECONDS, version=data_version.current())


# Tables (pandas DataFrames) read from the database.

def tasks_table(task_set):
    rows = list(task_set.tasks.order_by("pk").values(
        "pk", "slug", "version", "title", "target", "game__slug", "game__title", "game__genre", "game__level"))
    table = pd.DataFrame(rows, columns=["pk", "slug", "version", "title", "target", "game__slug", "game__title",
                                        "game__genre", "game__level"])
    return table.rename(columns={"pk": "task_id", "game__slug": "game", "game__title": "game_title",
                                 "game__genre": "genre", "game__level": "level"})


RUN_FIELDS = ["pk", "kind", "submission_id", "player_id", "task_id", "seed", "progress", "success", "mismatch",
              "attempts", "actions_used", "invalid_actions", "verified_at"]


def board_of(provenance):
    """The board a submission of this provenance is shown on."""
    return SEALED_BOARD if provenance == Provenance.SEALED else PUBLIC_BOARD


def on_board(board, prefix=""):
    """The submissions a board shows (its provenances, and the platform's baselines as reference rows on
    both); every submission when `board` is ""."""
    if not board:
        return Q()
    return Q(**{f"{prefix}provenance__in": BOARDS[board]}) | Q(**{f"{prefix}is_baseline": True})


def runs_table(task_set, *, interface="", protocol=Protocol.PAUSED, board=SEALED_BOARD, include_flagged=True,
               extra_filter=None):
    """Verified runs on the task set's tasks: agents' runs from the board's submissions to this task set (not
    rejected, not hidden by a maintainer), and every human baseline run (people's recorded attempts are played
    at seeds the server draws). One row per run, with the entry key and the task's genre and level."""
    agents = Q(kind=Run.Kind.AGENT, submission__task_set=task_set, submission__hidden=False,
               submission__protocol=protocol) & ~Q(submission__status=Submission.Status.REJECTED) \
        & on_board(board, "submission__")
    if interface:
        agents &= Q(submission__interface=interface)
    # People play on the paused clock only: the realtime track is never mixed with them or with paused runs.
    humans = Q(kind__in=HUMAN_KINDS) if protocol == Protocol.PAUSED else Q(pk__in=[])
    query = Run.objects.filter(Q(status=Run.Status.VERIFIED), agents | humans, task__in=task_set.tasks.all())
    if not include_flagged:
        query = query.filter(mismatch=False)
    if extra_filter is not None:
        query = query.filter(extra_filter)
    table = pd.DataFrame(list(query.order_by().values_list(*RUN_FIELDS)), columns=RUN_FIELDS)
    table = table.rename(columns={"pk": "run_id"})
    table["entry"] = np.where(table["kind"] == Run.Kind.AGENT,
                              "s" + table["submission_id"].astype("Int64").astype(str), table["kind"])
    table["progress"] = table["progress"].astype(float)
    table["success"] = table["success"].astype(float)
    table["mismatch"] = table["mismatch"].astype(bool)
    for name in ("attempts", "actions_used", "invalid_actions"):
        table[name] = table[name].astype(float)
    tasks = tasks_table(task_set)[["task_id", "game", "genre", "level"]]
    return table.merge(tasks, on="task_id", how="left")


def submissions_meta(task_set, *, interface="", protocol=Protocol.PAUSED, board=SEALED_BOARD):
    query = Submission.objects.filter(on_board(board), task_set=task_set, hidden=False, protocol=protocol) \
        .exclude(status=Submission.Status.REJECTED)
    if interface:
        query = query.filter(interface=interface)
    return {f"s{row['pk']}": row for row in query.values(
        "pk", "agent_name", "model_name", "organisation", "interface", "protocol", "provenance", "copy_of",
        "created", "status",
        "runs_total", "runs_done", "memory_rounds", "is_baseline", "url", "code_url", "paper_url", "weights",
        "tuned_on_benchmark", "reported_tokens_per_step", "reported_seconds_per_step", "reported_cost_per_step_usd")}


def entry_facts(sub):
    """What the submitter declares about an agent: links, open or closed weights, whether it was built on this
    benchmark, and the cost per step it reported (never verified, never ranked on)."""
    return {"url": sub["url"], "code_url": sub["code_url"], "paper_url": sub["paper_url"], "weights": sub["weights"],
            "tuned_on_benchmark": sub["tuned_on_benchmark"],
            "reported": {name: sub[f"reported_{name}"] for name in REPORTED}}


# The table.

def _figures(frame, by):
    """Per (entry, by...) group of per-task figures: mean SR, mean PG, run count and task count."""
    grouped = frame.groupby(["entry", *by], sort=False)
    return grouped.agg(sr=("sr", "mean"), pg=("pg", "mean"), runs=("runs", "sum"), tasks=("task_id", "size"))


def per_task_figures(runs):
    """One row per (entry, task) from unflagged runs: SR, PG, runs, and the means of the run counters."""
    counted = runs[~runs["mismatch"]]
    columns = ["entry", "task_id", "game", "genre", "level", "sr", "pg", "runs", "actions", "invalid", "attempts"]
    if counted.empty:
        return pd.DataFrame(columns=columns)
    per_task = counted.groupby(["entry", "task_id", "game", "genre", "level"], sort=False).agg(
        sr=("success", "mean"), pg=("progress", "mean"), runs=("run_id", "size"), actions=("actions_used", "sum"),
        invalid=("invalid_actions", "sum"), attempts=("attempts", "mean"))
    return per_task.reset_index()


def _pct(value):
    return None if value is None or pd.isna(value) else float(value) * 100.0


def _figure_dict(row):
    if row is None:
        return {"sr": None, "pg": None, "runs": 0, "tasks": 0}
    return {"sr": _pct(row["sr"]), "pg": _pct(row["pg"]), "runs": int(row["runs"]), "tasks": int(row["tasks"])}


def compute_table(task_set, *, interface="", protocol=Protocol.PAUSED, board=SEALED_BOARD):
    """Every entry of the task set (agents of the interface, both human levels) with its figures, in rank order.

    Figures are percentages (0-100). Each entry: key, kind, name, model, organisation, interface, protocol,
    provenance, copy_of, date, submission_id, status, covered, flagged, partial, ranked, rank, overall {sr, pg, sr_lo, sr_hi,
    pg_lo, pg_hi, runs, tasks}, genre {id: {sr, pg, runs, tasks}}, level {"1".."5": ...}, iar, players, and for a
    human row `incomplete`: it covers less of the task set than the maintainers' minimum (min_coverage, percent).
    """
    # Read, not made: a page that stored the default row would change the data version it is cached under.
    min_coverage = (BoardSettings.objects.filter(pk=1).first() or BoardSettings()).human_min_coverage
    tasks = tasks_table(task_set)
    n_tasks = len(tasks)
    runs = runs_table(task_set, interface=interface, protocol=protocol, board=board)
    meta = submissions_meta(task_set, interface=interface, protocol=protocol, board=board)
    per_task = per_task_figures(runs)
    flagged = runs[runs["mismatch"]].groupby("entry").size().to_dict()
    run_counts = runs[~runs["mismatch"]].groupby("entry").agg(
        runs=("run_id", "size"), actions=("actions_used", "sum"), invalid=("invalid_actions", "sum"))
    players = runs[runs["kind"].isin(HUMAN_KINDS)].groupby("entry")["player_id"].nunique().to_dict()

    # Plain dicts for the per-entry loop (a DataFrame lookup per cell is slow with a thousand entries).
    genre = _figures(per_task, ["genre"]).to_dict("index") if not per_task.empty else {}
    level = _figures(per_task, ["level"]).to_dict("index") if not per_task.empty else {}
    overall = per_task.groupby("entry", sort=False).agg(
        sr=("sr", "mean"), pg=("pg", "mean"), runs=("runs", "sum"), tasks=("task_id", "size")).to_dict("index") \
        if not per_task.empty else {}
    run_counts = run_counts.to_dict("index")

    # Entries: every agent submission with a verified run (even if all of them are flagged), then humans.
    present = set(runs["entry"])
    keys = [k for k in meta if k in present] + [k for k in HUMAN_KINDS if k in present]
    # Bootstrap over the task set's tasks (tasks x entries), the same resamples for every entry.
    task_order = list(tasks["task_id"])
    pg_matrix = per_task.pivot_table(index="task_id", columns="entry", values="pg", aggfunc="first") \
        .reindex(index=task_order, columns=keys) if not per_task.empty else pd.DataFrame(index=task_order, columns=keys)
    sr_matrix = per_task.pivot_table(index="task_id", columns="entry", values="sr", aggfunc="first") \
        .reindex(index=task_order, columns=keys) if not per_task.empty else pd.DataFrame(index=task_order, columns=keys)
    pg_lo, pg_hi = bootstrap_intervals(pg_matrix.to_numpy(dtype=float))
    sr_lo, sr_hi = bootstrap_intervals(sr_matrix.to_numpy(dtype=float))

    entries = []
    for index, key in enumerate(keys):
        human = key in HUMAN_KINDS
        o = overall.get(key)
        covered = int(o["tasks"]) if o else 0
        n_flagged = int(flagged.get(key, 0))
        partial = covered < n_tasks or n_flagged > 0
        counts = run_counts.get(key)
        entry = {
            "key": key, "kind": "human" if human else "agent", "human_kind": key if human else "",
            "covered": covered, "tasks_total": n_tasks, "flagged": n_flagged, "partial": partial,
            # The platform's own baselines (random agents, the state-reading solver) are reference rows.
            "reference": not human and meta[key]["is_baseline"],
            # Only sealed seeds rank: on public ones the submitter may have chosen actions for the seed.
            "ranked": not human and not partial and not meta[key]["is_baseline"] and not meta[key]["copy_of"]
            and meta[key]["provenance"] == Provenance.SEALED, "rank": None,
            "overall": {**_figure_dict(o), "sr_lo": _pct(sr_lo[index]), "sr_hi": _pct(sr_hi[index]),
                        "pg_lo": _pct(pg_lo[index]), "pg_hi": _pct(pg_hi[index])},
            "genre": {g: _figure_dict(genre.get((key, g))) for g in GENRE_IDS},
            "level": {str(lv): _figure_dict(level.get((key, lv))) for lv in LEVEL_IDS},
            "iar": (float(counts["invalid"]) / float(counts["actions"])) if counts and counts["actions"] else None,
        }
        if human:
            entry.update(name=HUMAN_NAMES[key], model="", organisation="", interface="human",
                         protocol=Protocol.PAUSED.value, provenance=Provenance.SEALED.value, copy_of=None,
                         date=None, submission_id=None, status="verified",
                         players=int(players.get(key, 0)), facts=None, min_coverage=min_coverage,
                         incomplete=covered * 100 < min_coverage * n_tasks)
        else:
            sub = meta[key]
            entry.update(name=sub["agent_name"], model=sub["model_name"], organisation=sub["organisation"],
                         interface=sub["interface"], protocol=sub["protocol"], provenance=sub["provenance"],
                         copy_of=sub["copy_of"], date=sub["created"],
                         submission_id=sub["pk"], status=sub["status"], players=None, facts=entry_facts(sub),
                         incomplete=False)
        entries.append(entry)

    task_pgs, task_srs = {}, {}
    for row in per_task.itertuples(index=False):
        task_pgs.setdefault(row.entry, {})[int(row.task_id)] = float(row.pg) * 100.0
        task_srs.setdefault(row.entry, {})[int(row.task_id)] = float(row.sr) * 100.0
    floors = random_floors(task_set)
    for entry in entries:
        # Per task, for comparisons on the tasks two entries share.
        entry["task_pg"] = task_pgs.get(entry["key"], {})
        entry["task_sr"] = task_srs.get(entry["key"], {})
        entry["overall"]["pg_above"] = _pg_above_chance(entry, floors)
    ranked = [e for e in entries if e["ranked"]]
    ranks = interval_ranks([e["overall"]["pg_lo"] for e in ranked], [e["overall"]["pg_hi"] for e in ranked])
    for entry, rank in zip(ranked, ranks):
        entry["rank"] = rank
    entries.sort(key=default_order)
    updated = runs["verified_at"].max() if not runs.empty else None
    return {"task_set": {"pk": task_set.pk, "slug": task_set.slug, "name": task_set.name, "status": task_set.status},
            "interface": interface, "board": board, "tasks": n_tasks, "entries": entries,
            "updated": None if updated is None or pd.isna(updated) else updated.to_pydatetime(),
            "games": tasks.groupby(["game", "game_title", "genre", "level"], sort=False).size()
            .reset_index(name="tasks").sort_values(["level", "game_title"]).to_dict("records")}


def random_floors(task_set):
    """{task pk: {interface: random play's mean progress in percent}} from the tasks' calibration cards."""
    return {task.pk: {interface: task.random_floor(interface) for interface in ("cua", "generalist", "human")}
            for task in task_set.tasks.all()}


def _pg_above_chance(entry, floors):
    """An entry's overall PG above chance: the mean over its tasks of `above_chance`, against the floor of its
    interface; None when a task it has lacks a floor."""
    scaled = [above_chance(pg, floors.get(task_id, {}).get(entry["interface"]))
              for task_id, pg in entry["task_pg"].items()]
    return sum(scaled) / len(scaled) if scaled and None not in scaled else None


def default_order(entry):
    """Ranked agents and humans by overall PG (best first; an agent before a human on a tie), then partial
    entries by PG."""
    pg = entry["overall"]["pg"]
    return (entry["partial"] and entry["kind"] == "agent", -(pg if pg is not None else -1.0),
            entry["kind"] == "human", entry["rank"] or 0, entry["name"])


def leaderboard(task_set, *, interface="", protocol=Protocol.PAUSED, board=SEALED_BOARD):
    """compute_table, from the cache (a newly verified run changes the data version)."""
    return from_cache(f"table.{task_set.pk}.{interface or 'all'}.{protocol}.{board}",
                      lambda: compute_table(task_set, interface=interface, protocol=protocol, board=board))


# Sorting and the columns a view shows (the page, the CSV and the JSON use the same ones).

SORTS = {"rank", "name", "model", "interface", "date", "overall_sr", "overall_pg", "runs"}


def sort_value(entry, sort):
    if sort == "rank":
        return entry["rank"] if entry["rank"] is not None else None
    if sort in ("name", "model", "interface"):
        return (entry.get(sort) or "").lower()
    if sort == "date":
        return entry["date"].timestamp() if entry["date"] else None
    if sort == "runs":
        return entry["overall"]["runs"]
    part, _, metric = sort.rpartition("_")
    if part == "overall":
        return entry["overall"][metric]
    if part in GENRE_IDS:
        return entry["genre"][part][metric]
    if part in {str(lv) for lv in LEVEL_IDS}:
        return entry["level"][part][metric]
    return None


def valid_sort(sort, view):
    groups = {g for g, _, _ in groups_for(view)}
    if sort in SORTS:
        return True
    part, _, metric = (sort or "").rpartition("_")
    return part in groups and metric in ("sr", "pg")


def default_direction(sort):
    return "asc" if sort in ("rank", "name", "model", "interface") else "desc"


WEIGHTS = ("open", "closed")


def matches(entry, *, search="", weights="", tuned=True):
    """Whether an agent entry passes the board's filters: `search` in its name, model or organisation (any case),
    its declared weights, and (tuned False) not built or tuned on this benchmark. Human rows always pass."""
    if entry["kind"] == "human":
        return True
    text = search.strip().casefold()
    if text and not any(text in (entry.get(field) or "").casefold() for field in ("name", "model", "organisation")):
        return False
    if weights and entry["facts"]["weights"] != weights:
        return False
    return tuned or not entry["facts"]["tuned_on_benchmark"]


def select_entries(table, *, sort="rank", direction=None, humans=True, partial=True, search="", weights="",
                   tuned=True):
    """The entries a view shows, sorted. Missing values sort last either way; ties keep the default order."""
    entries = [e for e in table["entries"] if (humans or e["kind"] != "human")
               and (partial or e["kind"] == "human" or not e["partial"])
               and matches(e, search=search, weights=weights, tuned=tuned)]
    if sort == "rank":
        # The default order: rank (overall PG) with the humans where their PG puts them, partial entries last.
        return entries if (direction or "asc") == "asc" else list(reversed(entries))
    direction = direction or default_direction(sort)
    present = [e for e in entries if sort_value(e, sort) is not None]
    missing = [e for e in entries if sort_value(e, sort) is None]
    present.sort(key=lambda e: sort_value(e, sort), reverse=direction == "desc")
    return present + missing


@dataclass
class Column:
    key: str
    label: str


def export_columns(view):
    columns = [Column("rank", "rank"), Column("status", "status"), Column("entry", "entry"), Column("kind", "kind"),
               Column("model", "model"), Column("organisation", "organisation"), Column("interface", "interface"),
               Column("protocol", "protocol"), Column("provenance", "provenance"), Column("copy_of", "copy_of"),
               Column("date", "date"), Column("submission_id", "submission_id")]
    for group, _, _ in groups_for(view):
        prefix = group if view == "genre" else f"level{group}"
        columns += [Column(f"{group}_sr", f"{prefix}_sr"), Column(f"{group}_pg", f"{prefix}_pg"),
                    Column(f"{group}_runs", f"{prefix}_runs")]
    columns += [Column(name, name) for name in (
        "overall_sr", "overall_sr_lo", "overall_sr_hi", "overall_pg", "overall_pg_lo", "overall_pg_hi",
        "runs", "tasks_covered", "tasks_total", "flagged_runs", "iar", "weights", "tuned_on_benchmark", "code_url",
        "paper_url", "reported_tokens_per_step", "reported_seconds_per_step", "reported_cost_per_step_usd")]
    return columns


def entry_status(entry):
    if entry["kind"] == "human" or entry["reference"]:
        return "reference"
    if entry["copy_of"]:
        return f"copy of #{entry['copy_of']}"
    if entry["provenance"] != Provenance.SEALED:
        return f"public seeds ({entry['provenance']})"
    if entry["flagged"]:
        return "partial (flagged runs)"
    return "ranked" if entry["ranked"] else "partial"


def export_row(entry, view):
    """One entry as a flat dict of the export columns (figures in percent, unrounded)."""
    row = {"rank": entry["rank"], "status": entry_status(entry), "entry": entry["name"], "kind": entry["kind"]
           if entry["kind"] == "agent" else entry["human_kind"], "model": entry["model"],
           "organisation": entry["organisation"], "interface": entry["interface"], "protocol": entry["protocol"],
           "provenance": entry["provenance"], "copy_of": entry["copy_of"], "date": entry["date"].date().isoformat() if entry["date"] else "", "submission_id": entry["submission_id"]}
    figures = entry["genre"] if view == "genre" else entry["level"]
    for group, _, _ in groups_for(view):
        row[f"{group}_sr"] = figures[group]["sr"]
        row[f"{group}_pg"] = figures[group]["pg"]
        row[f"{group}_runs"] = figures[group]["runs"]
    o = entry["overall"]
    row.update(overall_sr=o["sr"], overall_sr_lo=o["sr_lo"], overall_sr_hi=o["sr_hi"], overall_pg=o["pg"],
               overall_pg_lo=o["pg_lo"], overall_pg_hi=o["pg_hi"], runs=o["runs"], tasks_covered=entry["covered"],
               tasks_total=entry["tasks_total"], flagged_runs=entry["flagged"],
               iar=None if entry["iar"] is None else entry["iar"] * 100.0)
    facts = entry["facts"] or {}  # humans declare nothing
    row.update({name: facts.get(name) for name in ("weights", "tuned_on_benchmark", "code_url", "paper_url")})
    row.update({f"reported_{name}": facts.get("reported", {}).get(name) for name in REPORTED})
    return {column.label: row[column.key] for column in export_columns(view)}


# Runs (the per-run export and the drill-down pages).

def run_rows(task_set, *, interface="", protocol=Protocol.PAUSED, board=SEALED_BOARD, humans=True, extra_filter=None):
    """Every verified run in scope, flagged ones included (marked, and `counted` false)."""
    runs = runs_table(task_set, interface=interface, protocol=protocol, board=board, extra_filter=extra_filter)
    if not humans:
        runs = runs[runs["kind"] == Run.Kind.AGENT]
    meta = submissions_meta(task_set, interface=interface, protocol=protocol, board=board)
    runs = runs[(runs["kind"] != Run.Kind.AGENT) | runs["entry"].isin(meta.keys())]
    tasks = {t.pk: t for t in Task.objects.filter(pk__in=set(runs["task_id"])).select_related("game")}
    rows = []
    for run in runs.sort_values(["entry", "task_id", "seed", "run_id"]).itertuples(index=False):
        sub = meta.get(run.entry)
        task = tasks[run.task_id]
        rows.append({
            "run_id": int(run.run_id), "entry": sub["agent_name"] if sub else HUMAN_NAMES[run.kind],
            "kind": run.kind, "submission_id": sub["pk"] if sub else None,
            "model": sub["model_name"] if sub else "", "interface": sub["interface"] if sub else "human",
            "provenance": sub["provenance"] if sub else Provenance.SEALED.value, "task": task.task_id, "game": task.game.slug, "genre": task.game.genre, "level": task.game.level,
            "seed": int(run.seed), "progress": float(run.progress) * 100.0, "success": bool(run.success),
            "attempts": _int(run.attempts), "actions_used": _int(run.actions_used),
            "invalid_actions": _int(run.invalid_actions), "flagged": bool(run.mismatch),
            "counted": not bool(run.mismatch)})
    return rows


def _int(value):
    return None if value is None or pd.isna(value) else int(value)


def entry_profile(task_set, key):
    """One entry's per-genre and per-level profile and per-task results, from its unflagged runs."""
    tasks = tasks_table(task_set)
    if key in HUMAN_KINDS:
        runs = runs_table(task_set, extra_filter=Q(kind=key))
    else:
        runs = runs_table(task_set, board="", extra_filter=Q(submission_id=int(key[1:])))
    runs = runs[runs["entry"] == key]
    figures = per_task_figures(runs)[["task_id", "sr", "pg", "runs", "actions", "invalid"]]
    per_task = tasks.merge(figures, on="task_id", how="left")
    run_lists = {}
    for run in runs.sort_values(["seed", "run_id"]).itertuples(index=False):
        run_lists.setdefault(int(run.task_id), []).append(
            {"id": int(run.run_id), "seed": int(run.seed), "progress": float(run.progress) * 100.0,
             "success": bool(run.success), "flagged": bool(run.mismatch)})
    rows = []
    for row in per_task.sort_values(["level", "game_title", "target", "slug"]).itertuples(index=False):
        has = not pd.isna(row.pg)
        rows.append({"task_id": int(row.task_id), "game": row.game, "game_title": row.game_title,
                     "genre": row.genre, "level": int(row.level), "slug": row.slug, "version": int(row.version),
                     "title": row.title, "sr": _pct(row.sr) if has else None, "pg": _pct(row.pg) if has else None,
                     "runs": int(row.runs) if has else 0,
                     "iar": (float(row.invalid) / float(row.actions) * 100.0) if has and row.actions else None,
                     "run_list": run_lists.get(int(row.task_id), [])})
    flagged = runs[runs["mismatch"]].sort_values(["task_id", "seed"])
    return {"tasks": rows, "flagged_runs": [int(r) for r in flagged["run_id"]]}


def task_results(task_set, task, *, board=SEALED_BOARD):
    """Every entry of a board with its figure on one task (and its runs), for the task page."""
    runs = runs_table(task_set, board=board, extra_filter=Q(task=task))
    meta = submissions_meta(task_set, board=board)
    runs = runs[(runs["kind"] != Run.Kind.AGENT) | runs["entry"].isin(meta.keys())]
    counted = runs[~runs["mismatch"]]
    rows = []
    if not counted.empty:
        grouped = counted.groupby("entry").agg(sr=("success", "mean"), pg=("progress", "mean"),
                                               runs=("run_id", "size"), actions=("actions_used", "sum"),
                                               invalid=("invalid_actions", "sum"),
                                               used=("actions_used", "mean"))
        run_ids = {}
        for r in counted.sort_values(["seed", "run_id"]).itertuples(index=False):
            run_ids.setdefault(r.entry, []).append({"id": int(r.run_id), "seed": int(r.seed),
                                                    "progress": float(r.progress) * 100.0, "success": bool(r.success)})
        for key, row in grouped.iterrows():
            sub = meta.get(key)
            rows.append({"key": key, "kind": "agent" if sub else "human", "name": sub["agent_name"] if sub
                         else HUMAN_NAMES[key], "model": sub["model_name"] if sub else "",
                         "interface": sub["interface"] if sub else "human",
                         "submission_id": sub["pk"] if sub else None, "sr": row["sr"] * 100.0,
                         "pg": row["pg"] * 100.0, "runs": int(row["runs"]), "actions_mean": float(row["used"]),
                         "iar": float(row["invalid"]) / float(row["actions"]) * 100.0 if row["actions"] else None,
                         "run_list": run_ids.get(key, []), "reference": bool(sub and sub["is_baseline"])})
    for row in rows:
        row["above_chance"] = above_chance(row["pg"], task.random_floor(row["interface"]))
    rows.sort(key=lambda r: (-r["pg"], -r["sr"], r["name"]))
    return {"rows": rows, "progress": counted[["entry", "kind", "progress"]].assign(
        progress=lambda f: f["progress"] * 100.0, interface=_interfaces(counted, meta)).to_dict("records"),
        "flagged": int(runs["mismatch"].sum())}


def _interfaces(runs, meta):
    """Each run's interface: its submission's, or "human"."""
    return [meta[key]["interface"] if key in meta else "human" for key in runs["entry"]]


def task_comparison(task):
    """How agents did on a task, for a player's result page: the first public task set holding it (the default
    first), the mean PG of the agents with verified runs of it (baselines aside) and the best of them, and random
    play's floor (percent); None when no public task set holds the task."""
    task_set = next((ts for ts in task_sets() if ts.tasks.filter(pk=task.pk).exists()), None)
    if task_set is None:
        return None
    agents = [row for row in task_results(task_set, task)["rows"] if row["kind"] == "agent" and not row["reference"]]
    best = max(agents, key=lambda row: row["pg"], default=None)
    return {"task_set": task_set, "agents": len(agents),
            "agents_pg": sum(row["pg"] for row in agents) / len(agents) if agents else None,
            "best": best, "random_floor": task.random_floor("cua")}


def game_results(task_set, game, *, board=SEALED_BOARD):
    """Every entry of a board with its figures on one game's tasks (the mean over its tasks), and per-run
    progress by task."""
    runs = runs_table(task_set, board=board, extra_filter=Q(task__game=game))
    meta = submissions_meta(task_set, board=board)
    runs = runs[(runs["kind"] != Run.Kind.AGENT) | runs["entry"].isin(meta.keys())]
    per_task = per_task_figures(runs)
    n_tasks = int(task_set.tasks.filter(game=game).count())
    rows = []
    if not per_task.empty:
        grouped = per_task.groupby("entry").agg(sr=("sr", "mean"), pg=("pg", "mean"), runs=("runs", "sum"),
                                                tasks=("task_id", "size"))
        for key, row in grouped.iterrows():
            sub = meta.get(key)
            rows.append({"key": key, "kind": "agent" if sub else "human",
                         "name": sub["agent_name"] if sub else HUMAN_NAMES[key],
                         "model": sub["model_name"] if sub else "", "interface": sub["interface"] if sub else "human",
                         "submission_id": sub["pk"] if sub else None, "sr": row["sr"] * 100.0, "pg": row["pg"] * 100.0,
                         "runs": int(row["runs"]), "tasks": int(row["tasks"]), "tasks_total": n_tasks})
    rows.sort(key=lambda r: (-r["pg"], -r["sr"], r["name"]))
    counted = runs[~runs["mismatch"]]
    return {"rows": rows, "runs": counted[["entry", "kind", "task_id", "progress"]].assign(
        progress=lambda f: f["progress"] * 100.0, interface=_interfaces(counted, meta)).to_dict("records"), "flagged": int(runs["mismatch"].sum())}


# Two entries side by side.

def compare_entries(task_set, first_key, second_key, *, board=SEALED_BOARD):
    """Two entries of a board of the task set on the tasks both have verified runs on: per task, per genre and
    per level their PG and SR, and overall the paired bootstrap of the PG and SR differences (first - second).
    None when either entry has no verified run on the set."""
    table = leaderboard(task_set, board=board)
    by_key = {e["key"]: e for e in table["entries"]}
    first, second = by_key.get(first_key), by_key.get(second_key)
    if first is None or second is None:
        return None
    tasks = tasks_table(task_set).sort_values(["level", "game_title", "target", "slug"])
    shared = [t for t in tasks.to_dict("records") if t["task_id"] in first["task_pg"]
              and t["task_id"] in second["task_pg"]]
    rows = [{**t, "first_pg": first["task_pg"][t["task_id"]], "second_pg": second["task_pg"][t["task_id"]],
             "first_sr": first["task_sr"][t["task_id"]], "second_sr": second["task_sr"][t["task_id"]]}
            for t in shared]
    for row in rows:
        row["diff_pg"] = row["first_pg"] - row["second_pg"]

    def means(members):
        return {"tasks": len(members), **{metric: sum(r[metric] for r in members) / len(members) if members else None
                                          for metric in ("first_pg", "second_pg", "first_sr", "second_sr")}}

    def grouped(field, groups):
        return [{"group": group, "label": label, "hint": hint, **means([r for r in rows if str(r[field]) == group])}
                for group, label, hint in groups]

    return {"first": first, "second": second, "rows": rows, "shared": len(rows), "tasks_total": table["tasks"],
            "overall": means(rows), "genre": grouped("genre", groups_for("genre")),
            "level": grouped("level", groups_for("level")),
            "pg": paired_difference([r["first_pg"] for r in rows], [r["second_pg"] for r in rows]),
            "sr": paired_difference([r["first_sr"] for r in rows], [r["second_sr"] for r in rows])}
