"""Remote env overhead: the same trajectory through the Gym env on the local sandbox and on a site (loopback).

Everything runs in a fresh temporary directory (SQLite database, data dir), set up the project's own way
(migrate, load_games --no-frames --no-validate), so the developer's database is untouched. A Daphne serving the site
(HTTP + the agent WebSocket) is started on a free loopback port on that database, and a user with an API
token is created. The trajectory is a task's reference (default breakout/rally-18@1: 94 actions of a game
in play), taken as Gym-free protocol actions by both envs:

- local: `GameWorldEnv(task)`, the sandbox in this process (a Chromium of its own);
- remote: `HostedEvaluation(site, token).env(task)`, the game in the Daphne process, every step a JSON
  message out, a status and a JPEG frame back, and the action stored in the database as it is applied.

Both decode every frame into the observation array. Each side plays the trajectory once untimed (browser
launch, first page, Daphne's first connection), then `--rounds` timed rounds, alternating sides; only
`step` calls are timed (not reset). A remote round is a new hosted evaluation (a task and seed is played
once per evaluation). The local and remote traces must hash the same. The median round of each side
counts (the machine may be shared: rounds alternate so that both sides see the same load).

    .venv/bin/python bench/remote_env_overhead.py [--task breakout/rally-18@1] [--rounds 3] [--keep]
Last line: ratio=<remote/local> local_steps_per_s=.. remote_steps_per_s=..
"""
import argparse
import statistics
import time
from contextlib import ExitStack

import site_setup  # noqa: E402  (the bench folder is on sys.path when a bench runs)

AGENT = {"name": "overhead-bench", "model": "reference-trajectory", "interface": "cua"}


def set_up():
    """The bench's site, and an API token for the remote env."""
    site_setup.set_up()
    from django.contrib.auth.models import User

    from submissions.models import ApiToken

    user = User.objects.create_user("bench", password="bench-not-used-1")
    return ApiToken.issue(user=user, name="bench")[1]


def play(env, seed, actions):
    """Reset (untimed), then every action (timed); returns (steps, seconds, trace hash)."""
    env.reset(seed=seed)
    steps, info = 0, {}
    started = time.perf_counter()
    for action in actions:
        if env.done:
            break
        *_, info = env.step(action)
        steps += 1
    elapsed = time.perf_counter() - started
    return steps, elapsed, info.get("trace_sha256")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="breakout/rally-18@1", help="a task whose reference is played")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds of each side (default 3)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    args = parser.parse_args()

    with site_setup.temporary_site(keep=args.keep) as tmp, ExitStack() as stack:
        started = time.perf_counter()
        key = set_up()
        site = stack.enter_context(site_setup.serving(tmp))  # stopped before the folder goes
        from gameworld_client import GameWorldEnv, HostedEvaluation
        from sandbox import registry

        task = registry.task(args.task)
        trajectory = task.reference
        print(f"{task.id}: reference of {len(trajectory.actions)} actions at seed {trajectory.seed}; "
              f"site on {site}; set-up {time.perf_counter() - started:.1f} s")

        local = GameWorldEnv(task.id, interface="cua")

        def local_round():
            return play(local, trajectory.seed, trajectory.actions)

        def remote_round():
            with HostedEvaluation(site, key, agent=AGENT, task_set="core-v15") as hosted:
                env = hosted.env(task.id)
                return play(env, trajectory.seed, trajectory.actions)

        warm_local, warm_remote = local_round(), remote_round()
        print(f"warm-up (not timed): local {warm_local[0] / warm_local[1]:.1f} steps/s, "
              f"remote {warm_remote[0] / warm_remote[1]:.1f} steps/s")
        local_rates, remote_rates, hashes = [], [], {warm_local[2], warm_remote[2]}
        for index in range(args.rounds):
            for side, run, rates in (("local", local_round, local_rates), ("remote", remote_round, remote_rates)):
                steps, elapsed, digest = run()
                hashes.add(digest)
                rates.append(steps / elapsed)
                print(f"round {index + 1} {side}: {steps} steps in {elapsed:.2f} s = {steps / elapsed:.1f} steps/s "
                      f"({elapsed / steps * 1000:.1f} ms a step)")
        local.close()
        if len(hashes) != 1 or None in hashes:
            raise SystemExit(f"the local and remote traces differ: {sorted(map(str, hashes))}")
        local_sps, remote_sps = statistics.median(local_rates), statistics.median(remote_rates)
        print(f"same trace on both sides ({hashes.pop()[:16]}); per step the remote env costs "
              f"{(1 / remote_sps - 1 / local_sps) * 1000:+.1f} ms (median rounds); total {time.perf_counter() - started:.0f} s")
        print(f"ratio={remote_sps / local_sps:.3f} local_steps_per_s={local_sps:.1f} remote_steps_per_s={remote_sps:.1f}")


if __name__ == "__main__":
    main()
