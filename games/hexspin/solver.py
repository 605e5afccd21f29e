"""Scripted player for hexspin: reads the game's state and plays well; `calibrate` and the baselines run it.

The state lists the six stacks (by hexagon side, innermost block first) and the falling blocks (lane,
colour, px left to fall; nearest the centre first, which is the block Space drops). A block in lane L lands
on side (L - rotation) mod 6. For every turn of the hexagon the player lands the nearest block on a copy of
the stacks, clears groups of 3+ touching same-coloured blocks (and the chains that follow), and looks two
more blocks ahead the same way; it scores blocks cleared, turns spent, stack heights and same-coloured
neighbours kept for later, never lets a stack reach the rim, then turns one step toward the best rotation
or drops (Space) once it faces the right side.

    .venv/bin/python games/hexspin/solver.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import solvers  # noqa: E402

MANIFEST = Path(__file__).resolve().with_name("manifest.json")
LIMIT = 3          # a stack of this many blocks ends the game
W_CLEAR, W_ROT, W_DANGER, DEPTH = 10.0, 1.5, 12.0, 3


def groups(st):
    """Cells (side, layer) in groups of 3+ touching same-coloured blocks."""
    seen = set()
    marked = set()
    for s in range(6):
        for i in range(len(st[s])):
            if (s, i) in seen:
                continue
            color = st[s][i]
            group, todo = [(s, i)], [(s, i)]
            seen.add((s, i))
            while todo:
                cs, ci = todo.pop()
                for ns, ni in ((cs, ci - 1), (cs, ci + 1), ((cs - 1) % 6, ci), ((cs + 1) % 6, ci)):
                    if 0 <= ni < len(st[ns]) and (ns, ni) not in seen and st[ns][ni] == color:
                        seen.add((ns, ni))
                        group.append((ns, ni))
                        todo.append((ns, ni))
            if len(group) >= 3:
                marked.update(group)
    return marked


def land(stacks, side, color):
    st = [list(a) for a in stacks]
    st[side].append(color)
    total = 0
    while True:
        marked = groups(st)
        if not marked:
            break
        total += len(marked)
        st = [[c for i, c in enumerate(a) if (s, i) not in marked] for s, a in enumerate(st)]
    return st, total, any(len(a) >= LIMIT for a in st)


def evaluate(st):
    v = 0.0
    for s in range(6):
        h = len(st[s])
        v -= h * h * 2 + (W_DANGER if h >= LIMIT - 1 else 0)
        t = (s + 1) % 6
        for i in range(h):
            if i + 1 < h and st[s][i + 1] == st[s][i]:
                v += 4
            if i < len(st[t]) and st[t][i] == st[s][i]:
                v += 4
    return v


def turns(a, b):
    d = (b - a) % 6
    return min(d, 6 - d)


def search(stacks, rot, falling, k):
    if k >= len(falling) or k >= DEPTH:
        return evaluate(stacks), None
    best = (-1e9, None)
    lane, color = falling[k][0], falling[k][1]
    for r in range(6):
        st, total, dead = land(stacks, (lane - r) % 6, color)
        if dead:
            continue
        disc = 1.0 if k == 0 else 0.8
        v = disc * (W_CLEAR * total + (6 if total else 0)) - W_ROT * turns(rot, r) + search(st, r, falling, k + 1)[0]
        if v > best[0]:
            best = (v, r)
    if best[1] is None:
        return -1e6 + evaluate(stacks), rot
    return best


class Player:
    """One action a call, chosen from the state (never from pixels)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        falling = state.get("falling") or []
        if state.get("status") == "terminal" or not falling:
            return {"type": "wait"}
        rot = state["rotation"]
        _, target = search(state["stacks"], rot, falling, 0)
        if target is None or target == rot:
            return {"type": "press_key", "key": "Space"}
        return {"type": "press_key", "key": "ArrowRight" if (target - rot) % 6 <= 3 else "ArrowLeft"}


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda state: f"cleared={state['cleared']} best_combo={state['best_combo']} "
                                                  f"score={state['score']} landed={state['blocks_landed']}")


if __name__ == "__main__":
    main()
