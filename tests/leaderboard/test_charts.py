"""Charts drawn from the board's figures."""
import json

from leaderboard import charts


def test_runs_that_reach_the_target_are_drawn_in_the_last_bin_of_the_progress_histogram():
    figure = json.loads(charts.progress_histogram([{"kind": "agent", "interface": "cua", "progress": 100.0}] * 3
                                                  + [{"kind": "novice", "interface": "human", "progress": 100.0},
                                                     {"kind": "agent", "interface": "cua", "progress": 55.0}]))
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


def _agent(name, pg, date, *, ranked=True, genre_pg=None):
    from datetime import datetime, timezone
    genres = {g: {"pg": (genre_pg or {}).get(g)} for g in ("arcade", "platformer", "puzzle", "runner", "simulation")}
    return {"kind": "agent", "ranked": ranked, "name": name, "model": "", "overall": {"pg": pg},
            "genre": genres, "date": datetime(2026, 11, date, tzinfo=timezone.utc)}


def test_progress_over_time_steps_up_only_when_a_ranked_agent_beats_the_best_so_far():
    entries = [_agent("first", 30.0, 1, genre_pg={"arcade": 40.0}), _agent("worse", 20.0, 2, genre_pg={"arcade": 50.0}),
               _agent("unranked", 90.0, 3, ranked=False, genre_pg={"arcade": 99.0}),
               _agent("better", 45.0, 4, genre_pg={"arcade": 45.0})]
    traces = {t["name"]: t for t in json.loads(charts.progress_over_time(entries))["data"]}
    assert traces["Overall"]["y"] == [30.0, 45.0] and traces["Overall"]["text"] == ["first", "better"]
    assert traces["Arcade"]["y"] == [40.0, 50.0] and [x[:10] for x in traces["Arcade"]["x"]] == ["2026-11-01", "2026-11-02"]
    assert set(traces) == {"Overall", "Arcade"}  # genres nobody has a figure in are not drawn
    assert charts.progress_over_time([_agent("unranked", 90.0, 3, ranked=False)]) is None


def test_a_colour_means_one_thing_on_every_chart():
    """Interfaces, human levels and single agents never share a colour, whichever chart draws them."""
    interface = set(charts.INTERFACE_COLOURS.values())
    human = set(charts.HUMAN_COLOURS.values())
    agents = set(charts.AGENT_COLOURS)
    assert not interface & human and not interface & agents and not human & agents
    assert not set(charts.GAP_COLOURS.values()) & (interface | human | agents)
    assert not set(charts.GENRE_COLOURS.values()) & (interface | human | agents)
    runs = [{"kind": "agent", "interface": "cua", "task_id": 1, "progress": 10.0},
            {"kind": "agent", "interface": "generalist", "task_id": 1, "progress": 50.0},
            {"kind": "novice", "interface": "human", "task_id": 1, "progress": 70.0}]
    for figure in (charts.progress_by_task(runs, [{"task_id": 1, "title": "t"}]), charts.progress_histogram(runs)):
        colours = {t["name"]: t["marker"]["color"] for t in json.loads(figure)["data"]}
        assert colours[next(n for n in colours if n.startswith("Computer-use"))] == charts.INTERFACE_COLOURS["cua"]
        assert colours[next(n for n in colours if n.startswith("Generalist"))] == charts.INTERFACE_COLOURS["generalist"]
        assert colours[next(n for n in colours if n.startswith("novice"))] == charts.HUMAN_COLOURS["novice"]


def test_the_progress_histogram_counts_runs_in_whole_numbers():
    """Its y axis counts runs: ticks are whole numbers from 0 (not 0.2, 0.4, ...), about five up to the
    tallest bar."""
    def y_axis(progress):
        return json.loads(charts.progress_histogram(progress))["layout"]["yaxis"]

    two_runs = [{"kind": "agent", "interface": "cua", "progress": 40.0},
                {"kind": "novice", "interface": "human", "progress": 45.0}]
    assert (y_axis(two_runs)["dtick"], y_axis(two_runs)["tick0"], y_axis(two_runs)["tickformat"]) == (1, 0, "d")
    many = [{"kind": "agent", "interface": "cua", "progress": 12.0}] * 23
    assert y_axis(many)["dtick"] == 5  # 23 runs in the tallest bin: ticks 0, 5, ..., 25
