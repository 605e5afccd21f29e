"""Scripted player for tiltmaze (Tilt Maze); writes the reference trajectories into the manifest.

The mazes are built from the seed, so it reads the maze being played from the state (`maze_map`) and,
from the state (marble position and speed, keys held), scores
every pair of tilts for the next two steps (nine tilts a step: none, four sides, four diagonals) by
simulating the game's physics tick by tick, followed by a third step without tilt to make sure the
marble's momentum does not carry it into a hole. A sequence is scored by a distance field: breadth-first
tile distance to the target (the gold key while a locked gate is in the way, else the goal cup) around
walls and holes, plus the distance to the nearest tile centre. It takes the first tilt of the best pair.

    .venv/bin/python games/tiltmaze/solver.py
"""
import itertools
import math
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
T, TOP, R = 24, 24, 7
ACC, FRICTION, VMAX, BOUNCE, HOLE_R = 0.25, 0.975, 6, 0.3, 9
TICKS = 15
TILTS = [(ax, ay) for ay in (-1, 0, 1) for ax in (-1, 0, 1)]
SEQS = list(itertools.product(TILTS, repeat=2))
INF = 10 ** 9


FIELDS = {}


def field(rows, gate_open):
    key = (tuple(rows), gate_open)
    if key in FIELDS:
        return FIELDS[key]
    goal_ch = "E"
    has_gate = any("D" in row for row in rows)
    if has_gate and not gate_open:
        goal_ch = "k"
    dist = [[INF] * 20 for _ in range(14)]
    queue = deque()
    for r in range(14):
        for c in range(20):
            if rows[r][c] == goal_ch:
                dist[r][c] = 0
                queue.append((c, r))
    while queue:
        c, r = queue.popleft()
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nc, nr = c + dc, r + dr
            if not (0 <= nc < 20 and 0 <= nr < 14) or dist[nr][nc] < INF:
                continue
            ch = rows[nr][nc]
            if ch in "#O" or (ch == "D" and not gate_open):
                continue
            dist[nr][nc] = dist[r][c] + 1
            queue.append((nc, nr))
    FIELDS[key] = dist
    return dist


def potential(dist, x, y):
    c0, r0 = int(x // T), int((y - TOP) // T)
    best = INF
    for r in range(r0 - 1, r0 + 2):
        for c in range(c0 - 1, c0 + 2):
            if 0 <= r < 14 and 0 <= c < 20 and dist[r][c] < INF:
                best = min(best, dist[r][c] * T + math.hypot(x - (c * T + T / 2), y - (TOP + r * T + T / 2)))
    return best


def simulate(rows, gate_open, x, y, vx, vy, seq, target=None):
    """The marble after the tilts of seq: (x, y, vx, vy, touched the target), or None if it falls."""
    reached = 0                                  # 1 + the step in which the target was touched
    def tile(c, r):
        if r < 0 or r >= 14 or c < 0 or c >= 20:
            return "#"
        return rows[r][c]

    def hit(x, y):
        for r in range(int((y - TOP - R) // T), int((y - TOP + R - 0.01) // T) + 1):
            for c in range(int((x - R) // T), int((x + R - 0.01) // T) + 1):
                ch = tile(c, r)
                if ch == "#" or (ch == "D" and not gate_open):
                    return True
        return False

    for i, (ax, ay) in enumerate(seq):
        for _ in range(TICKS):
            vx = max(-VMAX, min(VMAX, (vx + ax * ACC) * FRICTION))
            vy = max(-VMAX, min(VMAX, (vy + ay * ACC) * FRICTION))
            x += vx
            if hit(x, y):
                x = (x + R) // T * T - R - 0.01 if vx > 0 else ((x - R) // T + 1) * T + R
                vx = -vx * BOUNCE
            y += vy
            if hit(x, y):
                y = TOP + (y - TOP + R) // T * T - R - 0.01 if vy > 0 else TOP + ((y - TOP - R) // T + 1) * T + R
                vy = -vy * BOUNCE
            for r in range(int((y - TOP - R) // T), int((y - TOP + R - 0.01) // T) + 1):
                for c in range(int((x - R) // T), int((x + R - 0.01) // T) + 1):
                    ch = tile(c, r)
                    if ch == target == "k" and not reached:
                        reached = i + 1
                    elif ch == target == "E" and (x - (c * T + T / 2)) ** 2 + (y - (TOP + r * T + T / 2)) ** 2 < 144 and not reached:
                        reached = i + 1
                    if ch == "O":
                        dx, dy = x - (c * T + T / 2), y - (TOP + r * T + T / 2)
                        if dx * dx + dy * dy < (HOLE_R + 3) ** 2:
                            return None
    return x, y, vx, vy, reached


def action_for(tilt):
    ax, ay = tilt
    keys = ([] if not ay else ["ArrowUp" if ay < 0 else "ArrowDown"]) + ([] if not ax else ["ArrowLeft" if ax < 0 else "ArrowRight"])
    if not keys:
        return {"type": "wait"}
    if len(keys) == 1:
        return {"type": "press_key", "key": keys[0]}
    return {"type": "press_keys", "keys": keys}


def choose(state):
    gate_open = state["keys_held"] > 0 or state["gates_opened"] > 0
    rows = state["maze_map"]
    dist = field(rows, gate_open)
    target = "k" if any("D" in row for row in rows) and not gate_open else "E"
    x, y, vx, vy = state["ball_x"], state["ball_y"], state["ball_vx"] / 100, state["ball_vy"] / 100
    best, best_tilt = None, (0, 0)
    for seq in SEQS:
        end = simulate(rows, gate_open, x, y, vx, vy, seq, target)
        if end is None:
            continue
        coast = simulate(rows, gate_open, *end[:4], [(0, 0)])
        if coast is None:
            continue
        score = -100 + 10 * end[4] if end[4] else potential(dist, end[0], end[1])
        if best is None or score < best:
            best, best_tilt = score, seq[0]
    return action_for(best_tilt)


class Player:
    """One action a call, chosen by looking ahead from the state."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        if state.get("changing_maze"):
            return {"type": "wait"}
        return choose(state)


def main():
    """Play every task on its first seed; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, every_seed=False, only=sys.argv[1:])


if __name__ == "__main__":
    main()
