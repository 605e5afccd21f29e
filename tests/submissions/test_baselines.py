"""The committed baseline files are faithful: their runs, replayed as a worker replays them, score what they
claim. One test per game, so that the two pytest workers share the replays out (bin/test).

Each game replays one run of each baseline agent (a different task from game to game, picked by a hash), not
all fifteen: `make_baselines` wrote every claim from a replay, and a site verifies every baseline run again
before it publishes them; what this test guards is a game or task changed after its baselines were made, which
moves the runs of every agent. A task's new version is caught for every run (its id no longer exists)."""
import functools
import hashlib
import json
from pathlib import Path

import pytest

from sandbox import Trajectory, registry, run_trajectory
from submissions.verification import claim_differs

BASELINES = sorted((Path(__file__).resolve().parents[2] / "submissions" / "baselines").glob("*.json"))


@functools.cache
def runs_by_game():
    """{game slug: {agent file: [run, ...]}} over every baseline file, read once per test process."""
    games = {}
    for path in BASELINES:
        for run in json.loads(path.read_text())["runs"]:
            games.setdefault(run["task"].split("/", 1)[0], {}).setdefault(path.stem, []).append(run)
    return games


def sampled(slug, agent, runs):
    return runs[int(hashlib.sha256(f"{slug} {agent}".encode()).hexdigest(), 16) % len(runs)]


@pytest.mark.slow
@pytest.mark.parametrize("slug", registry.slugs())
def test_the_baseline_runs_of_the_game_replay_to_their_claims(slug):
    game = registry.game(slug)
    by_agent = runs_by_game().get(slug, {})
    assert sorted(by_agent) == [path.stem for path in BASELINES], f"{slug}: a baseline agent has no runs"
    for agent, runs in by_agent.items():  # each agent ran each current task once
        assert sorted(run["task"] for run in runs) == sorted(task.id for task in game.tasks.values()), agent
    wrong = []
    for agent, runs in by_agent.items():
        run = sampled(slug, agent, runs)
        score, _ = run_trajectory(registry.task(run["task"]), Trajectory(seed=run["seed"], actions=run["actions"]))
        if claim_differs(claimed_progress=run["claimed"]["progress"], claimed_success=run["claimed"]["success"],
                         score=score):
            wrong.append(f"{agent} {run['task']} seed {run['seed']}: claims {run['claimed']}, "
                         f"replays to progress {score.progress:.3f}, success {score.success}")
    assert not wrong, wrong
