"""The leaderboard's figures against a small fixture computed by hand.

Task set "mini" (4 tasks):            genre       level
  T1 breakout/rally-5@2               arcade      1
  T2 runner/clear-6@1                 runner      2
  T3 merge2048/corner-20@1            puzzle      4
  T4 minesweeper/clear-2-boards@2     puzzle      4
"""
import pytest

from leaderboard import selectors
from submissions.models import Run, Submission
from tests.factories import task
from tests.leaderboard.factories import mini_task_set, player, run, submission

pytestmark = pytest.mark.django_db

T1, T2, T3, T4 = "breakout/rally-5@2", "runner/clear-6@1", "merge2048/corner-20@1", "minesweeper/clear-2-boards@2"


@pytest.fixture
def board():
    ts = mini_task_set([T1, T2, T3, T4])
    a = submission(ts, "Alpha", interface="cua")
    run(a, T1, 1.0, True, actions_used=10, invalid_actions=1)   # T1: PG (1 + .5)/2 = .75, SR .5
    run(a, T1, 0.5, False, actions_used=10, invalid_actions=0)
    run(a, T2, 0.2, False, actions_used=20, invalid_actions=2)  # T2: PG .2, SR 0
    run(a, T3, 1.0, True, actions_used=40, invalid_actions=0)   # T3: PG 1, SR 1
    run(a, T4, 0.6, False, actions_used=20, invalid_actions=1)  # T4: PG .6, SR 0
    b = submission(ts, "Bravo", interface="generalist")
    for t in (T1, T2, T3, T4):
        run(b, t, 0.0, False)
    c = submission(ts, "Charlie", interface="cua")
    for t in (T1, T2, T3, T4):
        run(c, t, 1.0, True)
    d = submission(ts, "Delta", interface="cua")  # every task covered, but one claim was false
    run(d, T1, 1.0, True, mismatch=True, claimed=0.3)  # the claim differs from the replay
    run(d, T1, 0.0, False)
    for t in (T2, T3, T4):
        run(d, t, 0.5, False)
    e = submission(ts, "Echo", interface="generalist")  # two tasks only
    run(e, T1, 1.0, True)
    run(e, T2, 1.0, True)
    f = submission(ts, "Foxtrot", interface="cua", status="verifying")  # T4 not verified yet
    for t in (T1, T2, T3):
        run(f, t, 0.4, False)
    run(f, T4, 0.0, False, status=Run.Status.PENDING)
    ana, ben = player("ana"), player("ben")
    run("novice", T1, 0.5, False, player=ana)  # novice T1: PG .75, SR .5
    run("novice", T1, 1.0, True, player=ben)
    run("novice", T2, 0.4, False, player=ana)
    run("novice", T3, 0.8, False, player=ana)
    run("novice", T4, 0.8, False, player=ben)
    for t in (T1, T2, T3, T4):
        run("expert", t, 1.0, True, player=ana)
    return ts, {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f}


def by_name(table):
    return {entry["name"]: entry for entry in table["entries"]}


def test_genre_level_and_overall_figures_equal_the_hand_computed_ones(board):
    ts, _ = board
    alpha = by_name(selectors.compute_table(ts))["Alpha"]
    assert alpha["genre"]["arcade"] == {"sr": 50.0, "pg": 75.0, "runs": 2, "tasks": 1}
    assert alpha["genre"]["runner"] == {"sr": 0.0, "pg": pytest.approx(20.0), "runs": 1, "tasks": 1}
    assert alpha["genre"]["puzzle"] == {"sr": 50.0, "pg": pytest.approx(80.0), "runs": 2, "tasks": 2}
    assert alpha["genre"]["platformer"] == {"sr": None, "pg": None, "runs": 0, "tasks": 0}
    assert alpha["genre"]["simulation"]["pg"] is None
    assert alpha["level"]["1"] == {"sr": 50.0, "pg": 75.0, "runs": 2, "tasks": 1}
    assert alpha["level"]["2"]["pg"] == pytest.approx(20.0)
    assert alpha["level"]["3"]["pg"] is None
    assert alpha["level"]["4"] == {"sr": 50.0, "pg": pytest.approx(80.0), "runs": 2, "tasks": 2}
    overall = alpha["overall"]
    assert overall["sr"] == pytest.approx(37.5)              # (.5 + 0 + 1 + 0) / 4
    assert overall["pg"] == pytest.approx(63.75)             # (.75 + .2 + 1 + .6) / 4
    assert overall["runs"] == 5 and overall["tasks"] == 4
    assert alpha["iar"] == pytest.approx(4 / 100)            # 4 invalid of 100 actions
    assert alpha["ranked"] and not alpha["partial"] and alpha["covered"] == 4


def test_human_rows_pool_players_and_are_never_ranked(board):
    ts, _ = board
    entries = by_name(selectors.compute_table(ts))
    novice, expert = entries["Novice humans"], entries["Expert humans"]
    assert novice["kind"] == expert["kind"] == "human" and novice["rank"] is None and not novice["ranked"]
    assert novice["genre"]["arcade"]["pg"] == pytest.approx(75.0) and novice["genre"]["arcade"]["sr"] == 50.0
    assert novice["genre"]["puzzle"]["pg"] == pytest.approx(80.0)
    assert novice["overall"]["pg"] == pytest.approx(68.75)   # (.75 + .4 + .8 + .8) / 4
    assert novice["overall"]["sr"] == pytest.approx(12.5)    # (.5 + 0 + 0 + 0) / 4
    assert novice["players"] == 2 and expert["players"] == 1
    assert expert["overall"]["pg"] == 100.0 and expert["overall"]["pg_lo"] == expert["overall"]["pg_hi"] == 100.0


def test_ranks_tie_while_intervals_overlap(board):
    ts, _ = board
    entries = by_name(selectors.compute_table(ts))
    charlie, alpha, bravo = entries["Charlie"], entries["Alpha"], entries["Bravo"]
    # Constant per-task figures give degenerate intervals; Alpha's lie strictly between them.
    assert (charlie["overall"]["pg_lo"], charlie["overall"]["pg_hi"]) == (100.0, 100.0)
    assert (bravo["overall"]["pg_lo"], bravo["overall"]["pg_hi"]) == (0.0, 0.0)
    assert 20.0 < alpha["overall"]["pg_lo"] < 63.75 < alpha["overall"]["pg_hi"] < 100.0
    assert [charlie["rank"], alpha["rank"], bravo["rank"]] == [1, 2, 3]
    order = [e["name"] for e in selectors.compute_table(ts)["entries"]]
    assert order[:4] == ["Charlie", "Expert humans", "Novice humans", "Alpha"]   # humans where their PG puts them
    assert order.index("Bravo") < order.index("Delta")                           # partial entries last


def test_agents_whose_intervals_overlap_share_a_rank_though_their_figures_differ():
    ts = mini_task_set([T1, T2, T3, T4], slug="overlap-v1")
    for name, figures in (("Gale", (0.9, 0.5, 0.8, 0.3)), ("Hale", (0.8, 0.6, 0.6, 0.3)),
                          ("Kite", (0.1, 0.0, 0.1, 0.0))):
        sub = submission(ts, name)
        for t, p in zip((T1, T2, T3, T4), figures):
            run(sub, t, p, claimed=p)  # honest claims: equal to the replay
    entries = by_name(selectors.compute_table(ts))
    gale, hale, kite = entries["Gale"], entries["Hale"], entries["Kite"]
    assert (gale["overall"]["pg"], hale["overall"]["pg"]) == pytest.approx((62.5, 57.5))  # different estimates
    assert hale["overall"]["pg_hi"] > gale["overall"]["pg_lo"]                  # overlapping intervals
    assert gale["rank"] == hale["rank"] == 1 and kite["rank"] == 3


def test_a_copy_of_another_entrys_runs_is_shown_marked_and_never_ranked(board):
    ts, _ = board
    first = submission(ts, "Copycat")
    copy = submission(ts, "Copycat again", copy_of=first)
    for sub in (first, copy):
        for t in (T1, T2, T3, T4):
            run(sub, t, 0.9)
    entries = by_name(selectors.compute_table(ts))
    assert entries["Copycat"]["ranked"] and entries["Copycat"]["copy_of"] is None
    assert not entries["Copycat again"]["ranked"] and entries["Copycat again"]["rank"] is None
    assert entries["Copycat again"]["copy_of"] == first.pk
    assert selectors.entry_status(entries["Copycat again"]) == f"copy of #{first.pk}"


def test_entries_on_public_seeds_are_on_their_own_board_never_ranked(board):
    ts, _ = board
    sealed = submission(ts, "Sealed one")
    uploaded = submission(ts, "Uploaded one", provenance="uploaded")
    hosted = submission(ts, "Hosted one", provenance="hosted")
    for sub in (sealed, uploaded, hosted):
        for t in (T1, T2, T3, T4):
            run(sub, t, 0.9)
    default = by_name(selectors.compute_table(ts))
    assert default["Sealed one"]["ranked"] and "Uploaded one" not in default and "Hosted one" not in default
    public = by_name(selectors.compute_table(ts, board=selectors.PUBLIC_BOARD))
    assert "Sealed one" not in public
    assert {public["Uploaded one"]["provenance"], public["Hosted one"]["provenance"]} == {"uploaded", "hosted"}
    assert not any(e["ranked"] for e in public.values())
    assert selectors.entry_status(public["Uploaded one"]) == "public seeds (uploaded)"


def test_table_intervals_are_the_same_when_computed_twice(board):
    ts, _ = board
    one = selectors.compute_table(ts)
    two = selectors.compute_table(ts)
    for a, b in zip(one["entries"], two["entries"]):
        assert a["key"] == b["key"] and a["overall"] == b["overall"] and a["rank"] == b["rank"]


def test_a_flagged_run_never_contributes_and_its_submission_is_not_ranked(board):
    ts, subs = board
    delta = by_name(selectors.compute_table(ts))["Delta"]
    assert delta["genre"]["arcade"] == {"sr": 0.0, "pg": 0.0, "runs": 1, "tasks": 1}   # the flagged 1.0 is out
    assert delta["overall"]["pg"] == pytest.approx(37.5)                               # (0 + .5 + .5 + .5) / 4
    assert delta["flagged"] == 1 and delta["partial"] and not delta["ranked"] and delta["rank"] is None
    assert selectors.entry_status(delta) == "partial (flagged runs)"
    # Removing the flagged run changes no figure.
    Run.objects.filter(submission=subs["d"], mismatch=True).delete()
    again = by_name(selectors.compute_table(ts))["Delta"]
    assert again["overall"] == delta["overall"] and again["genre"] == delta["genre"]
    assert again["ranked"]


def test_a_flagged_run_is_listed_in_the_profile_and_the_runs_export_but_not_counted(board):
    ts, subs = board
    profile = selectors.entry_profile(ts, f"s{subs['d'].pk}")
    flagged = Run.objects.get(submission=subs["d"], mismatch=True)
    assert profile["flagged_runs"] == [flagged.pk]
    t1 = next(row for row in profile["tasks"] if row["slug"] == "rally-5")
    assert t1["pg"] == 0.0 and t1["runs"] == 1 and {r["flagged"] for r in t1["run_list"]} == {True, False}
    rows = {r["run_id"]: r for r in selectors.run_rows(ts)}
    assert rows[flagged.pk]["flagged"] and not rows[flagged.pk]["counted"]


def test_partial_submissions_are_shown_but_not_ranked(board):
    ts, _ = board
    entries = by_name(selectors.compute_table(ts))
    echo, foxtrot = entries["Echo"], entries["Foxtrot"]
    assert echo["covered"] == 2 and echo["partial"] and echo["rank"] is None
    assert echo["overall"]["pg"] == 100.0 and echo["genre"]["puzzle"]["pg"] is None
    assert foxtrot["covered"] == 3 and foxtrot["rank"] is None                      # a pending run is not verified
    ranked = sorted(e["name"] for e in entries.values() if e["ranked"])
    assert ranked == ["Alpha", "Bravo", "Charlie"]


def test_the_interface_filter_ranks_within_the_interface(board):
    ts, _ = board
    cua = by_name(selectors.compute_table(ts, interface="cua"))
    assert {"Alpha", "Charlie", "Delta", "Foxtrot"} <= set(cua) and "Bravo" not in cua and "Echo" not in cua
    assert "Novice humans" in cua                                                   # humans stay as reference
    assert cua["Charlie"]["rank"] == 1 and cua["Alpha"]["rank"] == 2
    generalist = by_name(selectors.compute_table(ts, interface="generalist"))
    assert generalist["Bravo"]["rank"] == 1 and set(generalist) == {"Bravo", "Echo", "Novice humans", "Expert humans"}


def test_rejected_submissions_and_unverified_runs_are_left_out(board):
    ts, subs = board
    subs["b"].status = "rejected"
    subs["b"].save()
    entries = by_name(selectors.compute_table(ts))
    assert "Bravo" not in entries
    assert entries["Charlie"]["rank"] == 1 and entries["Alpha"]["rank"] == 2


def test_sorting_puts_missing_figures_last_either_way(board):
    ts, _ = board
    table = selectors.compute_table(ts)
    down = [e["name"] for e in selectors.select_entries(table, sort="1_pg", direction="desc")]
    up = [e["name"] for e in selectors.select_entries(table, sort="1_pg", direction="asc")]
    assert down[0] in ("Charlie", "Echo", "Expert humans") and up[0] in ("Bravo", "Delta")
    hidden = selectors.select_entries(table, humans=False, partial=False)
    assert {e["name"] for e in hidden} == {"Alpha", "Bravo", "Charlie"}


def test_realtime_results_are_a_separate_track_never_mixed_with_paused_ones(client):
    from submissions.models import Submission

    ts = mini_task_set([T1, T2, T3, T4])
    paused = submission(ts, "Steady")
    fast = submission(ts, "Hasty")
    Submission.objects.filter(pk=fast.pk).update(protocol="realtime")
    for t in (T1, T2, T3, T4):
        run(paused, t, 1.0, True)
        run(fast, t, 0.5, False)
    run(None, T1, 0.5, False, player=player("hugo"))  # a person: paused clock only
    names = lambda table: sorted(e["name"] for e in table["entries"])  # noqa: E731
    paused_table = selectors.compute_table(ts)
    realtime_table = selectors.compute_table(ts, protocol="realtime")
    assert "Hasty" not in names(paused_table) and "Steady" in names(paused_table)
    assert names(realtime_table) == ["Hasty"]  # no paused agent, no human reference
    assert len(selectors.runs_table(ts, protocol="realtime")) == 4
    page = client.get(f"/?ts={ts.slug}&track=realtime").content.decode()
    assert "Hasty" in page and "Steady" not in page


def test_the_platform_s_baselines_are_reference_rows_never_ranked(board):
    ts, subs = board
    Submission.objects.filter(pk=subs["c"].pk).update(is_baseline=True)  # Charlie (100 % everywhere): a solver
    entries = by_name(selectors.compute_table(ts))
    charlie = entries["Charlie"]
    assert charlie["reference"] and not charlie["ranked"] and charlie["rank"] is None
    assert selectors.entry_status(charlie) == "reference"
    assert entries["Alpha"]["rank"] == 1 and not entries["Alpha"]["reference"]  # first among the agents
    assert charlie["overall"]["pg"] == 100.0  # still shown, for scale


def random_card(task, cua, generalist):
    """A calibration card whose random runs make the given mean progress (0-1) per interface."""
    def runs(progress):
        return {"results": [{"seed": 1, "action_seed": k, "success": False, "progress": progress, "actions": 100,
                             "attempts": 1, "trace_sha256": "0" * 64} for k in range(30)]}
    return {"task": task.task_id, "game_version": task.game_version, "task_sha256": "", "verdict": "pass",
            "reasons": [], "random": {"cua": runs(cua), "generalist": runs(generalist)},
            "solver": {"results": [{"seed": 1, "success": True, "progress": 1.0, "actions": 20, "attempts": 1,
                                    "trace_sha256": "0" * 64}]}}


def test_pg_above_chance_rescales_each_task_from_its_random_floor_for_the_entry_s_interface(board):
    ts, _ = board
    for task_id, cua, generalist in ((T1, 0.5, 0.9), (T2, 0.2, 0.0), (T3, 0.0, 0.5), (T4, 0.2, 0.0)):
        found = task(task_id)
        found.calibration = random_card(found, cua, generalist)
        found.save()
    entries = by_name(selectors.compute_table(ts))
    # Alpha (cua) per task: PG 75, 20, 100, 60 against floors 50, 20, 0, 20: 50, 0, 100, 50.
    assert entries["Alpha"]["overall"]["pg_above"] == pytest.approx(50.0)
    # Echo (generalist) has T1 at 100 and T2 at 100: 100 whatever the floor.
    assert entries["Echo"]["overall"]["pg_above"] == pytest.approx(100.0)
    # Novice humans press keys: the cua floor. 75, 40, 80, 80 -> 50, 25, 80, 75.
    assert entries["Novice humans"]["overall"]["pg_above"] == pytest.approx(57.5)
    found = task(T4)
    found.calibration = None
    found.save()
    assert by_name(selectors.compute_table(ts))["Alpha"]["overall"]["pg_above"] is None  # a task without a floor
