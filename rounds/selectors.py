"""The figures of rounds evaluations, from verified runs only (pandas, with the leaderboard's statistics).

For an entry and a game (or all its games pooled: "overall"), a round's score is the mean progress (PG, in percent)
over the round's tasks, a task's figure being the mean over its episodes. Then:
- cold: round 0; final: the last round; best: the highest round, and `rounds_to_best` its index;
- auc: the area under the curve over rounds 0..R divided by R (trapezoids), so a flat curve's auc is its height;
- gain: final - cold, with the paired bootstrap over the training tasks (fixed seed); `flat` when its interval holds 0;
- held_out: the held-out round's score; held_out_cold: the same tasks' score in round 0, which plays them cold too;
  transfer: held_out - held_out_cold, with the paired bootstrap over the held-out tasks (the same tasks on both sides:
  an easier held-out task does not pass for transfer).
The board ranks finished entries by overall transfer, sharing a rank while intervals overlap (as the leaderboard).
Nothing an agent declares enters: its artifacts are shown, never scored.
"""
import numpy as np
import pandas as pd

from leaderboard.selectors import from_cache
from leaderboard.statistics import interval_ranks, paired_difference
from humanplay.models import Assignment
from submissions.models import Run

from .models import Curriculum, Entry

OVERALL = "overall"
COLUMNS = ["entry", "round", "game", "task", "progress", "success"]


def published_curricula():
    return list(Curriculum.objects.filter(published=True).select_related("task_set").order_by("-created"))


def round_runs(curriculum, entry_id=None):
    """One row a verified run of the curriculum's rounds (of one entry's, when given): entry, round, game, task
    (game/slug@version), progress (0-1), success."""
    rows = Run.objects.filter(
        submission__hosted_evaluation__round__entry__curriculum=curriculum, status=Run.Status.VERIFIED,
        mismatch=False, submission__hidden=False,
    )
    if entry_id is not None:
        rows = rows.filter(submission__hosted_evaluation__round__entry_id=entry_id)
    rows = rows.values_list("submission__hosted_evaluation__round__entry_id", "submission__hosted_evaluation__round__index",
                  "task__game__slug", "task__slug", "task__version", "progress", "success")
    table = pd.DataFrame([(entry, index, game, f"{game}/{slug}@{version}", progress, success)
                          for entry, index, game, slug, version, progress, success in rows], columns=COLUMNS)
    return table.astype({"progress": float, "success": float})


def measures(training, held_out, last_round):
    """The figures of one entry on one scope. `training`: tasks x rounds 0..R (PG in percent, NaN where not
    played); `held_out`: held-out tasks x ["cold", "after"] (round 0 and the held-out round; maybe no row)."""
    rounds = list(range(last_round + 1))
    training = training.reindex(columns=rounds)
    curve = training.mean(axis=0)
    played = [r for r in rounds if not np.isnan(curve[r])]
    figures = {"curve": [None if np.isnan(v) else round(float(v), 2) for v in curve], "rounds_played": len(played),
               "cold": _value(curve[0]), "final": None, "best": None, "rounds_to_best": None, "auc": None,
               "gain": None, "flat": None, "held_out": _value(held_out["after"].mean()),
               "held_out_cold": _value(held_out["cold"].mean()), "transfer": None}
    if not played or played[0] != 0:
        return figures
    best_round = int(curve[played].idxmax())
    figures.update(best=_value(curve[best_round]), rounds_to_best=best_round)
    if len(played) == len(rounds):
        y = curve.to_numpy()
        figures["final"] = _value(y[-1])
        figures["auc"] = round(float((y[:-1] + y[1:]).sum() / 2 / last_round), 2)
        both = training[[0, last_round]].dropna()
        gain = paired_difference(both[last_round].to_numpy(), both[0].to_numpy())
        figures["gain"] = _rounded(gain)
        figures["flat"] = bool(gain["lo"] <= 0 <= gain["hi"]) if gain else None
    both = held_out.dropna()
    if len(both):
        figures["transfer"] = _rounded(paired_difference(both["after"].to_numpy(), both["cold"].to_numpy()))
    return figures


def _value(value):
    return None if value is None or np.isnan(value) else round(float(value), 2)


def _rounded(result):
    return None if result is None else {**result, **{k: round(result[k], 2) for k in ("diff", "lo", "hi")}}


class Layout:
    """What the figures need of a curriculum, read once for all its entries: its scopes (each game, then OVERALL),
    its held-out tasks and its last training round."""

    def __init__(self, curriculum):
        self.scopes = [*curriculum.games(), OVERALL]
        self.held_ids = {task.task_id for task in curriculum.held_out_tasks.select_related("game")}
        self.last_round = curriculum.rounds


def entry_figures(layout, mine):
    """{scope: measures} for one entry from its runs (`mine`, rows of round_runs): each game, and OVERALL (every
    task pooled)."""
    held_round = layout.last_round + 1
    if mine.empty:
        nothing = pd.DataFrame(columns=["cold", "after"], dtype=float)
        return {scope: measures(pd.DataFrame(dtype=float), nothing, layout.last_round) for scope in layout.scopes}
    per_task = mine.groupby(["game", "task", "round"])["progress"].mean().mul(100)
    table = per_task.unstack("round").reindex(columns=range(held_round + 1))
    is_held = table.index.get_level_values("task").isin(layout.held_ids)
    training = table[~is_held].drop(columns=[held_round])
    held = table[is_held][[0, held_round]].set_axis(["cold", "after"], axis=1)

    def part(frame, scope):
        chosen = frame if scope == OVERALL else frame[frame.index.get_level_values("game") == scope]
        return chosen.droplevel("game")

    return {scope: measures(part(training, scope), part(held, scope), layout.last_round) for scope in layout.scopes}


def board(curriculum):
    """The curriculum's board: every entry with its figures (built once per data version), ranked by overall
    held-out transfer among the finished ones, the others after them."""
    return from_cache(f"rounds-board.{curriculum.pk}", lambda: _board(curriculum))


def _board(curriculum):
    runs, layout = round_runs(curriculum), Layout(curriculum)
    rows = [{**entry_summary(entry), "figures": entry_figures(layout, runs[runs["entry"] == entry.pk])}
            for entry in curriculum.entries.select_related("user").order_by("created")]
    ranked = [row for row in rows if row["stage"] == "finished" and row["figures"][OVERALL]["transfer"]]
    ranks = interval_ranks([r["figures"][OVERALL]["transfer"]["lo"] for r in ranked],
                           [r["figures"][OVERALL]["transfer"]["hi"] for r in ranked])
    for row, rank in zip(ranked, ranks):
        row["rank"] = rank
    return sorted(rows, key=lambda r: (r.get("rank") is None, r.get("rank") or 0,
                                       -((r["figures"][OVERALL]["transfer"] or {}).get("diff") or 0), r["id"]))


def entry_summary(entry):
    rounds = list(entry.rounds.select_related("evaluation__submission").order_by("index"))
    return {"id": entry.pk, "agent": entry.agent, "user": entry.user.username, "stage": entry.stage(rounds[-1]),
            "created": entry.created, "rank": None,
            "rounds": [{"index": r.index, "label": r.label, "artifact": r.artifact, "held_out": r.held_out,
                        "status": r.evaluation.status,
                        "submission": r.evaluation.submission_id,
                        "verification": r.evaluation.submission.status if r.evaluation.submission else None}
                       for r in rounds]}


def entry_detail(entry):
    return {**entry_summary(entry),
            "figures": entry_figures(Layout(entry.curriculum), round_runs(entry.curriculum, entry.pk))}


def export_rows(curriculum):
    """Flat rows for the CSV and JSON exports: one per entry, scope and round (the held-out round labelled so)."""
    rows = []
    for row in board(curriculum):
        for scope, figures in row["figures"].items():
            base = {"entry": row["id"], "agent": row["agent"].get("name"), "model": row["agent"].get("model"),
                    "interface": row["agent"].get("interface"), "stage": row["stage"], "rank": row["rank"],
                    "scope": scope, "cold": figures["cold"], "best": figures["best"],
                    "rounds_to_best": figures["rounds_to_best"], "final": figures["final"], "auc": figures["auc"],
                    "gain": (figures["gain"] or {}).get("diff"), "gain_lo": (figures["gain"] or {}).get("lo"),
                    "gain_hi": (figures["gain"] or {}).get("hi"), "held_out_cold": figures["held_out_cold"],
                    "held_out": figures["held_out"],
                    "transfer": (figures["transfer"] or {}).get("diff"),
                    "transfer_lo": (figures["transfer"] or {}).get("lo"),
                    "transfer_hi": (figures["transfer"] or {}).get("hi")}
            for index, score in enumerate(figures["curve"]):
                rows.append({**base, "round": index, "pg": score})
    return rows


def entry_of(pk):
    return Entry.objects.select_related("curriculum__task_set", "user").filter(pk=pk).first()


def people_curve(curriculum):
    """People beside the agents: the curriculum's campaign's volunteers, round by round (a campaign with rounds asks
    each volunteer to play a task again and again), on the training tasks, from verified runs. {"curve": PG by
    round, "pairs": player-task pairs behind each point, "players"}; None without a campaign or a run yet."""
    if curriculum.campaign_id is None:
        return None
    rows = list(Assignment.objects.filter(
        campaign_id=curriculum.campaign_id, status=Assignment.Status.DONE, task__in=curriculum.training_tasks.all(),
        run__status=Run.Status.VERIFIED, run__mismatch=False, round__lte=curriculum.rounds,
    ).values_list("user_id", "round", "run__progress"))
    if not rows:
        return None
    table = pd.DataFrame(rows, columns=["player", "round", "progress"])
    by_round = table.groupby("round")["progress"]
    return {"curve": [round(float(v) * 100, 2) for v in by_round.mean()],
            "pairs": [int(n) for n in by_round.size()], "players": int(table["player"].nunique())}
