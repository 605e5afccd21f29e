"""Scripted player for gemfall (Gem Fall, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox and reads the game's state and the well the ROM keeps at 0xC100 (13 rows of
6 bytes, top row first: 0 empty, 1-4 a gem's kind). For each new column it tries every landing (6 well
columns x 3 orders of its gems), plays out the clearing in a copy of the rules (lines of four or more
across, down or diagonal vanish, the gems above fall, waves repeat), and for each the best landing of the
next column (shown in the panel): it keeps the pair that clears most (for the chain task: a chain first,
and no plain clear that would spend the gems a chain is built from), then the one that leaves most
unfinished lines (two or three of one kind in four cells, the rest empty), and the lowest stack.
Then it cycles the gems to the chosen order (A), moves to the column and drops it (down).

    .venv/bin/python games/gemfall/solver.py      # plays every task on every seed, writes references
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox.solvers import write_references  # noqa: E402

MANIFEST = ROOT / "games/gemfall/manifest.json"
W, H = 6, 13
WELL = 0xC100
WAIT = {"type": "wait"}
KEY = {k: {"type": "press_key", "key": k} for k in ("left", "right", "down", "a")}
LINES = ((1, 0), (0, 1), (1, 1), (-1, 1))
RUN = 4  # gems of one kind in a line that vanish
STEP_COST = 8  # a landing's worth lost per action it takes (cycles, moves, drops)
GROWING = {2: 2, 3: 4}  # an unfinished line's worth, by the gems it holds
GROWING_CHAIN = {2: 1, 3: 4}  # the same when playing for chains: lines to finish, fewer starts


def rotations(gems):
    """The three orders A gives, from the current one: (top, middle, bottom)."""
    a, b, c = gems
    return [(a, b, c), (c, a, b), (b, c, a)]


def find_lines(well):
    marked = set()
    for y in range(H):
        for x in range(W):
            k = well[y][x]
            if not k:
                continue
            for dx, dy in LINES:
                px, py = x - dx, y - dy
                if 0 <= px < W and 0 <= py < H and well[py][px] == k:
                    continue
                run = [(x, y)]
                cx, cy = x + dx, y + dy
                while 0 <= cx < W and cy < H and well[cy][cx] == k:
                    run.append((cx, cy))
                    cx, cy = cx + dx, cy + dy
                if len(run) >= RUN:
                    marked.update(run)
    return marked


def top_of(well, x):
    """Row of the highest gem in column x (H when empty)."""
    for y in range(H):
        if well[y][x]:
            return y
    return H


def drop(well, x, gems):
    """Land a column at x and resolve: (new well, cleared, chain, points) or None if it overflows."""
    bottom = top_of(well, x) - 1
    if bottom < 2:
        return None
    well = [row[:] for row in well]
    for i in range(3):
        well[bottom - 2 + i][x] = gems[i]
    cleared = chain = points = 0
    while True:
        marked = find_lines(well)
        if not marked:
            break
        chain += 1
        cleared += len(marked)
        points += len(marked) * 10 * chain
        for cx in range(W):
            column = [well[y][cx] for y in range(H) if well[y][cx] and (cx, y) not in marked]
            column = [0] * (H - len(column)) + column
            for y in range(H):
                well[y][cx] = column[y]
    return well, cleared, chain, points


def potential(well, growing=GROWING):
    """Unfinished lines: every RUN cells in a line holding two or three gems of one kind and nothing else."""
    total = 0
    for y in range(H):
        for x in range(W):
            for dx, dy in LINES:
                ex, ey = x + dx * (RUN - 1), y + dy * (RUN - 1)
                if not (0 <= ex < W and ey < H):
                    continue
                cells = [well[y + dy * i][x + dx * i] for i in range(RUN)]
                gems = [k for k in cells if k]
                if len(gems) < RUN and len(set(gems)) == 1:
                    total += growing.get(len(gems), 0)
    return total


def board_value(well, growing=GROWING):
    heights = [H - top_of(well, x) for x in range(W)]
    tallest = max(heights)
    return potential(well, growing) * 3 - sum(heights) - (40 * (tallest - 8) if tallest > 8 else 0)


def reachable(well, x_from, x_to, y):
    """Columns passed on the way must have room at the column's rows near the top."""
    step = 1 if x_to > x_from else -1
    for x in range(x_from, x_to + step, step):
        if top_of(well, x) <= max(y, 0) + 1:
            return False
    return True


class Player:
    """Plans each column's landing (two columns ahead, in a copy of the rules) and steers it there."""

    def __init__(self, task):
        self.task = task
        self.chain_task = task.score_field == "chains"
        self.score_task = task.score_field == "score"
        self.growing = GROWING_CHAIN if self.chain_task else GROWING
        self.plan_key = None
        self.plan = None

    def read(self, env):
        raw = env.session.memory(WELL, W * H)
        return [list(raw[y * W:(y + 1) * W]) for y in range(H)]

    def outcome_value(self, cleared, chain, points):
        if self.chain_task:
            return (chain >= 2) * 100000 - cleared * 10 - points
        if self.score_task:
            return points * 100
        return cleared * 1000 + points

    def choose(self, well, gems, nxt, x_now, y_now):
        best, best_plan = None, None
        for x in range(W):
            if not reachable(well, x_now, x, y_now):
                continue
            for turns, order in enumerate(rotations(gems)):
                first = drop(well, x, order)
                if first is None:
                    continue
                w1, c1, ch1, p1 = first
                v1 = self.outcome_value(c1, ch1, p1)
                follow = None
                for x2 in range(W):
                    if not reachable(w1, 2, x2, 0):
                        continue
                    for order2 in set(rotations(nxt)):
                        second = drop(w1, x2, order2)
                        if second is None:
                            continue
                        w2, c2, ch2, p2 = second
                        v2 = self.outcome_value(c2, ch2, p2) * 0.9 + board_value(w2, self.growing)
                        follow = v2 if follow is None else max(follow, v2)
                steps = turns + abs(x - x_now) + max(0, top_of(well, x) - 1 - y_now) / 3
                value = v1 + (follow if follow is not None else -100000) - STEP_COST * steps
                if best is None or value > best:
                    best, best_plan = value, (x, order)
        return best_plan

    def act(self, env, state, info):
        if state["phase"] != "falling" or state["mode"] != 2:
            return WAIT
        gems = (state["piece_top"], state["piece_middle"], state["piece_bottom"])
        key = (info.get("attempt"), state["pieces"])
        if key != self.plan_key:
            nxt = (state["next_top"], state["next_middle"], state["next_bottom"])
            self.plan_key = key
            self.plan = self.choose(self.read(env), gems, nxt, state["piece_x"], state["piece_y"])
        if self.plan is None:
            return KEY["down"]
        x, order = self.plan
        if gems != order:
            return KEY["a"]
        if state["piece_x"] < x:
            return KEY["right"]
        if state["piece_x"] > x:
            return KEY["left"]
        return KEY["down"]


def report(state):
    return (f"score={state['score']} cleared={state['gems_cleared']} chain={state['best_chain']} "
            f"pieces={state['pieces']}")


def fail_trajectory():
    """The game's fail trajectory: drops straight down the middle until the well overflows."""
    from sandbox import make, manifest_json
    import json

    manifest = json.loads(MANIFEST.read_text())
    actions = []
    with make(f"gemfall/{manifest['tasks'][0]['slug']}", observation="state") as env:
        env.reset(seed=1)
        while len(actions) < 100:
            actions.append(KEY["down"])
            state, info = env.step(actions[-1])
            if info["reset"] or state["terminal"]["is_terminal"]:
                break
    manifest["tests"]["fail"] = {"seed": 1, "actions": actions}
    manifest_json.write(MANIFEST, manifest)
    print(f"fail trajectory: {len(actions)} drops")


if __name__ == "__main__":
    write_references(MANIFEST, Player, report=report)
    fail_trajectory()
