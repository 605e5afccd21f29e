"""Scripted player for skyraider (Sky Raider); writes the reference trajectories into the manifest.

Each step the player simulates the enemy bullets (straight lines at known speeds) for the next steps under
every pair of moves and keeps only the first moves from which some second move stays clear of them. Among
those it fires when a volley from here would meet an enemy (the formation's drift is counted over the
shot's flight), else flies toward a falling power-up it can catch, else lines up under the enemy that is
quickest to reach, keeping low on the screen where bullets take longest to arrive.

    .venv/bin/python games/skyraider/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
ACT = {name: {"type": "semantic", "name": name}
       for name in ("move_left", "move_right", "move_up", "move_down", "fire", "wait")}
MOVES = {"move_left": (-1, 0), "move_right": (1, 0), "move_up": (0, -1), "move_down": (0, 1),
         "fire": (0, 0), "wait": (0, 0)}
SPEED, TICKS = 3, 12
MIN_X, MAX_X, MIN_Y, MAX_Y = 16, 464, 220, 342
BULLET_VY = 2.5
SAFE_X, SAFE_Y = 16, 17          # the hit box (9, 10) with a margin
HOME_Y = 330                     # where the player likes to fly
POWERUP_V = 3.0                  # px per tick a P capsule falls


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def path(x, y, moves):
    """The ship's position after each tick of the given moves (one move a step)."""
    out = []
    for name in moves:
        dx, dy = MOVES[name]
        for _ in range(TICKS):
            x, y = clamp(x + SPEED * dx, MIN_X, MAX_X), clamp(y + SPEED * dy, MIN_Y, MAX_Y)
            out.append((x, y))
    return out


def clearance(state, moves, offset=0):
    """The least margin (px, Chebyshev, after the safety box) between the ship and any bullet along the path;
    negative means a hit."""
    bullets = [(bx, by, vx / 60.0) for bx, by, vx in state["enemy_bullets"]]
    worst = 1e9
    for t, (x, y) in enumerate(path(state["player_x"], state["player_y"], moves), start=1 + offset):
        for bx, by, vx in bullets:
            px, py = bx + vx * t, by + BULLET_VY * t
            worst = min(worst, max(abs(px - x) - SAFE_X, abs(py - y) - SAFE_Y))
    return worst


SHOT_V = 12.0
GUNS = {1: [(0, 0.0)], 2: [(-6, 0.0), (6, 0.0)], 3: [(0, 0.0), (-4, -1.5), (4, 1.5)]}


def meets(state, sx, sy, svx, enemy, slack):
    """Whether a shot at (sx, sy) with sideways speed svx (px/tick) meets the enemy, the formation drifting."""
    ex, ey, _hp, width = enemy
    if sy < ey:
        return False
    t = max(1.0, (sy - ey) / SHOT_V)
    fx = ex + state["formation_vx"] / 60.0 * t
    return abs(sx + svx * t - fx) <= width / 2 + 2 - slack


def live_enemies(state):
    """The enemies that the shots already in flight will not finish off."""
    pending = [0] * len(state["enemies"])
    for sx, sy, svx in state.get("shots", []):
        for i, enemy in enumerate(state["enemies"]):
            if meets(state, sx, sy, svx / 60.0, enemy, 0):
                pending[i] += 1
                break
    return [e for e, p in zip(state["enemies"], pending) if e[2] > p and e[1] > 10]


def shot_hits(state, x, y, enemies):
    """Whether a volley fired now from (x, y) meets one of the enemies."""
    for enemy in enemies:
        for off, svx in GUNS[state["weapon"]]:
            if meets(state, x + off, y - 14, svx, enemy, 3):
                return True
    return False


def target_x(state, enemies):
    """The x to line up at: under the enemy quickest to reach (its drift over a step counted)."""
    vx_f = state["formation_vx"] / 60.0
    x, y = state["player_x"], state["player_y"]
    best, best_cost = None, 1e9
    for ex, ey, _hp, _w in enemies:
        t = TICKS + max(1.0, (y - 14 - ey) / SHOT_V)
        fx = ex + vx_f * t
        toward = 1 if (fx - x) * vx_f < 0 else -1          # the enemy drifts toward the ship
        cost = abs(fx - x) / (SPEED + toward * abs(vx_f)) + 0.02 * ey
        if cost < best_cost:
            best, best_cost = fx, cost
    return best


def policy(state):
    if state.get("status") != "playing":
        return ACT["wait"]
    names = list(MOVES)
    safe = {}
    for first in names:
        margin1 = clearance(state, [first])
        if margin1 < 0:
            continue
        second = max(clearance(state, [first, s]) for s in ("move_left", "move_right", "move_up", "move_down", "wait"))
        if second >= 0:
            safe[first] = min(margin1, second)
    if not safe:  # no clean way out: the move that keeps the most room
        return ACT[max(names, key=lambda n: clearance(state, [n]))]
    x, y = state["player_x"], state["player_y"]
    enemies = live_enemies(state)
    if "fire" in safe and shot_hits(state, x, y, enemies):
        return ACT["fire"]
    # a power-up about to arrive: be under it when it gets to the ship's height
    for px, py in (state.get("powerups", []) if state["weapon"] < 3 else []):
        steps_left = (y - py) / (POWERUP_V * TICKS)
        if 0 <= steps_left <= 3 and abs(px - x) > 12:
            want = "move_right" if px > x else "move_left"
            if want in safe and abs(px - x) <= SPEED * TICKS * (steps_left + 1):
                return ACT[want]
    tx = target_x(state, enemies)
    if tx is not None:
        dx = tx - x
        if abs(dx) > SPEED * TICKS / 2:
            want = "move_right" if dx > 0 else "move_left"
            if want in safe:
                return ACT[want]
    if y < HOME_Y - 18 and "move_down" in safe:
        return ACT["move_down"]
    for name in ("wait", "fire", "move_down", "move_left", "move_right", "move_up"):
        if name in safe:
            return ACT[name]
    return ACT["wait"]


class Player:
    """The scripted player the baselines use: one action a call, read from the state."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return policy(state)


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    main()
