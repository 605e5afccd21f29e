"""Agents and the loop that runs them over tasks.

An agent has `reset(env)` (a new episode of `env`, a GameWorldEnv) and `act(observation, info, env)`,
which returns one action: a protocol action (JSON dict) or a sample of `env.action_space`. Optionally
`after_step(info)` hears what became of it.

    runs = run_tasks(RandomAgent(seed=0), lambda task: GameWorldEnv(task, interface="cua"),
                     local_task_ids(), seeds="first")
    write_submission("random.json", agent={...}, task_set="core-v15", runs=runs)
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Union

import numpy as np

if TYPE_CHECKING:
    from .env import GameWorldEnv


class Agent(Protocol):
    """What run_episode drives (`after_step(info)` is optional)."""

    def reset(self, env: GameWorldEnv) -> None: ...

    def act(self, observation: dict[str, Any], info: dict[str, Any], env: GameWorldEnv) -> Any: ...


Seeds = Union[str, Sequence[int]]  # "first", "all" or the seeds themselves
OnStep = Callable[["GameWorldEnv", dict[str, Any]], object]
OnRun = Callable[[dict[str, Any], "GameWorldEnv"], object]


class RandomAgent:
    """Uniform over the env's Gym action space (for either interface); seeded, so runs are reproducible."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.round: int | None = None

    def begin_round(self, index: int, artifact: str) -> None:
        """A round of a rounds evaluation: new draws each round (the artifact means nothing to it)."""
        self.round = index

    def reflect(self, summaries: str, *, notes: str, max_chars: int, round_index: int) -> str:
        return ""  # it learns nothing: it carries nothing

    def reset(self, env: GameWorldEnv) -> None:
        # One generator per (task, seed) (and round): the same run whatever order the tasks are played in.
        played_at = env.seed_used if not env.sealed else f"episode-{env.episode_number}"
        in_round = "" if self.round is None else f":round-{self.round}"
        key = f"{self.seed}:{env.task['task']}:{played_at}{in_round}".encode()
        env.action_space.seed(zlib.crc32(key))

    def act(self, observation: dict[str, Any], info: dict[str, Any], env: GameWorldEnv) -> Any:
        return env.action_space.sample()


def run_episode(agent: Agent, env: GameWorldEnv, *, seed: int | None = None, on_step: OnStep | None = None
                ) -> dict[str, Any]:
    """Play one episode to its end; return the env's run record (task, seed, actions, claimed). In a sealed
    evaluation `seed` is the episode number (the site draws the seed)."""
    observation, info = env.reset(options={"episode_number": seed}) if env.sealed else env.reset(seed=seed)
    agent.reset(env)
    while not env.done:
        action = agent.act(observation, info, env)
        observation, _reward, _terminated, _truncated, info = env.step(action)
        if hasattr(agent, "after_step"):
            agent.after_step(info)
        if on_step is not None:
            on_step(env, info)
    return env.run_record()


def run_tasks(agent: Agent, make_env: Callable[[str], GameWorldEnv], tasks: Iterable[str], *, seeds: Seeds = "first",
              on_run: OnRun | None = None, on_step: OnStep | None = None) -> list[dict[str, Any]]:
    """Run the agent on every task (an env each, closed after) at its first seed or at all its seeds (a sealed
    evaluation's episode numbers stand for its seeds)."""
    runs = []
    for task in tasks:
        env = make_env(task)
        try:
            keys = env.episode_keys()
            task_seeds = keys if seeds == "all" else keys[:1] if seeds == "first" else list(seeds)
            for seed in task_seeds:
                run = run_episode(agent, env, seed=seed, on_step=on_step)
                runs.append(run)
                if on_run is not None:
                    on_run(run, env)
        finally:
            env.close()
    return runs


def local_task_ids(games: Collection[str] | None = None) -> list[str]:
    """Every bundled task of this checkout (`game/task@version`), in the sandbox registry's order."""
    from .env import import_sandbox

    return [task.id for game in import_sandbox().registry.games() if games is None or game.slug in games
            for task in game.tasks.values()]


def summary(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean progress and success rate of finished runs."""
    claimed = [r["claimed"] for r in runs if "claimed" in r]
    if not claimed:
        return {"runs": len(runs), "progress": None, "success_rate": None}
    return {"runs": len(runs), "progress": float(np.mean([c["progress"] for c in claimed])),
            "success_rate": float(np.mean([c["success"] for c in claimed]))}
