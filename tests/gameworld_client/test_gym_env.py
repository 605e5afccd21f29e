"""The Gymnasium env: Gymnasium's own checker on a browser and a Game Boy task, the action spaces of every
bundled game, and the local transport's rules (invalid actions recorded, the reward, realtime latency)."""
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gameworld_client.env  # noqa: F401  (registers gameworld/GameWorld-v0)
from sandbox import registry
from gameworld_client.env import GameWorldEnv
from gameworld_client.spaces import ActionError, action_space, check_action, from_protocol, to_protocol

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("task, interface", [("breakout/rally-5", "generalist"), ("snake/apples-2", "cua")])
def test_check_env_passes_for_a_browser_and_a_game_boy_task(task, interface):
    env = gymnasium.make("gameworld/GameWorld-v0", task=task, interface=interface, render_mode="rgb_array").unwrapped
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # any warning of the checker fails the test
            check_env(env)
        observation, _ = env.reset(seed=1)
        height, width = env.task["action_space"]["viewport"]["height"], env.task["action_space"]["viewport"]["width"]
        assert observation["frame"].shape == (height, width, 3) and observation["frame"].dtype == np.uint8
        assert observation["instruction"] == env.task["instruction"] and observation["actions_left"] == 100
        assert env.render().shape == (height, width, 3)
    finally:
        env.close()


@pytest.mark.parametrize("game", registry.slugs())
def test_every_gym_sample_is_a_valid_protocol_action_and_round_trips(game):
    spec = registry.game(game)
    desc = spec.action_space.describe()
    step_ms = next(iter(spec.tasks.values())).step_ms
    for interface in ("cua", "generalist"):
        space = action_space(desc, interface)
        space.seed(3)
        for _ in range(50):
            action = to_protocol(space.sample(), desc, interface)
            check_action(action, desc, step_ms, interface=interface)
            spec.action_space.resolve(action, step_ms)  # the sandbox agrees
            back = from_protocol(action, desc, interface)
            assert to_protocol(back, desc, interface) == action and space.contains(back)


def test_out_of_range_gym_actions_are_refused_by_the_helper():
    desc = registry.game("minesweeper").action_space.describe()
    with pytest.raises(ActionError, match="x must be from 0 to 287"):
        to_protocol({"type": 2, "key": 0, "x": 288, "y": 0}, desc, "cua")
    assert to_protocol({"name": 0, "args": {"reveal.col": 4, "reveal.row": 8, "flag.col": 0, "flag.row": 0}},
                       desc, "generalist") == {"type": "semantic", "name": "reveal", "args": {"col": 4, "row": 8}}


def test_the_local_env_records_invalid_actions_and_rewards_progress_at_the_end():
    env = GameWorldEnv("breakout/rally-5", interface="cua")
    try:
        _, info = env.reset(seed=1)
        assert info["step"] == 0 and info["state"]["status"]  # the local transport also gives the game's state
        _, reward, terminated, truncated, info = env.step({"type": "press_key", "key": "KeyQ"})
        assert info["invalid"] and "KeyQ" in info["invalid_reason"] and reward == 0.0
        assert info["action"] == {"type": "invalid", "raw": '{"type": "press_key", "key": "KeyQ"}'}
        keys = ["ArrowLeft", "ArrowRight", "Space"]  # the Gym space's key indices
        reference = registry.task("breakout/rally-5@1").reference.actions
        for index, action in enumerate(reference):
            gym_action = ({"type": 1, "key": 0} if action["type"] == "wait"
                          else {"type": 0, "key": keys.index(action["key"])})
            _, reward, terminated, truncated, info = env.step(gym_action)
            assert reward == (1.0 if index == len(reference) - 1 else 0.0)  # progress is rewarded at the end
        assert terminated and not truncated and info["success"]
        assert env.run_record()["actions"][1:] == reference
        with pytest.raises(ValueError, match="realtime"):
            env.reset(seed=1)
            env.step({"type": "wait", "latency_ms": 5})
    finally:
        env.close()


def test_the_package_declares_itself_installable_on_its_own():
    """`pip install ./gameworld_client`: the folder is the package, with three dependencies (a fresh venv
    install is what the README shows; building needs setuptools from the index, so it is not run here)."""
    import tomllib

    project = tomllib.loads((ROOT / "gameworld_client" / "pyproject.toml").read_text())
    names = sorted(dep.split(">")[0].split("=")[0].strip() for dep in project["project"]["dependencies"])
    assert names == ["gymnasium", "numpy", "pillow"]
    assert project["tool"]["setuptools"]["package-dir"] == {"gameworld_client": "."}
    assert project["project"]["scripts"]["gameworld"] == "gameworld_client.__main__:main"
    probe = ("import sys, gameworld_client; from gameworld_client import HostedEvaluation, ChatAgent; "
             "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'evaluator')]")
    result = subprocess.run([sys.executable, "-c", probe], env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin"},
                            cwd="/", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr  # the remote side never imports the platform
