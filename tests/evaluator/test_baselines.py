"""The committed baseline files are faithful: every run of them, replayed as a worker replays it, scores what it
claims. One test per game, so that the two pytest workers share the replays out (bin/test)."""
import functools
import json
from pathlib import Path

import pytest

from evaluator.verification import claim_differs
from sandbox import Trajectory, registry, run_trajectory

BASELINES = sorted((Path(__file__).resolve().parents[2] / "evaluator" / "baselines").glob("*.json"))


@functools.cache
def runs_by_game():
    """{game slug: [(agent file, run), ...]} over every baseline file, read once per test process."""
    games = {}
    for path in BASELINES:
        for run in json.loads(path.read_text())["runs"]:
            games.setdefault(run["task"].split("/", 1)[0], []).append((path.stem, run))
    return games


@pytest.mark.slow
@pytest.mark.parametrize("slug", registry.slugs())
def test_every_baseline_run_of_the_game_replays_to_its_claim(slug):
    runs = runs_by_game().get(slug, [])
    assert len(runs) == len(BASELINES) * len(registry.game(slug).tasks)  # each agent ran each task once
    wrong = []
    for agent, run in runs:
        task = registry.task(run["task"])
        score, _ = run_trajectory(task, Trajectory(seed=run["seed"], actions=run["actions"]))
        if claim_differs(claimed_progress=run["claimed"]["progress"], claimed_success=run["claimed"]["success"],
                         score=score):
            wrong.append(f"{agent} {run['task']} seed {run['seed']}: claims {run['claimed']}, "
                         f"replays to progress {score.progress:.3f}, success {score.success}")
    assert not wrong, wrong
