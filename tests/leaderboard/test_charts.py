"""Charts drawn from the board's figures."""
import json

from leaderboard import charts


def test_runs_that_reach_the_target_are_drawn_in_the_last_bin_of_the_progress_histogram():
    figure = json.loads(charts.progress_histogram([{"kind": "agent", "progress": 100.0}] * 3
                                                  + [{"kind": "novice", "progress": 100.0},
                                                     {"kind": "agent", "progress": 55.0}]))
    agents, novices = figure["data"]
    start, end, size = (agents["xbins"][k] for k in ("start", "end", "size"))
    assert figure["layout"]["xaxis"]["range"] == [0, 100] and end == 100
    in_bins = [x for x in agents["x"] + novices["x"] if start <= x < end]
    assert len(in_bins) == 5  # none falls past the last bin, outside the drawn axis
    assert sum(90 <= x < 100 for x in agents["x"]) == 3 and size == 10


def test_the_platform_s_baselines_are_not_drawn_as_the_best_agents():
    solver = {"kind": "agent", "reference": True, "ranked": False, "overall": {"pg": 100.0}, "name": "solver"}
    agent = {"kind": "agent", "reference": False, "ranked": False, "overall": {"pg": 20.0}, "name": "model"}
    assert charts.chart_entries([solver, agent]) == [agent]


def test_the_gap_to_novices_compares_on_the_tasks_both_played():
    novice = {"kind": "human", "human_kind": "novice", "name": "Novice humans", "covered": 1, "tasks_total": 2,
              "overall": {"pg": 40.0}, "task_pg": {1: 40.0}}
    agent = {"kind": "agent", "ranked": True, "name": "model", "model": "m", "submission_id": 1,
             "overall": {"pg": 40.0}, "task_pg": {1: 80.0, 2: 0.0}}  # overall equal to the novices', yet
    figure = json.loads(charts.gap_to_novice([agent, novice]))
    bar = figure["data"][0]
    assert bar["x"] == [40.0] and bar["customdata"] == [1]  # 40 points ahead on the one task both played
    assert "novices cover 1 of 2 tasks" in figure["layout"]["title"]["text"]
    stranger = {**agent, "task_pg": {2: 90.0}}  # no task in common: nothing to compare
    assert charts.gap_to_novice([stranger, novice]) is None
