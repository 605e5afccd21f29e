"""The Gymnasium env: Gymnasium's own checker on a browser and a Game Boy task, the action spaces of every
bundled game, and the local transport's rules (invalid actions recorded, the reward, realtime latency)."""
import re
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


@pytest.mark.parametrize("task, interface", [("breakout/rally-5", "generalist"), ("snake/apples-3", "cua")])
def test_check_env_passes_for_a_browser_and_a_game_boy_task(task, interface):
    env = gymnasium.make("gameworld/GameWorld-v0", task=task, interface=interface, render_mode="rgb_array").unwrapped
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # any warning of the checker fails the test
            check_env(env)
        observation, _ = env.reset(seed=1)
        height, width = env.task["action_space"]["viewport"]["height"], env.task["action_space"]["viewport"]["width"]
        assert observation["frame"].shape == (height, width, 3) and observation["frame"].dtype == np.uint8
        assert observation["instruction"] == env.task["instruction"]
        assert observation["actions_left"] == env.task["max_actions"] == {"breakout/rally-5": 50, "snake/apples-3": 100}[task]
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
        assert info["step"] == 0 and "state" not in info  # frames only, unless the developer asks for the state
        _, reward, terminated, truncated, info = env.step({"type": "press_key", "key": "KeyQ"})
        assert info["invalid"] and "KeyQ" in info["invalid_reason"] and reward == 0.0
        assert info["action"] == {"type": "invalid", "raw": '{"type": "press_key", "key": "KeyQ"}'}
        keys = ["ArrowLeft", "ArrowRight", "Space"]  # the Gym space's key indices
        reference = registry.task("breakout/rally-5@2").reference.actions
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


def test_the_game_state_is_given_only_when_asked_for_and_the_run_record_says_so():
    env = GameWorldEnv("breakout/rally-5", interface="cua", privileged_state=True)
    try:
        _, info = env.reset(seed=1)
        assert info["state"]["status"]
        _, _, _, _, info = env.step({"type": "wait"})
        assert "state" in info and env.run_record()["privileged_state"] is True
    finally:
        env.close()
    plain = GameWorldEnv("breakout/rally-5", interface="cua")
    try:
        plain.reset(seed=1)
        _, _, _, _, info = plain.step({"type": "wait"})
        assert "state" not in info and "privileged_state" not in plain.run_record()
    finally:
        plain.close()


def test_a_hosted_env_never_offers_the_game_state():
    from gameworld_client.hosted import RemoteTransport

    with pytest.raises(ValueError, match="privileged_state is for the local transport only"):
        GameWorldEnv(transport=object(), privileged_state=True)
    assert RemoteTransport.privileged_state is False


def test_the_package_declares_its_dependencies_and_says_when_the_sandbox_is_missing(tmp_path):
    """The client installs on its own (its dependencies declared and pinned here); without a checkout of the
    platform the local env and `gameworld run` say what to do instead of failing on an import."""
    import tomllib

    project = tomllib.loads((ROOT / "gameworld_client" / "pyproject.toml").read_text())
    names = sorted(re.split(r"[<>=!~ ]", dep)[0] for dep in project["project"]["dependencies"])
    assert names == ["gymnasium", "httpx", "numpy", "openai", "pillow", "tqdm", "websockets"]
    pinned = {line.split("==")[0].lower() for line in (ROOT / "requirements.txt").read_text().splitlines()}
    assert set(names) <= pinned
    assert project["project"]["scripts"]["gameworld"] == "gameworld_client.__main__:main"

    (tmp_path / "gameworld_client").symlink_to(ROOT / "gameworld_client")  # the package alone on the path
    probe = ("import sys, gameworld_client\n"
             "from gameworld_client import GameWorldEnv, HostedEvaluation, ChatAgent, SandboxMissing\n"
             "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'catalogue', 'submissions', 'hosted', 'sandbox')]\n"
             "try:\n    GameWorldEnv('breakout/rally-5')\nexcept SandboxMissing as exc:\n    print(exc)\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin"}
    result = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("the local transport plays the games in the GameWorld platform's sandbox, "
                                    "which cannot be imported here (No module named 'sandbox')")
    command = subprocess.run([sys.executable, "-m", "gameworld_client", "run", "--agent", "random"], env=env,
                             cwd=tmp_path, capture_output=True, text=True)
    assert command.returncode == 2 and "or play hosted on a site" in command.stdout, command.stdout + command.stderr


def test_a_pointer_only_game_offers_no_key_actions():
    from gameworld_client.chat import tools_for
    from gameworld_client.spaces import describe_actions

    desc = registry.game("slicer").action_space.describe()
    assert desc["keys"] == [] and desc["pointer"]
    assert [t["function"]["name"] for t in tools_for(desc, "cua")] == ["left_click", "mouse_move", "drag", "wait"]
    assert "press_key" not in describe_actions(desc, "cua") and "drag(x, y, to_x, to_y)" in describe_actions(desc, "cua")
