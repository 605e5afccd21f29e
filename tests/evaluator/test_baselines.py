"""The committed baseline files are faithful: every run of them, replayed as a worker replays it, scores what it
claims. One test per game, so that the game tests' workers share the replays out (tests/conftest.py)."""
import json
from pathlib import Path

import pytest

from evaluator.verification import claim_differs
from sandbox import Trajectory, registry, run_trajectory

BASELINES = sorted((Path(__file__).resolve().parents[2] / "evaluator" / "baselines").glob("*.json"))


def baseline_runs(slug):
    """(agent file, run) of every baseline run on a task of this game."""
    return [(path.stem, run) for path in BASELINES for run in json.loads(path.read_text())["runs"]
            if run["task"].split("/", 1)[0] == slug]


@pytest.mark.slow
@pytest.mark.parametrize("slug", registry.slugs())
def test_every_baseline_run_of_the_game_replays_to_its_claim(slug):
    runs = baseline_runs(slug)
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
