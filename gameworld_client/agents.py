"""Agents and the loop that runs them over tasks.

An agent has `reset(env)` (a new episode of `env`, a GameWorldEnv) and `act(observation, info, env)`,
which returns one action: a protocol action (JSON dict) or a sample of `env.action_space`. Optionally
`after_step(info)` hears what became of it.

    runs = run_tasks(RandomAgent(seed=0), lambda task: GameWorldEnv(task, interface="cua"),
                     local_task_ids(), seeds="first")
    write_submission("random.json", agent={...}, task_set="core-v2", runs=runs)
"""
import zlib

import numpy as np


class RandomAgent:
    """Uniform over the env's Gym action space (for either interface); seeded, so runs are reproducible."""

    name = "random"

    def __init__(self, seed=0):
        self.seed = seed

    def reset(self, env):
        # One generator per (task, seed): the same run whatever order the tasks are played in.
        key = f"{self.seed}:{env.task['task']}:{env.seed_used}".encode()
        env.action_space.seed(zlib.crc32(key))

    def act(self, observation, info, env):
        return env.action_space.sample()


def run_episode(agent, env, *, seed=None, on_step=None):
    """Play one episode to its end; return the env's run record (task, seed, actions, claimed)."""
    observation, info = env.reset(seed=seed)
    agent.reset(env)
    while not env.done:
        action = agent.act(observation, info, env)
        observation, _reward, _terminated, _truncated, info = env.step(action)
        if hasattr(agent, "after_step"):
            agent.after_step(info)
        if on_step is not None:
            on_step(env, info)
    return env.run_record()


def run_tasks(agent, make_env, tasks, *, seeds="first", on_run=None, on_step=None):
    """Run the agent on every task (an env each, closed after) at its first seed or at all its seeds."""
    runs = []
    for task in tasks:
        env = make_env(task)
        try:
            task_seeds = env.task["seeds"] if seeds == "all" else env.task["seeds"][:1] if seeds == "first" \
                else list(seeds)
            for seed in task_seeds:
                run = run_episode(agent, env, seed=seed, on_step=on_step)
                runs.append(run)
                if on_run is not None:
                    on_run(run, env)
        finally:
            env.close()
    return runs


def local_task_ids(games=None):
    """Every bundled task of this checkout (`game/task@version`), in the sandbox registry's order."""
    from sandbox import registry

    return [task.id for game in registry.games() if games is None or game.slug in games
            for task in game.tasks.values()]


def summary(runs):
    """Mean progress and success rate of finished runs."""
    claimed = [r["claimed"] for r in runs if "claimed" in r]
    if not claimed:
        return {"runs": len(runs), "progress": None, "success_rate": None}
    return {"runs": len(runs), "progress": float(np.mean([c["progress"] for c in claimed])),
            "success_rate": float(np.mean([c["success"] for c in claimed]))}
