"""Scripted player for Coin Cavern (games/platformer).

It reads the game's state at the ready frame, plans with a small model of the game's physics (a line-by-
line port of game.js's tick, with the level read from game.js itself), plays the plan through
`sandbox.make` while checking every step against the game's own state, and writes each task's
reference trajectory (and the fail test) into the manifest.

    .venv/bin/python games/platformer/solver.py            # plan, play, verify, write the manifest
"""
import json
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

KEYS = {"move_left": (False, -1), "move_right": (False, 1), "jump": (True, 0), "jump_left": (True, -1),
        "jump_right": (True, 1), "wait": (False, 0)}


def tile(c, r):
    if c < 0 or c >= 120 or r < 0:
        return "#"
    return " " if r >= 20 else LEVEL[r][c]


def overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and ax + aw > bx and ay < by + bh and ay + ah > by


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

    def enemy_boxes(self):
        for (kind, axis, a, b, fixed, w, h, spd), phase in zip(ENEMIES, self.phases):
            length = b - a
            p = (phase + self.t * spd) % (2 * length)
            pos = a + p if p <= length else a + 2 * length - p
            x, y = (pos, fixed) if axis == "x" else (fixed, pos)
            yield kind, x + 2, y + 2, w - 4, h - 4

    def step(self, name):
        jump, direction = KEYS[name]
        if jump:
            self.jump_buf = JUMP_BUFFER
        for _ in range(TICKS_PER_STEP):
            if self.over:
                return self
            self.tick(direction)
        return self

    def tick(self, direction):
        self.t += 1
        vx = direction * RUN
        if self.jump_buf > 0:
            if self.on_ground or self.coyote > 0:
                self.vy, self.on_ground, self.coyote, self.jump_buf = -JUMP_V, False, 0, 0
            else:
                self.jump_buf -= 1
        self.px += vx
        r0, r1 = int(self.py // TILE), int((self.py + PH - 0.001) // TILE)
        if vx > 0:
            c = int((self.px + PW - 0.001) // TILE)
            if any(tile(c, r) == "#" for r in range(r0, r1 + 1)):
                self.px = c * TILE - PW
        elif vx < 0:
            c = int(self.px // TILE)
            if any(tile(c, r) == "#" for r in range(r0, r1 + 1)):
                self.px = (c + 1) * TILE
        old_bottom = self.py + PH
        self.vy = min(self.vy + GRAV, MAX_FALL)
        self.py += self.vy
        c0, c1 = int(self.px // TILE), int((self.px + PW - 0.001) // TILE)
        self.on_ground = False
        if self.vy > 0:
            r = int((self.py + PH - 0.001) // TILE)
            for c in range(c0, c1 + 1):
                ch = tile(c, r)
                if ch == "#" or (ch == "-" and old_bottom <= r * TILE + 0.001):
                    self.py, self.vy, self.on_ground = r * TILE - PH, 0, True
                    break
        elif self.vy < 0:
            r = int(self.py // TILE)
            if any(tile(c, r) == "#" for c in range(c0, c1 + 1)):
                self.py, self.vy = (r + 1) * TILE, 0
        self.coyote = COYOTE if self.on_ground else max(0, self.coyote - 1)
        self.best_col = max(self.best_col, int((self.px + PW / 2) // TILE))
        kept = tuple(k for k in self.coins if not overlap(self.px, self.py, PW, PH, k[0] - 6, k[1] - 6, 12, 12))
        self.score += len(self.coins) - len(kept)
        self.coins = kept
        if self.score >= DOOR_NEED and overlap(self.px, self.py, PW, PH, DOOR[0] + 6, DOOR[1] + 4, 20, 28):
            self.over, self.outcome = True, "win"
            return
        r0, r1 = int(self.py // TILE), int((self.py + PH - 0.001) // TILE)
        c0, c1 = int(self.px // TILE), int((self.px + PW - 0.001) // TILE)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                ch = tile(c, r)
                if (ch == "^" and overlap(self.px, self.py, PW, PH, c * TILE + 2, r * TILE + 7, 12, 9)) or \
                        (ch == "~" and overlap(self.px, self.py, PW, PH, c * TILE, r * TILE + 5, 16, 11)):
                    self.over, self.outcome = True, "lose"
                    return
        if self.py > 320 or any(overlap(self.px, self.py, PW, PH, *box[1:]) for box in self.enemy_boxes()):
            self.over, self.outcome = True, "lose"

    def key(self):
        return (round(self.px), round(self.py), round(self.vy, 2), self.coyote, self.coins)


def plan(start, done, value, width=150, depth=100):
    """Beam search over action sequences: the shortest plan found whose end state satisfies `done`."""
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


def route(sim):
    """How far along the cavern: rightwards, then upwards for the climb to the door in room 4."""
    return sim.px if sim.px < 1650 else sim.px + 4 * (288 - sim.py - PH)


def progress(sim, coins_wanted=99):
    return min(sim.score, coins_wanted) * 160 + route(sim)


TASKS = {  # task slug: (target reached, value that ranks partial plans)
    "seven-coins": (lambda s: s.score >= 7, progress),
    "reach-room-3": (lambda s: s.best_col >= 60, route),
    "reach-room-4": (lambda s: s.best_col >= 90, route),
    "open-the-door": (lambda s: s.score >= DOOR_NEED, progress),
    "escape": (lambda s: s.outcome == "win", lambda s: progress(s, DOOR_NEED)),
}


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
            done, value = TASKS.get(self.task.slug, TASKS["escape"])
            try:
                self.plan = plan(Sim(state), done, value, width=60, depth=100 - env.actions_used)
            except RuntimeError:
                self.plan = ["wait"]
        return semantic(self.plan.pop(0))


def main():
    manifest_path = BUNDLE / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for task in manifest["tasks"]:
        done, value = TASKS[task["slug"]]
        seed = task["reference"]["seed"]
        names = plan(Sim(ready_state(task["slug"], seed)), done, value)
        info = play(task["slug"], seed, names)
        print(f"{task['slug']}: {len(names)} actions, success={info['success']}")
        assert info["success"]
        task["reference"] = {"seed": seed, "actions": [semantic(n) for n in names]}
    # the fail test: hop onto the rock block, then run off its edge into the first spike pit
    fail = ["move_right"] * 3 + ["jump_right"] + ["move_right"] * 3 + ["wait"]
    with make("platformer/escape", observation="state") as env:
        env.reset(seed=1)
        resets = [env.step(semantic(name))[1]["reset"] for name in fail]
    print(f"fail test: {len(fail)} actions, first attempt lost at action {resets.index(True) + 1}")
    manifest["tests"]["fail"] = {"seed": 1, "actions": [semantic(n) for n in fail]}
    manifest_json.write(manifest_path, manifest)


if __name__ == "__main__":
    main()
