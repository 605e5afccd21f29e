"""A Gymnasium environment for any GameWorld task, on a local or a remote transport.

    import gameworld_client as gw

    env = gw.GameWorldEnv("breakout/rally-10", interface="generalist")        # local: the sandbox in-process
    obs, info = env.reset(seed=1)
    obs["frame"]          # uint8 array, height x width x 3 (RGB), decoded from the frame the sandbox renders
    obs["instruction"]    # the task's instruction, as shown to people
    obs["actions"]        # the allowed actions, as text
    obs["actions_left"]   # the budget left
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    obs, reward, terminated, truncated, info = env.step({"type": "semantic", "name": "launch"})  # or JSON
    env.run_record()      # {"task", "seed", "actions", "claimed"}: one run of a gameworld.submission/1 file

The agent sees frames only. `GameWorldEnv(task, privileged_state=True)` (local transport only) adds the game's
own state to `info["state"]`, for debugging an agent or a game; its run records say `"privileged_state": true`,
which an upload to a site refuses (the benchmark measures agents that see pixels). A hosted env never sends it.

    with gw.HostedEvaluation(site, token, agent={...}) as hosted:              # remote: live on a site
        env = hosted.env("breakout/rally-10@1", interface="generalist")
    with gw.HostedEvaluation(site, token, agent={...}, sealed=True) as hosted: # sealed: the site draws the seeds
        env = hosted.env("breakout/rally-10@1", interface="generalist")
        obs, info = env.reset(options={"episode_number": 1})                   # info["commitment"]: sha256 of the seed

Rules are the sandbox's: one action per step, 100 actions, reset on failure, the best score over attempts.
`terminated` means the target was reached, `truncated` that the budget is spent. The reward is 0 on every
step but the last, where it is the run's progress (0..1): the oracle's figure, the same on both transports.
An action the task's action space refuses costs a step and is recorded as {"type": "invalid", "raw": ...}.

Protocol "realtime": each action carries `latency_ms` (given in the JSON action, else measured as the wall
time from the observation to the `step` call) and the game runs that long with no input before it lands.
"""
from __future__ import annotations

import io
import time
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces as gym_spaces

from .protocol import (LATENCY_FIELD, PAUSED, PROTOCOLS, REALTIME, clamp_latency, invalid_record, split_latency,
                       with_latency)
from .spaces import ActionError, action_space, describe_actions, is_protocol_action, text_space, to_protocol

STATUS_FIELDS = ("step", "actions_left", "attempt", "reset", "invalid", "invalid_reason", "terminated", "truncated")


class SandboxMissing(ImportError):
    """The local transport needs the GameWorld platform's sandbox, which this Python cannot import."""


def import_sandbox() -> ModuleType:
    """The platform's `sandbox` package (a checkout on the path), or SandboxMissing saying what to do."""
    try:
        import sandbox
        import sandbox.rules  # noqa: F401
    except ImportError as exc:
        raise SandboxMissing(
            f"the local transport plays the games in the GameWorld platform's sandbox, which cannot be imported "
            f"here ({exc}): run from a checkout of the platform (`bin/setup` installs its browser and packages), "
            "or play hosted on a site (HostedEvaluation; `gameworld run --hosted`)") from exc
    return sandbox


def decode_frame(data: bytes) -> np.ndarray:
    """JPEG or PNG bytes -> an RGB uint8 array (height, width, 3)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()


def jsonable(value: Any) -> Any:
    """Numpy scalars and arrays to plain JSON values (Gym samples are numpy)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


class LocalTransport:
    """The sandbox in-process (needs a checkout of the platform: `sandbox` importable)."""

    remote = False

    def __init__(self, task: Any, *, protocol: str = PAUSED, privileged_state: bool = False,
                 **session_options: Any):
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol is one of {', '.join(PROTOCOLS)}, got {protocol!r}")
        self.sandbox = import_sandbox()  # imported only when the local transport is used
        self.spec = self.sandbox.registry.task(task) if isinstance(task, str) else task
        self.protocol = protocol
        self.privileged_state = privileged_state
        self.session_options = session_options
        self.env = None

    def describe(self) -> dict[str, Any]:
        task, game = self.spec, self.spec.game
        return {"task": task.id, "title": task.title, "instruction": task.instruction,
                "max_actions": task.max_actions, "step_ms": task.step_ms, "seeds": list(task.seeds),
                "game": {"slug": game.slug, "title": game.title, "backend": game.backend, "genre": game.genre,
                         "level": game.level},
                "action_space": game.action_space.describe()}

    def reset(self, seed: int) -> tuple[bytes, dict[str, Any]]:
        if self.env is None:
            self.env = self.sandbox.make(self.spec, observation="state", **self.session_options)
        _, info = self.env.reset(seed=seed)
        return self.env.render("jpeg"), self._status(info, None)

    def step(self, action: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
        """The sandbox's own rules for what a run records (sandbox.rules), as on the site's agent socket."""
        body, latency = split_latency(action, protocol=self.protocol)
        recorded, reason = self.sandbox.rules.as_run_action(body, self.env.action_space, self.spec.step_ms,
                                                            latency=latency)
        _, info = self.env.step(recorded)
        status = self._status(info, reason)
        status["action"] = recorded
        return self.env.render("jpeg"), status

    def _status(self, info, reason):
        status = {"step": info["actions_used"], "actions_left": info["actions_left"], "attempt": info["attempt"],
                  "reset": info["reset"], "invalid": info["invalid"],
                  "invalid_reason": reason or info["invalid_reason"], "terminated": info["terminated"],
                  "truncated": info["truncated"]}
        status["done"] = status["terminated"] or status["truncated"]
        for name in (LATENCY_FIELD, "landed"):
            if name in info:
                status[name] = info[name]
        if status["done"]:
            score = self.env.score()
            status.update(progress=score.progress, success=score.success, trace_sha256=score.trace_sha256)
        if self.privileged_state:
            status["state"] = info["state"]
        return status

    def score(self) -> Any:
        return self.env.score() if self.env is not None else None

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None


class GameWorldEnv(gym.Env):
    """One GameWorld task as a Gymnasium env. `task` is "game/task[@version]" (local) or comes from the
    transport (remote); `interface` is "cua" (keys and clicks) or "generalist" (semantic actions)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, task: str | None = None, *, interface: str = "cua", transport: Any = None,
                 protocol: str = PAUSED, render_mode: str | None = None, privileged_state: bool = False):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None or 'rgb_array', got {render_mode!r}")
        if transport is None:
            if task is None:
                raise ValueError("give a task id (local transport) or a transport")
            transport = LocalTransport(task, protocol=protocol, privileged_state=privileged_state)
        elif privileged_state:
            raise ValueError("privileged_state is for the local transport only: a hosted env sends frames, never "
                             "the game's state")
        self.transport = transport
        # The game's state is what the oracle reads, not what a pixel agent sees: runs that had it say so.
        self.privileged_state = transport.privileged_state
        self.protocol = transport.protocol
        self.render_mode = render_mode
        self.interface = interface
        self.task = transport.describe()
        self.desc = self.task["action_space"]
        self.instruction = self.task["instruction"]
        self.actions_text = describe_actions(self.desc, interface)
        viewport = self.desc["viewport"]
        self.observation_space = gym_spaces.Dict({
            "frame": gym_spaces.Box(0, 255, (viewport["height"], viewport["width"], 3), np.uint8),
            "instruction": text_space(self.instruction, max_length=max(4096, len(self.instruction))),
            "actions": text_space(self.actions_text, max_length=max(4096, len(self.actions_text))),
            "actions_left": gym_spaces.Discrete(self.task["max_actions"] + 1),
        })
        self.action_space = action_space(self.desc, interface)
        # A sealed evaluation's task has a number of episodes, not seeds: the site draws each seed.
        self.sealed = "episodes" in self.task
        self.seed_used = None
        self.episode_number = None
        self.recorded_actions = []
        self.last_jpeg = None
        self.last_status = None
        self._frame = None
        self._observed_at = None
        self._closed = False

    # Gymnasium API.
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        self.recorded_actions = []
        if self.sealed:  # `seed` only seeds this env's generator: the task's seed is the site's secret
            if options.get("task_seed") is not None:
                raise ValueError("a sealed evaluation draws its seeds on the site: reset(options={'episode_number': "
                                 f"n}}) with n from 1 to {self.task['episodes']}")
            self.episode_number = int(options.get("episode_number") or self._next_episode())
            jpeg, status = self.transport.reset_episode(self.episode_number)
        else:
            task_seed = options.get("task_seed")
            if task_seed is None:
                task_seed = seed if seed is not None else self._next_seed()
            self.seed_used = int(task_seed)
            jpeg, status = self.transport.reset(self.seed_used)
        self.recorded_actions = list(status.pop("actions", None) or [])  # a resumed hosted episode
        return self._observation(jpeg, status), self._info(status)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.last_status is None:
            raise RuntimeError("call reset() before step()")
        protocol_action = self.protocol_action(action)
        if self.protocol == REALTIME and LATENCY_FIELD not in protocol_action:
            waited = (time.perf_counter() - self._observed_at) * 1000 if self._observed_at else 0
            protocol_action = with_latency(protocol_action, clamp_latency(waited))
        jpeg, status = self.transport.step(protocol_action)
        self.recorded_actions.append(status.pop("action", protocol_action))
        done = status["terminated"] or status["truncated"]
        reward = float(status["progress"]) if done else 0.0
        return self._observation(jpeg, status), reward, bool(status["terminated"]), bool(status["truncated"]), \
            self._info(status)

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array" and self._frame is not None:
            return self._frame.copy()
        return None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.transport.close()

    # Helpers.
    def protocol_action(self, action: Any) -> dict[str, Any]:
        """The protocol action JSON a Gym action (or a JSON action) stands for; invalid ones become the
        {"type": "invalid", "raw": ...} record the run will hold."""
        if is_protocol_action(action):
            return jsonable(dict(action))
        try:
            return to_protocol(jsonable(action), self.desc, self.interface)
        except ActionError:
            return invalid_record(jsonable(action))

    def run_record(self) -> dict[str, Any]:
        """This episode as a run of a gameworld.submission/1 file (claimed figures once it is over); a sealed
        episode's record names its number and commitment instead of the seed, revealed on submission."""
        which = {**self._played_at(), "commitment": (self.last_status or {}).get("commitment")} if self.sealed \
            else self._played_at()
        record = {"task": self.task["task"], **which, "actions": list(self.recorded_actions)}
        if self.privileged_state:
            record["privileged_state"] = True
        status = self.last_status or {}
        if "progress" in status:
            record["claimed"] = {"progress": status["progress"], "success": status["success"]}
        return record

    @property
    def done(self) -> bool:
        status = self.last_status or {}
        return bool(status.get("terminated") or status.get("truncated"))

    def _next_seed(self):
        seeds = self.task["seeds"]
        return seeds[int(self.np_random.integers(len(seeds)))]

    def _played_at(self):
        return {"episode_number": self.episode_number} if self.sealed else {"seed": self.seed_used}

    def _next_episode(self):
        return 1 + int(self.np_random.integers(self.task["episodes"]))

    def episode_keys(self) -> list[int]:
        """What a run of this task is played at: its seeds, or a sealed evaluation's episode numbers."""
        return list(range(1, self.task["episodes"] + 1)) if self.sealed else list(self.task["seeds"])

    def _observation(self, jpeg, status):
        self.last_jpeg = jpeg
        self._frame = decode_frame(jpeg)
        self.last_status = status
        self._observed_at = time.perf_counter()
        return {"frame": self._frame.copy(), "instruction": self.instruction, "actions": self.actions_text,
                "actions_left": int(status["actions_left"])}

    def _info(self, status):
        info = {"task": self.task["task"], **self._played_at(), **{k: status.get(k) for k in STATUS_FIELDS},
                "done": bool(status.get("terminated") or status.get("truncated"))}
        for name in ("latency_ms", "landed", "progress", "success", "trace_sha256", "state", "resumed", "episode",
                     "commitment"):
            if name in status:
                info[name] = status[name]
        if self.recorded_actions:
            info["action"] = self.recorded_actions[-1]
        return info


ENV_ID = "gameworld/GameWorld-v0"
if ENV_ID not in gym.registry:  # gymnasium.make("gameworld/GameWorld-v0", task="breakout/rally-10", interface=...)
    gym.register(id=ENV_ID, entry_point="gameworld_client.env:GameWorldEnv")
