"""Virtual clock vs real time: the same 100-action trajectory replayed three ways, in one run.

The virtual replays are the sandbox's `run_trajectory`, on the paused clock advanced by each action's hold
time: batched (the known actions run ahead in the page, one round trip) and stepwise (one round trip per
step, as interactive play). The real-time replay is what a real-time harness does: the same game page and
seed on a flowing clock, key down, sleep for the hold time, key up. All must end in the same game state.
Like the real-time replay, which opens its page before its clock starts, the virtual ones take a context
from the host's warm pool, made before their clock starts. Each virtual replay is timed REPEATS times and
its median counts (the machine is shared: one sample is noise); the real-time one takes its full length once.

    .venv/bin/python bench/sandbox_speed.py [--game merge2048] [--actions 100]
Last line: ratio=<realtime/batched> stepwise_ratio=<realtime/stepwise> batched_s=.. stepwise_s=.. realtime_s=..
"""
import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import Trajectory, registry, run_trajectory  # noqa: E402
from sandbox.backends.browser import ORIGIN, SEED_SCRIPT, BrowserHost, bundle_router  # noqa: E402

COMPARED = ("score", "board", "max_tile", "moves")
REPEATS = 5


def trajectory(game, count, seed):
    rng = random.Random(seed)
    return [{"type": "press_key", "key": rng.choice(game.action_space.keys)} for _ in range(count)]


def virtual_replay(task, actions, seed, *, run_ahead):
    BrowserHost.for_session().warm()
    started = time.perf_counter()
    _, trace = run_trajectory(task, Trajectory(seed=seed, actions=actions), run_ahead=run_ahead)
    return time.perf_counter() - started, trace[-1]["state"]


def median_replay(task, actions, seed, *, run_ahead):
    """The median time of REPEATS replays, and their final state (the same every time, or an error)."""
    times, states = zip(*(virtual_replay(task, actions, seed, run_ahead=run_ahead) for _ in range(REPEATS)))
    if any(state != states[0] for state in states):
        raise AssertionError(f"{'batched' if run_ahead else 'stepwise'} replays of the same run ended apart")
    return statistics.median(times), states[0]


def realtime_replay(task, actions, seed):
    game = task.game

    async def play(browser):
        context = await browser.new_context(viewport=game.viewport)
        try:
            await context.route("**/*", bundle_router(game.bundle_dir, []))
            await context.add_init_script(SEED_SCRIPT % seed)
            page = await context.new_page()
            started = time.perf_counter()
            await page.goto(f"{ORIGIN}/{game.entry}")
            await page.wait_for_function("() => window.gameAPI && window.gameAPI.getState().actionable")
            for action in actions:
                await page.keyboard.down(action["key"])
                await asyncio.sleep(task.step_ms / 1000)
                await page.keyboard.up(action["key"])
            return time.perf_counter() - started, await page.evaluate("gameAPI.getState()")
        finally:
            await context.close()
    return BrowserHost.shared().call(play)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="merge2048", help="a game whose state depends only on its key presses")
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = registry.game(args.game)
    task = list(game.tasks.values())[-1]
    actions = trajectory(game, min(args.actions, task.max_actions), args.seed)
    # Launch Chromium and open one throwaway run before timing any replay: none pays the first start.
    virtual_replay(task, actions[:1], args.seed + 1, run_ahead=True)
    batched_s, batched_state = median_replay(task, actions, args.seed, run_ahead=True)
    stepwise_s, stepwise_state = median_replay(task, actions, args.seed, run_ahead=False)
    realtime_s, realtime_state = realtime_replay(task, actions, args.seed)
    fields = [f for f in COMPARED if f in batched_state]
    same = all(batched_state[f] == stepwise_state[f] == realtime_state[f] for f in fields)
    print(f"{task.id}: {len(actions)} actions of {task.step_ms} ms; batched {batched_s:.2f} s, "
          f"stepwise {stepwise_s:.2f} s, real time {realtime_s:.2f} s; final state ({', '.join(fields)}) "
          f"{'identical' if same else 'DIFFERS'}")
    print(f"ratio={realtime_s / batched_s:.1f} stepwise_ratio={realtime_s / stepwise_s:.1f} "
          f"batched_s={batched_s:.2f} stepwise_s={stepwise_s:.2f} realtime_s={realtime_s:.2f} "
          f"same_final_state={str(same).lower()}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
