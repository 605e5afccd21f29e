"""Scripted player for Corner Market (`shop`): plays each task through the sandbox, reading the game's state
every step, and writes the reference trajectories into the manifest.

Policy (greedy, re-planned every step):
  1. a customer stands at the till and the shopkeeper is next to it: serve;
  2. carrying goods that a shelf has room for: take them there, unless a queued customer is about to give up;
  3. a shopper wants a good that its shelf lacks (or will lack): fetch it from the crate;
  4. someone queues: go to the till;
  5. otherwise top up the emptiest shelf, or wait by the till.

Run: .venv/bin/python games/shop/solver.py [task-slug ...]
"""
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = ROOT / "games" / "shop" / "manifest.json"
MAP = ["############",
       "C..........#",
       "#..S..S..S.#",
       "C..........#",
       "#..........#",
       "C......T...#",
       "#..........D",
       "############"]
TILL, TILL_SPOT = (7, 5), (7, 6)
SHELF_CAP = 5
MOVES = {(0, -1): "ArrowUp", (0, 1): "ArrowDown", (-1, 0): "ArrowLeft", (1, 0): "ArrowRight"}
KEY = lambda k: {"type": "press_key", "key": k}  # noqa: E731
WAIT = {"type": "wait"}


def floor(x, y):
    return 0 <= y < len(MAP) and 0 <= x < len(MAP[0]) and MAP[y][x] == "."


def next_to(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def route(start, target):
    """(steps, first move key) from start to the nearest floor tile next to target."""
    goals = {(target[0] + dx, target[1] + dy) for dx, dy in MOVES}
    seen, todo = {start: (0, None)}, deque([start])
    while todo:
        here = todo.popleft()
        dist, first = seen[here]
        if here in goals:
            return dist, first
        for (dx, dy), key in MOVES.items():
            nxt = (here[0] + dx, here[1] + dy)
            if floor(*nxt) and nxt not in seen:
                seen[nxt] = (dist + 1, first or key)
                todo.append(nxt)
    return 99, None


def layout(s):
    """This game's crates and shelves, {kind: (x, y)} each: the seed decides which good is where."""
    return ({k: tuple(xy) for k, xy in s["crates"].items()}, {k: tuple(xy) for k, xy in s["shelves"].items()})


def go_or_use(me, target):
    return KEY("Space") if next_to(me, target) else KEY(route(me, target)[1])


class Shopkeeper:
    """Keeps one goal ("till", ("fetch", kind) or ("stock", kind)) until it is done or something is urgent."""

    def __init__(self):
        self.goal = None

    def decide(self, s):
        me = (s["player_x"], s["player_y"])
        crate, shelf = layout(s)
        shoppers = [c for c in s["customers"] if c["stage"] in ("to_shelf", "browsing", "waiting")]
        queue = [c for c in s["customers"] if c["stage"] == "queue"]
        front = any((c["x"], c["y"]) == TILL_SPOT for c in queue)
        stock, carrying = s["stock"], s["carrying"]
        want = {k: sum(c["wants"] == k for c in shoppers) for k in shelf}
        short = {k: want[k] - stock[k] for k in shelf}
        # the least patient queued customer, in steps of 15 ticks
        hurry = min((c["patience"] // 15 for c in queue), default=99)
        till_dist = route(me, TILL)[0]

        if front and next_to(me, TILL):
            return KEY("Space")
        if self.goal != "till" and queue and hurry <= till_dist + 2:
            self.goal = "till"                      # someone is about to give up: go and serve
        if self.goal == ("fetch", carrying) or (self.goal and self.goal[0] == "stock" and stock[self.goal[1]] >= SHELF_CAP):
            self.goal = None                        # fetched, or the shelf is full
        if self.goal and self.goal[0] == "stock" and carrying != self.goal[1]:
            self.goal = None                        # stocked
        if self.goal == "till" and next_to(me, TILL) and not front:
            self.goal = None                        # nobody to serve right now: think again
        if self.goal is None:
            self.goal = self.choose(me, crate, shelf, queue, stock, carrying, want, short, hurry)
        if self.goal == "wait":
            self.goal = None
            return WAIT
        if self.goal == "till":
            return KEY("Space") if next_to(me, TILL) else KEY(route(me, TILL)[1])
        kind = self.goal[1]
        return go_or_use(me, crate[kind] if self.goal[0] == "fetch" else shelf[kind])

    @staticmethod
    def choose(me, crate, shelf, queue, stock, carrying, want, short, hurry):
        if carrying != "none" and stock[carrying] < SHELF_CAP:
            return ("stock", carrying)
        urgent = [k for k in shelf if short[k] > 0]
        if urgent:
            kind = max(urgent, key=lambda k: (short[k], -route(me, crate[k])[0]))
            trip = route(me, crate[kind])[0] + route(crate[kind], shelf[kind])[0] + route(shelf[kind], TILL)[0] + 2
            if not queue or hurry > trip:
                return ("fetch", kind)
        if queue:
            return "till"
        low = min(shelf, key=lambda k: (stock[k] - want[k], k))
        if stock[low] - want[low] <= 2:
            return ("stock", low) if carrying == low else ("fetch", low)
        return "till" if not next_to(me, TILL) else "wait"


class Restocker:
    """For the restock tasks: fetch the good whose shelf has the most room, put it on its shelf, again."""

    def decide(self, s):
        me, stock, carrying = (s["player_x"], s["player_y"]), s["stock"], s["carrying"]
        crate, shelf = layout(s)
        if carrying != "none" and stock[carrying] < SHELF_CAP:
            return go_or_use(me, shelf[carrying])
        kind = min((k for k in shelf if k != carrying), key=lambda k: (stock[k], route(me, crate[k])[0]))
        return go_or_use(me, crate[kind])


def keeper_for(task_slug):
    return Restocker() if task_slug.startswith("restock") else Shopkeeper()


class Player:
    """The scripted player the baselines use (one action a call, read from the state): a shopkeeper's rules
    (for a restock task, a restocker's)."""

    def __init__(self, task):
        self.task = task
        self.keeper = keeper_for(getattr(task, "slug", ""))

    def act(self, env, state, info):
        return self.keeper.decide(state)


def main():
    """Play every task on each of its seeds within its budget; store the first seed's run as its reference and
    `max_actions` waits as its null."""
    solvers.write_references(MANIFEST, Player, only=[a for a in sys.argv[1:] if not a.startswith("-")],
                             report=lambda s: f"score={s['score']} served={s['customers_served']} "
                                              f"restocks={s['restocks']} unhappy={s['unhappy']}")


if __name__ == "__main__":
    main()
