"""Scripted player for Coin Cavern (games/platformer).

It reads the game's state at the ready frame, plans with a small model of the game's physics (game.js's tick
ported with the same arithmetic, 15 ticks an action, with the level read from game.js itself), plays the plan through
`sandbox.make` while checking every step against the game's own state, and writes each task's
reference trajectory (and the fail test) into the manifest.

    .venv/bin/python games/platformer/solver.py            # plan, play, verify, write the manifest
"""
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

BUNDLE = ROOT / "games/platformer"
SOURCE = (BUNDLE / "game.js").read_text()
LEVEL = re.findall(r'^\s+"([#\-^~ ]{120})",?$', SOURCE, re.M)
DOOR_NEED = int(re.search(r"var DOOR_NEED = (\d+);", SOURCE).group(1))
assert len(LEVEL) == 20

TILE, PW, PH, RUN, JUMP_V, GRAV, MAX_FALL, JUMP_BUFFER, COYOTE = 16, 10, 14, 2, 6, 0.33, 7, 6, 5
DOOR = (116 * TILE, 6 * TILE, 32, 32)  # as in game.js
ENEMIES = [  # kind, axis, a, b, fixed, w, h, spd  (as enemyDefs() in game.js)
    ("slime", "x", 16 * TILE, 23 * TILE + 2, 18 * TILE - 10, 14, 10, 1),
    ("bat", "y", 7 * TILE, 18 * TILE - 12, 41 * TILE - 7, 14, 10, 2),
    ("slime", "x", 92 * TILE, 103 * TILE + 2, 18 * TILE - 10, 14, 10, 1),
    ("bat", "x", 102 * TILE, 118 * TILE - 14, 10 * TILE + 3, 14, 10, 2),
]
TICKS_PER_STEP = 15  # 250 ms at 60 Hz
REACH = 50  # px: farther than a step's run (15 ticks at RUN) plus a coin's or an enemy's reach
DOOR_X, DOOR_Y, DOOR_W, DOOR_H = DOOR[0] + 6, DOOR[1] + 4, DOOR[2] - 12, DOOR[3] - 4  # the door's hit box

KEYS = {"move_left": (False, -1), "move_right": (False, 1), "jump": (True, 0), "jump_left": (True, -1),
        "jump_right": (True, 1), "wait": (False, 0)}


# game.js's tileAt(c, r) as a grid padded with what it gives off the level: rock left, right and above, air below
PAD = 10
ROWS_BELOW = 30
_PADDED = (["#" * (120 + 2 * PAD)] * PAD
           + ["#" * PAD + row + "#" * PAD for row in LEVEL]
           + ["#" * PAD + " " * 120 + "#" * PAD] * ROWS_BELOW)
HAZARD_ROWS = min(r for r, row in enumerate(LEVEL) if "^" in row or "~" in row)


class Sim:
    """The game's state as tick() in game.js sees it; step() applies one action (15 ticks)."""

    def __init__(self, state):
        self.px, self.py, self.vy = state["player_x"] - PW / 2, state["player_y"] - PH, 0
        self.on_ground, self.coyote, self.jump_buf, self.t = True, COYOTE, 0, state["tick"]
        self.coins = tuple(tuple(k) for k in state["coins"])
        self.score, self.over, self.outcome = state["score"], False, None
        self.best_col = state["best_col"]
        self.phases = []
        for (_, axis, a, b, _, w, h, spd), e in zip(ENEMIES, state["enemies"]):
            pos = e["x"] - w // 2 if axis == "x" else e["y"] - h // 2
            p = pos - a if e["dir"] == 1 else 2 * (b - a) - (pos - a)
            self.phases.append((p - self.t * spd) % (2 * (b - a)))

    def copy(self):
        other = object.__new__(Sim)
        other.__dict__.update(self.__dict__)
        return other

    def step(self, name):
        """One action: 15 ticks of game.js's tick() (the same arithmetic, in the same order), with the coins and
        enemies that one step's reach cannot touch left out of the per-tick checks."""
        jump, direction = KEYS[name]
        if jump:
            self.jump_buf = JUMP_BUFFER
        if self.over:
            return self
        px, py, vy = self.px, self.py, self.vy
        on_ground, coyote, jump_buf, t = self.on_ground, self.coyote, self.jump_buf, self.t
        score, best_col = self.score, self.best_col
        vx = direction * RUN
        grid = _PADDED
        # what a step can reach: at most TICKS_PER_STEP * RUN px either way
        reach_lo, reach_hi = px - REACH, px + REACH
        near_coins = [k for k in self.coins if reach_lo < k[0] < reach_hi]
        near_enemies = [(a, b - a, 2 * (b - a), fixed, axis == "x", w - 4, h - 4, spd, phase)
                        for (kind, axis, a, b, fixed, w, h, spd), phase in zip(ENEMIES, self.phases)
                        if (a if axis == "x" else fixed) - REACH < px < (b if axis == "x" else fixed) + w + REACH]
        taken = []
        over = outcome = None
        for _ in range(TICKS_PER_STEP):
            t += 1
            if jump_buf > 0:
                if on_ground or coyote > 0:
                    vy, on_ground, coyote, jump_buf = -JUMP_V, False, 0, 0
                else:
                    jump_buf -= 1
            px += vx
            r0, r1 = int(py // TILE), int((py + PH - 0.001) // TILE)
            if vx > 0:
                c = int((px + PW - 0.001) // TILE)
                for r in range(r0, r1 + 1):
                    if grid[r + PAD][c + PAD] == "#":
                        px = c * TILE - PW
                        break
            elif vx < 0:
                c = int(px // TILE)
                for r in range(r0, r1 + 1):
                    if grid[r + PAD][c + PAD] == "#":
                        px = (c + 1) * TILE
                        break
            old_bottom = py + PH
            vy = min(vy + GRAV, MAX_FALL)
            py += vy
            c0, c1 = int(px // TILE), int((px + PW - 0.001) // TILE)
            on_ground = False
            if vy > 0:
                r = int((py + PH - 0.001) // TILE)
                row = grid[r + PAD]
                for c in range(c0, c1 + 1):
                    ch = row[c + PAD]
                    if ch == "#" or (ch == "-" and old_bottom <= r * TILE + 0.001):
                        py, vy, on_ground = r * TILE - PH, 0, True
                        break
            elif vy < 0:
                r = int(py // TILE)
                row = grid[r + PAD]
                for c in range(c0, c1 + 1):
                    if row[c + PAD] == "#":
                        py, vy = (r + 1) * TILE, 0
                        break
            coyote = COYOTE if on_ground else max(0, coyote - 1)
            col = int((px + PW / 2) // TILE)
            if col > best_col:
                best_col = col
            if near_coins:
                for k in near_coins:
                    if px < k[0] - 6 + 12 and px + PW > k[0] - 6 and py < k[1] - 6 + 12 and py + PH > k[1] - 6:
                        taken.append(k)
                        score += 1
                if taken:
                    near_coins = [k for k in near_coins if k not in taken]
            if score >= DOOR_NEED and px < DOOR_X + DOOR_W and px + PW > DOOR_X and py < DOOR_Y + DOOR_H and \
                    py + PH > DOOR_Y:
                over, outcome = True, "win"
                break
            r0, r1 = int(py // TILE), int((py + PH - 0.001) // TILE)
            if r1 >= HAZARD_ROWS:
                c0, c1 = int(px // TILE), int((px + PW - 0.001) // TILE)
                hit = False
                for r in range(r0, r1 + 1):
                    row = grid[r + PAD]
                    for c in range(c0, c1 + 1):
                        ch = row[c + PAD]
                        if (ch == "^" and px < c * TILE + 2 + 12 and px + PW > c * TILE + 2 and
                                py < r * TILE + 7 + 9 and py + PH > r * TILE + 7) or \
                                (ch == "~" and px < c * TILE + 16 and px + PW > c * TILE and
                                 py < r * TILE + 5 + 11 and py + PH > r * TILE + 5):
                            hit = True
                            break
                    if hit:
                        break
                if hit:
                    over, outcome = True, "lose"
                    break
            if py > 320:
                over, outcome = True, "lose"
                break
            for a, length, period, fixed, along_x, bw, bh, spd, phase in near_enemies:
                p = (phase + t * spd) % period
                pos = a + p if p <= length else a + period - p
                x, y = (pos, fixed) if along_x else (fixed, pos)
                if px < x + 2 + bw and px + PW > x + 2 and py < y + 2 + bh and py + PH > y + 2:
                    over, outcome = True, "lose"
                    break
            if over:
                break
        self.px, self.py, self.vy = px, py, vy
        self.on_ground, self.coyote, self.jump_buf, self.t = on_ground, coyote, jump_buf, t
        self.score, self.best_col = score, best_col
        if taken:
            self.coins = tuple(k for k in self.coins if k not in taken)
        if over:
            self.over, self.outcome = over, outcome
        return self

    def key(self):
        return (round(self.px), round(self.py), round(self.vy, 2), self.coyote, self.coins)


def plan(start, done, value, width=150, depth=100, need=None):
    """Beam search over action sequences: the shortest plan found whose end state satisfies `done`. `need(sim)`,
    a lower bound on the actions any plan takes from `sim`, ends a search that cannot succeed at once (the same
    answer as searching to `depth` in vain, much sooner)."""
    if need is not None and need(start) > depth:
        raise RuntimeError("no plan can reach the target in time")
    beam = [(start, [])]
    for _ in range(depth):
        seen, nxt = set(), []
        for sim, actions in beam:
            for name in KEYS:
                child = sim.copy().step(name)
                if child.outcome == "lose" or child.key() in seen:
                    continue
                seen.add(child.key())
                if done(child):
                    return actions + [name]
                nxt.append((child, actions + [name]))
        nxt.sort(key=lambda item: -value(item[0]))
        beam = nxt[:width]
    raise RuntimeError("no plan found")


STEP_RUN = RUN * TICKS_PER_STEP  # px: the most an action moves the hero sideways


def steps_to(px, lo, hi):
    """The fewest actions that bring the hero's left edge (an integer, px) strictly between lo and hi."""
    if px <= lo:
        return math.ceil((lo + 1 - px) / STEP_RUN)
    if px >= hi:
        return math.ceil((px - hi + 1) / STEP_RUN)
    return 0


def coins_need(sim, wanted):
    """A lower bound on the actions that collect `wanted` more coins: each coin is taken with the hero's left edge
    strictly within (x - 16, x + 6) of its centre x, so the wanted-th nearest coin must at least be reached."""
    if wanted <= 0:
        return 0
    if wanted > len(sim.coins):
        return math.inf
    return sorted(steps_to(sim.px, x - 6 - PW, x - 6 + 12) for x, _ in sim.coins)[wanted - 1]


def route(sim):
    """How far along the cavern: rightwards, then upwards for the climb to the door in room 4."""
    return sim.px if sim.px < 1650 else sim.px + 4 * (288 - sim.py - PH)


def progress(sim, coins_wanted=99):
    return min(sim.score, coins_wanted) * 160 + route(sim)


def objective(score_field, target):
    """(target reached, value that ranks partial plans, lower bound on the actions to the target) for a task's
    score field and target."""
    if score_field == "score":  # coins: collect every coin on the way, rightwards
        return (lambda s: s.score >= target), progress, (lambda s: coins_need(s, target - s.score))
    if score_field == "best_col":  # travel: the farthest column (the hero's centre, px + PW / 2, in it)
        return ((lambda s: s.best_col >= target), route,
                (lambda s: 0 if s.best_col >= target else steps_to(s.px, target * TILE - PW / 2 - 1, math.inf)))
    if score_field == "reached_exit":  # the door: enough coins, then the climb
        return ((lambda s: s.outcome == "win"), (lambda s: progress(s, DOOR_NEED)),
                (lambda s: max(coins_need(s, DOOR_NEED - s.score), steps_to(s.px, DOOR_X - PW, DOOR_X + DOOR_W))))
    raise ValueError(f"no plan for the score field {score_field!r}")


def semantic(name):
    return {"type": "semantic", "name": name}


def play(task_slug, seed, names):
    """Play the plan through the sandbox; check each step against the model; return the final info."""
    with make(f"platformer/{task_slug}", observation="state") as env:
        state, info = env.reset(seed=seed)
        sim = Sim(state)
        for name in names:
            state, info = env.step(semantic(name))
            sim.step(name)
            got = (state["player_x"], state["player_y"], state["score"])
            want = (round(sim.px + PW / 2), round(sim.py + PH), sim.score)
            assert got == want, f"{task_slug}: the model drifted from the game: {got} != {want}"
            if info["terminated"]:
                break
        return info


def ready_state(task_slug, seed):
    with make(f"platformer/{task_slug}", observation="state") as env:
        state, _ = env.reset(seed=seed)
        return state


class Player:
    """The scripted player the baselines use (one action a call, read from the state): beam search over a model of the physics."""

    def __init__(self, task):
        self.task = task
        self.plan = []

    def act(self, env, state, info):
        if info.get("reset") or not self.plan:  # a new attempt, or the plan ran out: plan again from here
            done, value, need = objective(self.task.score_field, self.task.target)
            try:
                self.plan = plan(Sim(state), done, value, width=60, depth=self.task.max_actions - env.actions_used,
                                 need=need)
            except RuntimeError:
                self.plan = ["wait"]
        return semantic(self.plan.pop(0))


def main():
    manifest_path = BUNDLE / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for task in manifest["tasks"]:
        done, value, need = objective(task["score_field"], task["target"])
        seed = task["reference"]["seed"]
        names = plan(Sim(ready_state(task["slug"], seed)), done, value, need=need)
        info = play(task["slug"], seed, names)
        print(f"{task['slug']}: {len(names)} actions, success={info['success']}")
        assert info["success"]
        task["reference"] = {"seed": seed, "actions": [semantic(n) for n in names]}
    # the fail test: hop onto the rock block, then run off its edge into the first spike pit
    fail = ["move_right"] * 3 + ["jump_right"] + ["move_right"] * 3 + ["wait"]
    with make(f"platformer/{manifest['tasks'][-1]['slug']}", observation="state") as env:
        env.reset(seed=1)
        resets = [env.step(semantic(name))[1]["reset"] for name in fail]
    print(f"fail test: {len(fail)} actions, first attempt lost at action {resets.index(True) + 1}")
    manifest["tests"]["fail"] = {"seed": 1, "actions": [semantic(n) for n in fail]}
    manifest_json.write(manifest_path, manifest)


if __name__ == "__main__":
    main()
