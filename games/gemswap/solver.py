"""Scripted player for gemswap: reads the board and the level's goal gem from the state and searches the swaps.

Every swap that makes a line is played out on a copy of the board (lines clear, gems fall, again while lines
form; the gems that will drop in are unknown, so the emptied cells stay empty). A swap is worth 10 a goal gem
it clears plus a little for the points, and the best few are searched one swap further: the best next swap on
the board they leave adds 0.6 of its worth. The player never makes a swap that is refused.

    .venv/bin/python games/gemswap/solver.py          # (re)writes the references and nulls
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
N = 8
LETTERS = "RYGBPW"
EMPTY = -1
WIDEN = 8  # first swaps searched one swap further


def parse(rows):
    return [[LETTERS.index(ch) for ch in row] for row in rows]


def matches(b):
    found = set()
    for r in range(N):
        c = 0
        while c < N:
            k, e = b[r][c], c
            while e + 1 < N and b[r][e + 1] == k:
                e += 1
            if k >= 0 and e - c >= 2:
                found.update((r, x) for x in range(c, e + 1))
            c = e + 1
    for c in range(N):
        r = 0
        while r < N:
            k, e = b[r][c], r
            while e + 1 < N and b[e + 1][c] == k:
                e += 1
            if k >= 0 and e - r >= 2:
                found.update((y, c) for y in range(r, e + 1))
            r = e + 1
    return found


def swaps():
    for r in range(N):
        for c in range(N):
            if c < N - 1:
                yield ("right", c, r)
            if r < N - 1:
                yield ("down", c, r)


def swapped(b, move):
    kind, c, r = move
    c2, r2 = (c + 1, r) if kind == "right" else (c, r + 1)
    out = [row[:] for row in b]
    out[r][c], out[r2][c2] = out[r2][c2], out[r][c]
    return out


def valid(b):
    return [m for m in swaps() if matches(swapped(b, m))]


def resolve(b, goal):
    """Clear lines until none is left (emptied cells stay EMPTY); returns (goal gems, points) and changes b."""
    chain = goal_gems = points = 0
    while True:
        found = matches(b)
        if not found:
            return goal_gems, points
        chain += 1
        goal_gems += sum(b[r][c] == goal for r, c in found)
        points += 10 * len(found) * chain
        for r, c in found:
            b[r][c] = None
        for c in range(N):
            col = [b[r][c] for r in range(N) if b[r][c] is not None]
            col = [EMPTY] * (N - len(col)) + col
            for r in range(N):
                b[r][c] = col[r]


def worth(b, move, goal):
    nb = swapped(b, move)
    gems, points = resolve(nb, goal)
    return 10 * gems + points / 30, nb


def best_swap(board, goal, need):
    """The swap to play: the most goal gems now, then the best follow-up (when the goal needs more)."""
    firsts = []
    for move in valid(board):
        value, nb = worth(board, move, goal)
        firsts.append((value, move, nb))
    firsts.sort(key=lambda x: -x[0])
    best = None
    for value, move, nb in firsts[:WIDEN]:
        follow = max((worth(nb, m, goal)[0] for m in valid(nb)), default=0)
        total = value + 0.6 * follow
        if best is None or total > best[0]:
            best = (total, move)
    return best[1]


def action_for(move):
    kind, c, r = move
    return {"type": "semantic", "name": "swap_right" if kind == "right" else "swap_down", "args": {"col": c, "row": r}}


class Player:
    """One swap a call, chosen from the state's board and goal."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        board = parse(state["board"])
        move = best_swap(board, LETTERS.index(state["goal_gem"]), state["goal_need"] - state["goal_got"])
        return action_for(move)


def careless_swap(state):
    """A player who lines up whatever is there but never the goal gem: the valid swap clearing the fewest goal
    gems (the fail trajectory; the level's 16 moves run out before its goal is met)."""
    board, goal = parse(state["board"]), LETTERS.index(state["goal_gem"])
    return min(valid(board), key=lambda m: (worth(board, m, goal)[0], m))


def main():
    if sys.argv[1:] != ["fail"]:
        solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                                 report=lambda s: f"goals_met={s['goals_met']} score={s['score']} level={s['level']}")
    solvers.write_fail_trajectory(MANIFEST, lambda state: action_for(careless_swap(state)))


if __name__ == "__main__":
    main()
