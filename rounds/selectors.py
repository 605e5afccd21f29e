"""The figures of rounds evaluations, from verified runs only (pandas, with the leaderboard's statistics).

For an entry and a game (or all its games pooled: "overall"), a round's score is the mean progress (PG, in percent)
over the round's tasks, a task's figure being the mean over its episodes. Then:
- cold: round 0; final: the last round; best: the highest round, and `rounds_to_best` its index;
- auc: the area under the curve over rounds 0..R divided by R (trapezoids), so a flat curve's auc is its height;
- gain: final - cold, with the paired bootstrap over the training tasks (fixed seed); `flat` when its interval holds 0;
- held_out: the held-out round's score; transfer: held_out - cold, with the unpaired bootstrap (the held-out tasks are
  other tasks than the cold round's, so the two groups are resampled on their own).
The board ranks finished entries by overall transfer, sharing a rank while intervals overlap (as the leaderboard).
Nothing an agent declares enters: its artifacts are shown, never scored.
"""
import numpy as np
import pandas as pd

from leaderboard.selectors import from_cache
from leaderboard.statistics import difference_of_means, interval_ranks, paired_difference
from humanplay.models import Assignment
from submissions.models import Run

from .models import Curriculum, Entry

OVERALL = "overall"
COLUMNS = ["entry", "round", "game", "task", "progress", "success"]


def published_curricula():
    return list(Curriculum.objects.filter(published=True).select_related("task_set").order_by("-created"))


def round_runs(curriculum):
    """One row a verified run of the curriculum's rounds: entry, round, game, task (game/slug@version), progress
    (0-1), success."""
    rows = Run.objects.filter(
        submission__hosted_evaluation__round__entry__curriculum=curriculum, status=Run.Status.VERIFIED,
        mismatch=False, submission__hidden=False,
    ).values_list("submission__hosted_evaluation__round__entry_id", "submission__hosted_evaluation__round__index",
                  "task__game__slug", "task__slug", "task__version", "progress", "success")
    table = pd.DataFrame([(entry, index, game, f"{game}/{slug}@{version}", progress, success)
                          for entry, index, game, slug, version, progress, success in rows], columns=COLUMNS)
    return table.astype({"progress": float, "success": float})


def measures(training, held_out, last_round):
    """The figures of one entry on one scope. `training`: tasks x rounds (PG in percent, NaN where not played);
    `held_out`: a Series of PG by held-out task (maybe empty)."""
    rounds = list(range(last_round + 1))
    training = training.reindex(columns=rounds)
    curve = training.mean(axis=0)
    played = [r for r in rounds if not np.isnan(curve[r])]
    figures = {"curve": [None if np.isnan(v) else round(float(v), 2) for v in curve], "rounds_played": len(played),
               "cold": _value(curve[0]), "final": None, "best": None, "rounds_to_best": None, "auc": None,
               "gain": None, "flat": None, "held_out": _value(held_out.mean()) if len(held_out) else None,
               "transfer": None}
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
    if len(held_out):
        figures["transfer"] = _rounded(difference_of_means(held_out.to_numpy(), training[0].dropna().to_numpy()))
    return figures


def _value(value):
    return None if value is None or np.isnan(value) else round(float(value), 2)


def _rounded(result):
    return None if result is None else {**result, **{k: round(result[k], 2) for k in ("diff", "lo", "hi")}}


def entry_figures(curriculum, runs, entry_id):
    """{scope: measures} for one entry: each game of the curriculum, and OVERALL (every task pooled)."""
    mine = runs[runs["entry"] == entry_id]
    held_round = curriculum.held_out_round
    per_task = mine.groupby(["game", "task", "round"])["progress"].mean().mul(100)
    scopes = {}
    for scope in [*curriculum.games(), OVERALL]:
        part = per_task if scope == OVERALL else per_task[per_task.index.get_level_values("game") == scope]
        part = part.droplevel("game")
        table = part.unstack("round") if len(part) else pd.DataFrame()
        held = table[held_round].dropna() if held_round in table else pd.Series(dtype=float)
        training = table.drop(columns=[held_round], errors="ignore")
        training = training[training.notna().any(axis=1)] if len(training.columns) else training
        scopes[scope] = measures(training, held, curriculum.rounds)
    return scopes


def board(curriculum):
    """The curriculum's board: every entry with its figures (built once per data version), ranked by overall
    held-out transfer among the finished ones, the others after them."""
    return from_cache(f"rounds-board.{curriculum.pk}", lambda: _board(curriculum))


def _board(curriculum):
    runs = round_runs(curriculum)
    rows = []
    for entry in curriculum.entries.select_related("user").order_by("created"):
        rows.append({**entry_summary(entry), "figures": entry_figures(curriculum, runs, entry.pk)})
    ranked = [row for row in rows if row["stage"] == "finished" and row["figures"][OVERALL]["transfer"]]
    ranks = interval_ranks([r["figures"][OVERALL]["transfer"]["lo"] for r in ranked],
                           [r["figures"][OVERALL]["transfer"]["hi"] for r in ranked])
    for row, rank in zip(ranked, ranks):
        row["rank"] = rank
    return sorted(rows, key=lambda r: (r.get("rank") is None, r.get("rank") or 0,
                                       -((r["figures"][OVERALL]["transfer"] or {}).get("diff") or 0), r["id"]))


def entry_summary(entry):
    rounds = list(entry.rounds.select_related("evaluation__submission").order_by("index"))
    return {"id": entry.pk, "agent": entry.agent, "user": entry.user.username, "stage": entry.stage(),
            "created": entry.created, "rank": None,
            "rounds": [{"index": r.index, "label": r.label, "artifact": r.artifact, "held_out": r.held_out,
                        "status": r.evaluation.status,
                        "submission": r.evaluation.submission_id,
                        "verification": r.evaluation.submission.status if r.evaluation.submission else None}
                       for r in rounds]}


def entry_detail(entry):
    runs = round_runs(entry.curriculum)
    return {**entry_summary(entry), "figures": entry_figures(entry.curriculum, runs, entry.pk)}


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
                    "gain_hi": (figures["gain"] or {}).get("hi"), "held_out": figures["held_out"],
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
