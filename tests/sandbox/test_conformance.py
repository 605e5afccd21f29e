"""One conformance test, run over every registered game: whatever the backend, the same rules hold."""
import io
import random

import pytest
from PIL import Image

from sandbox import RunOver, Trajectory, frames, make, registry, run_trajectory
from sandbox.authoring import REQUIRED_STATE
from sandbox.actions import random_action
from sandbox.protocol import INTERFACES

GAMES = registry.slugs()


def hardest(game):
    return list(game.tasks.values())[-1]


def save_frame(artifacts_dir, name, png):
    """Frames for a person to look at (test-artifacts/frames/, not committed)."""
    folder = artifacts_dir / "frames"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(png)


def test_there_are_games_of_every_genre_and_level():
    games = registry.games()
    assert {g.genre for g in games} >= {"arcade", "platformer", "puzzle", "runner", "simulation"}
    assert {g.level for g in games} == {1, 2, 3, 4, 5}
    assert all(len(g.tasks) == 5 for g in games)


@pytest.mark.parametrize("slug", GAMES)
def test_readiness_first_frame_action_space_and_invalid_actions(slug, artifacts_dir):
    game = registry.game(slug)
    task = hardest(game)
    space = game.action_space
    with make(task, observation="state") as env:
        state, info = env.reset(seed=task.seeds[0])
        assert state["actionable"] is True
        missing = [f for f in REQUIRED_STATE + tuple(game.state_fields) if f.split(".")[0] not in state]
        assert not missing, f"getState() lacks {missing}"
        first = env.render("png")
        save_frame(artifacts_dir, f"{slug}-first.png", first)
        assert Image.open(io.BytesIO(first)).size == (game.viewport["width"], game.viewport["height"])
        assert not frames.is_flat(first), "the first frame after the readiness gate is blank (one flat colour)"

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
    assert game.fail_trajectory is not None, f"{slug} has no fail trajectory (tests.fail): every game can be lost"
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
def test_frame_after_reset_on_fail_is_the_new_attempts_first_frame(slug, artifacts_dir):
    """Lose the game; the frame of the next attempt is, pixel for pixel, the first frame of a fresh reset
    of a new env with that attempt's seed (not the death screen of the attempt that ended)."""
    game = registry.game(slug)
    task = hardest(game)
    result = frames.post_reset_frame(task, game.fail_trajectory.seed)  # every game has one: test_reset_on_fail
    save_frame(artifacts_dir, f"{slug}-after-reset.png", result.frame)
    save_frame(artifacts_dir, f"{slug}-fresh-attempt-{result.attempt}.png", result.fresh)
    assert not frames.is_flat(result.frame), "the frame after reset-on-fail is blank (one flat colour)"
    assert result.matches, (f"attempt {result.attempt} (seed {result.seed}): {result.differing_pixels} pixels "
                            "differ from the first frame of a fresh reset with that seed")


@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("pace", ["paused", "realtime"])
def test_determinism_rollout_and_budget(slug, pace):
    """Seeded random actions of both interfaces (realtime: each with a latency the game clock runs first), played
    step by step to the budget and then replayed run ahead, in two fresh browser contexts: identical traces."""
    game = registry.game(slug)
    task = hardest(game)
    rng = random.Random(f"conformance:{slug}:{pace}")
    actions = []
    with make(task, observation="state") as env:
        env.reset(seed=task.seeds[0])
        while not env.done:
            action = random_action(game.action_space, rng, rng.choice(INTERFACES))
            if pace == "realtime":
                action["latency_ms"] = rng.choice([0, 40, 300, 1500])
            actions.append(action)
            env.step(action)
        if env.actions_left == 0:
            with pytest.raises(RunOver):
                env.step({"type": "wait"})
        stepwise, step_trace = env.score(), env.trace
    ahead, ahead_trace = run_trajectory(task, Trajectory(seed=task.seeds[0], actions=actions))
    assert stepwise.actions <= task.max_actions
    assert len(ahead_trace) == len(step_trace)
    for index, (a, b) in enumerate(zip(step_trace, ahead_trace)):
        assert a == b, f"record {index} differs"
    assert ahead == stepwise
