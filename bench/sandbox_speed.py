"""Virtual clock vs real time: the same 100-action trajectory replayed both ways, in one run.

The virtual replay is the sandbox (`sandbox.make`): the paused clock is advanced by each action's
hold time. The real-time replay is what a real-time harness does: the same game page and seed on a
flowing clock, key down, sleep for the hold time, key up. Both must end in the same game state.

    .venv/bin/python bench/sandbox_speed.py [--game merge2048] [--actions 100]
Last line: ratio=<realtime/virtual> virtual_s=.. realtime_s=..
"""
import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import make, registry  # noqa: E402
from sandbox.backends.browser import (ORIGIN, SEED_SCRIPT, BrowserHost,  # noqa: E402
                                                bundle_router)

COMPARED = ("score", "board", "max_tile", "moves")


def trajectory(game, count, seed):
    rng = random.Random(seed)
    return [{"type": "press_key", "key": rng.choice(game.action_space.keys)} for _ in range(count)]


def virtual_replay(task, actions, seed):
    started = time.perf_counter()
    with make(task, observation="state") as env:
        env.reset(seed=seed)
        for action in actions:
            if env.done:
                break
            state, _ = env.step(action)
    return time.perf_counter() - started, state


def realtime_replay(task, actions, seed):
    game = task.game

    def play(browser):
        context = browser.new_context(viewport=game.viewport)
        try:
            context.route("**/*", bundle_router(game.bundle_dir, []))
            context.add_init_script(SEED_SCRIPT % seed)
            page = context.new_page()
            started = time.perf_counter()
            page.goto(f"{ORIGIN}/{game.entry}")
            page.wait_for_function("() => window.gameAPI && window.gameAPI.getState().actionable")
            for action in actions:
                page.keyboard.down(action["key"])
                time.sleep(task.step_ms / 1000)
                page.keyboard.up(action["key"])
            return time.perf_counter() - started, page.evaluate("gameAPI.getState()")
        finally:
            context.close()
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
    # Launch Chromium and open one throwaway run before timing either replay: neither pays the first start.
    virtual_replay(task, actions[:1], args.seed + 1)
    virtual_s, virtual_state = virtual_replay(task, actions, args.seed)
    realtime_s, realtime_state = realtime_replay(task, actions, args.seed)
    fields = [f for f in COMPARED if f in virtual_state]
    same = all(virtual_state[f] == realtime_state[f] for f in fields)
    print(f"{task.id}: {len(actions)} actions of {task.step_ms} ms; virtual {virtual_s:.2f} s, "
          f"real time {realtime_s:.2f} s; final state ({', '.join(fields)}) "
          f"{'identical' if same else 'DIFFERS'}")
    print(f"ratio={realtime_s / virtual_s:.1f} virtual_s={virtual_s:.2f} realtime_s={realtime_s:.2f} "
          f"same_final_state={str(same).lower()}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
