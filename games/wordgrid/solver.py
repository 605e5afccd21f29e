"""Scripted player for Word Grid: reads the game's state and plays a real strategy; `calibrate` and the
baselines run it.

It reads only what a player sees (the current word's submitted `rows` and their `marks`, the letters typed
so far) and never the hidden word. It keeps the answers of the bundle's own word list (words.js) that agree
with every mark so far and guesses the allowed word that splits them best (the smallest expected number of
answers left), or a remaining candidate when two or fewer are left. Letters are typed by clicking the
on-screen keyboard (semantic `press_letter`), guesses submitted with Enter.

    .venv/bin/python games/wordgrid/solver.py            # every task, every seed; writes references
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, manifest_json, solvers  # noqa: E402

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"


def load_words():
    """(answers, allowed) from words.js: the answers list and answers + extra, upper case."""
    text = (HERE / "words.js").read_text()
    lists = {}
    for name in ("answers", "extra"):
        body = re.search(name + r": \((.*?)\)\.split", text, re.S).group(1)
        lists[name] = "".join(re.findall(r'"([^"]*)"', body)).upper().split()
    return lists["answers"], lists["answers"] + lists["extra"]


ANSWERS, ALLOWED = load_words()


def evaluate(guess, answer):
    """The game's marks: 'G' right place, 'Y' elsewhere in the word, '-' not in it (repeats counted)."""
    marks = ["-"] * 5
    left = {}
    for i in range(5):
        if guess[i] == answer[i]:
            marks[i] = "G"
        else:
            left[answer[i]] = left.get(answer[i], 0) + 1
    for i in range(5):
        if marks[i] != "G" and left.get(guess[i], 0) > 0:
            marks[i] = "Y"
            left[guess[i]] -= 1
    return "".join(marks)


def candidates(rows, marks):
    return [w for w in ANSWERS if all(evaluate(r, w) == m for r, m in zip(rows, marks))]


def split_cost(guess, cands):
    """Sum of squared partition sizes: proportional to the expected number of candidates left."""
    parts = {}
    for w in cands:
        key = evaluate(guess, w)
        parts[key] = parts.get(key, 0) + 1
    return sum(n * n for n in parts.values())


OPENER = "ARISE"  # best_guess(ANSWERS), fixed here to save a second per process (checked in main)
_PLANS = {}


def best_guess(cands):
    if len(cands) <= 2:
        return cands[0]
    cand_set = set(cands)
    return min(ALLOWED, key=lambda g: (split_cost(g, cands), g not in cand_set, g))


def plan(rows, marks):
    """The next guess for the current word, from its history alone."""
    key = (tuple(rows), tuple(marks))
    if key not in _PLANS:
        if not rows:
            _PLANS[key] = OPENER
        else:
            cands = candidates(rows, marks)
            if not cands:
                raise RuntimeError(f"no candidate agrees with {rows} {marks}")
            _PLANS[key] = best_guess(cands)
    return _PLANS[key]


def press_letter(ch):
    i = ord(ch) - 65
    return {"type": "semantic", "name": "press_letter", "args": {"col": i % 13, "row": i // 13}}


ENTER = {"type": "press_key", "key": "Enter"}
BACKSPACE = {"type": "press_key", "key": "Backspace"}


def next_action(state, chooser=plan):
    if state["phase"] == "solved":      # the next letter starts the next word
        return press_letter(chooser([], [])[0])
    guess = chooser(state["rows"], state["marks"])
    cur = state["current"]
    if cur == guess:
        return ENTER
    if guess.startswith(cur):
        return press_letter(guess[len(cur)])
    return BACKSPACE


class Player:
    """One action a call, chosen from the state (never from pixels, never from the hidden word)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        return next_action(state)


def losing_plan(rows, marks):
    """For tests.fail: a valid word that the marks so far prove is not the answer (or the opener first)."""
    if not rows:
        return plan([], [])
    cands = set(candidates(rows, marks))
    return next(w for w in ALLOWED if w not in cands and w not in rows)


def fail_trajectory(task_id, seed=1):
    actions = []
    with make(task_id, observation="state") as env:
        state, info = env.reset(seed=seed)
        while not env.done:
            actions.append(next_action(state, losing_plan))
            state, info = env.step(actions[-1])
            if info["reset"]:
                return actions
    raise RuntimeError("the losing player did not lose")


def main():
    """Play every task on each of its seeds; store the first seed's run as its reference, 100 waits as its null."""
    assert best_guess(ANSWERS) == OPENER, "the word list changed: update OPENER"
    solvers.write_references(MANIFEST, Player, only=sys.argv[1:],
                             report=lambda s: f"solved={s['solved']} greens={s['greens']} quick={s['quick_solves']}")
    manifest = json.loads(MANIFEST.read_text())
    fail = fail_trajectory(f"wordgrid/{manifest['tasks'][-1]['slug']}")
    manifest["tests"]["fail"] = {"seed": 1, "actions": fail}
    print(f"tests.fail: the first word lost after {len(fail)} actions")
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
