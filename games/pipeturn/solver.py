"""Scripted player for pipeturn: plans the rotations from the state and turns the tiles in the water's order.

The plan is a search over the pipes joined to the tap: starting from the tap's tile, each tile the network
reaches is given one of its orientations (the wet ones keep theirs: they cannot turn), so that every open end
meets a tile opening back or a drain, every drain is reached and no pipe opens onto the board's edge; among
those networks, the one needing the fewest clicks (branch and bound). Each step the player re-plans and clicks
the tile of the plan that is wrong and nearest the tap along the pipes, so that it stays ahead of the water.

    .venv/bin/python games/pipeturn/solver.py          # (re)writes the references, nulls and tests.fail
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
N = 6
DX, DY = (0, 1, 0, -1), (-1, 0, 1, 0)  # N E S W
SIDES = "NESW"
NODE_CAP = 50000


def rot(m, k):
    for _ in range(k % 4):
        m = ((m << 1) | (m >> 3)) & 15
    return m


def options(m):
    """The distinct openings a tile can take, with the clicks each needs, fewest first."""
    seen = {}
    for k in range(4):
        seen.setdefault(rot(m, k), k)
    return sorted(seen.items(), key=lambda x: x[1])


def read(state):
    masks = {(c, r): int(state["pipes"][r][c], 16) for r in range(N) for c in range(N)}
    wet = {(c, r) for r in range(N) for c in range(N) if state["wet"][r][c] == "1"}
    drains = [((c, r), SIDES.index(side)) for c, r, side in state["drain_ports"]]
    return masks, wet, state["source_row"], drains


def plan(masks, wet, rs, drains):
    """{tile: openings} of the cheapest closed network from the tap reaching every drain, or None."""
    src = (0, rs)
    ports = {(src, 3)} | set(drains)
    best = [None, 10 ** 6]
    nodes = [0]

    def rec(assign, pending, cost):
        nodes[0] += 1
        if cost >= best[1] or nodes[0] > NODE_CAP:
            return
        if not pending:
            if all(c in assign and (assign[c] >> d) & 1 for c, d in drains):
                best[0], best[1] = dict(assign), cost
            return
        c = min(pending)
        rest = pending - {c}
        opts = [(masks[c], 0)] if c in wet else options(masks[c])
        for m, k in opts:
            if c == src and not m & 8:
                continue
            ok, new = True, set()
            for d in range(4):
                x, y = c[0] + DX[d], c[1] + DY[d]
                o = (m >> d) & 1
                if not (0 <= x < N and 0 <= y < N):
                    if o and (c, d) not in ports:
                        ok = False
                        break
                    continue
                n = (x, y)
                if n in assign:
                    if o != (assign[n] >> ((d + 2) % 4)) & 1:
                        ok = False
                        break
                elif o:
                    new.add(n)
            if ok:
                assign[c] = m
                rec(assign, rest | new, cost + k)
                del assign[c]

    rec({}, {src}, 0)
    return best[0]


def next_click(state):
    """The tile to click: of the plan's tiles still wrong, the nearest to the tap along the planned pipes."""
    masks, wet, rs, drains = read(state)
    target = plan(masks, wet, rs, drains)
    if target is None:
        return None
    src = (0, rs)
    dist, queue = {src: 0}, [src]
    for c in queue:
        for d in range(4):
            if (target[c] >> d) & 1:
                n = (c[0] + DX[d], c[1] + DY[d])
                if n in target and n not in dist:
                    dist[n] = dist[c] + 1
                    queue.append(n)
    todo = [c for c in target if masks[c] != target[c]]
    return min(todo, key=lambda c: (dist.get(c, 99), c)) if todo else None


def rotate(cell):
    return {"type": "semantic", "name": "rotate", "args": {"col": cell[0], "row": cell[1]}}


class Player:
    """One click a call, chosen from the state's pipes, water and ports."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        cell = next_click(state)
        return rotate(cell) if cell else {"type": "wait"}


def main():
    if sys.argv[1:] != ["fail"]:
        solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                                 report=lambda s: f"solved={s['puzzles_solved']} turns={s['turns']} score={s['score']}")
    # a player who turns only the tap's tile, round and round, until the water spills
    solvers.write_fail_trajectory(MANIFEST, lambda state: {"type": "semantic", "name": "rotate",
                                                           "args": {"col": 1, "row": state["source_row"]}})


if __name__ == "__main__":
    main()
