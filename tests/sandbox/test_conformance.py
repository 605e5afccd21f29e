"""One conformance test, run over every registered game: whatever the backend, the same rules hold."""
import io
import random

import pytest
from PIL import Image

from sandbox import BudgetExhausted, make, registry
from sandbox.authoring import REQUIRED_STATE
from sandbox.frames import frame_facts, frame_problems
from sandbox.random_agent import INTERFACES, random_action

GAMES = registry.slugs()


def hardest(game):
    return list(game.tasks.values())[-1]


def test_there_are_games_of_every_genre_and_level():
    games = registry.games()
    assert {g.genre for g in games} >= {"arcade", "platformer", "puzzle", "runner", "simulation"}
    assert {g.level for g in games} == {1, 2, 3, 4, 5}
    assert all(len(g.tasks) == 5 for g in games)


@pytest.mark.parametrize("slug", GAMES)
def test_readiness_action_space_and_invalid_actions(slug):
    game = registry.game(slug)
    task = hardest(game)
    space = game.action_space
    with make(task, observation="state") as env:
        state, info = env.reset(seed=task.seeds[0])
        assert state["actionable"] is True
        missing = [f for f in REQUIRED_STATE + tuple(game.state_fields) if f.split(".")[0] not in state]
        assert not missing, f"getState() lacks {missing}"
        frame = Image.open(io.BytesIO(env.render("jpeg")))
        assert frame.size == (game.viewport["width"], game.viewport["height"])

        before = env.trace[-1]["state"]
        state, info = env.step({"type": "press_key", "key": "F24"})
        assert info["invalid"] and state == before and info["actions_left"] == task.max_actions - 1

        valid = [{"type": "press_key", "key": key} for key in space.keys]
        valid += [{"type": "semantic", "name": name,
                   **({"args": {a: b["min"] for a, b in spec["args"].items()}} if spec.get("args") else {})}
                  for name, spec in space.semantic.items()]
        if space.pointer:
            valid.append({"type": "left_click", "x": space.width // 2, "y": space.height // 2})
        for action in valid:
            if env.done:
                break
            _, info = env.step(action)
            assert not info["invalid"], f"{action} was refused: {info['invalid_reason']}"


@pytest.mark.parametrize("slug", GAMES)
def test_reset_on_fail(slug):
    game = registry.game(slug)
    if game.fail_trajectory is None:
        pytest.skip(f"{slug} cannot be lost within a run's budget (tests.fail is null)")
    task = hardest(game)
    with make(task, observation="state") as env:
        env.reset(seed=game.fail_trajectory.seed)
        resets = []
        for action in game.fail_trajectory.actions:
            _, info = env.step(action)
            resets.append(info["reset"])
            if info["reset"]:
                break
        assert any(resets), "the fail trajectory never lost the game"
        assert info["attempt"] == 2 and not env.done
        assert env.trace[-1]["kind"] == "ready" and env.trace[-1]["attempt"] == 2
        assert env.trace[-1]["state"]["actionable"] is True


@pytest.mark.parametrize("slug", GAMES)
def test_frames_tell_the_truth(slug):
    """The first frame after the readiness gate is drawn, and the frame after a reset-on-fail is the new
    attempt's first frame (the same checks as the calibration gate)."""
    game = registry.game(slug)
    assert frame_problems(hardest(game).id, frame_facts(game)) == []


@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
def test_determinism_rollout_and_budget(slug):
    """The same seed and random actions, twice, in two fresh browser contexts: identical state traces."""
    game = registry.game(slug)
    task = hardest(game)

    def rollout():
        rng = random.Random(f"conformance:{slug}")
        with make(task, observation="state") as env:
            env.reset(seed=task.seeds[0])
            while not env.done:
                env.step(random_action(game.action_space, rng, rng.choice(INTERFACES)))
            if env.actions_left == 0:
                with pytest.raises(BudgetExhausted):
                    env.step({"type": "wait"})
            return env.trace, env.score()

    (trace_a, score_a), (trace_b, score_b) = rollout(), rollout()
    assert score_a.actions <= task.max_actions
    assert len(trace_a) == len(trace_b)
    for a, b in zip(trace_a, trace_b):
        assert a == b
    assert score_a == score_b
