"""Scripted player for snake (Pocket Snake, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox and reads the game's state, plus the RAM the ROM keeps for tools (the body ring
at 0xC100/0xC200 and its head index at 0xC40F) and two of its globals (the pending turn and the frame
counter of the next move: see `NEXT_DIR`). With them it knows the game exactly: `Snake` is snake.c's logic in
Python, frame by frame (a step is 19 frames, the key held for the first 5; the snake moves a cell every
`speed` frames; a turn takes effect at the next move), so a turn can only happen at the first move of a step.

Each step it searches the sequences of actions (wait, or a turn to either side), shortest first, for those
that reach the apple, and plays the first action of the one that leaves the snake safest once it has eaten
(it can go on for several steps, in room enough for its body, near the middle of the field where the next
apple is nearest on average); when no sequence within reach eats, the action that keeps it safe and brings
it nearest to the apple (breadth-first over free cells). Where the next apple lands is not known until it
does (the game draws it then). One game on seed 1 gives every task's reference: the actions up to the step
where its target is reached.

    .venv/bin/python games/snake/solver.py            # references, nulls, the fail trajectory, the banner
    .venv/bin/python games/snake/solver.py --banner   # only the GAME OVER reference capture
"""
import io
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make, registry  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/snake/manifest.json"
W, H = 18, 15
BODY_X, BODY_Y, HEAD = 0xC100, 0xC200, 0xC40F
NEXT_DIR = 0xC57C          # snake.c's next_dir, then move_timer (the linker's map of the pinned ROM)
PRESS, FRAMES = 5, 19      # a step: the key held for 5 frames, 19 frames in all (press_frames + release_frames)
DX, DY = (1, 0, -1, 0), (0, 1, 0, -1)
NAMES = ("right", "down", "left", "up")
DIRS = {name: i for i, name in enumerate(NAMES)}
WAIT = {"type": "wait"}
TURNS = {name: {"type": "press_key", "key": name} for name in NAMES}
STEP_MS = 318
HORIZON = 9                # steps searched for a way to the apple
SAFE_STEPS = 5             # steps the snake must be able to go on after eating


class Snake:
    """snake.c's play loop: `step(key)` is one action of 19 frames."""
    __slots__ = ("body", "occ", "dir", "next_dir", "timer", "speed", "apple", "score", "dead", "ate")

    def copy(self):
        other = Snake.__new__(Snake)
        other.body, other.occ = list(self.body), set(self.occ)
        other.dir, other.next_dir, other.timer, other.speed = self.dir, self.next_dir, self.timer, self.speed
        other.apple, other.score, other.dead, other.ate = self.apple, self.score, self.dead, self.ate
        return other

    @classmethod
    def read(cls, session, state):
        """The game now: its state and RAM."""
        s = cls.__new__(cls)
        head = session.memory(HEAD)[0]
        xs, ys = session.memory(BODY_X, 256), session.memory(BODY_Y, 256)
        s.body = [(xs[(head - i) & 255], ys[(head - i) & 255]) for i in range(state["length"] - 1, -1, -1)]
        s.occ = set(s.body)
        s.next_dir, s.timer = session.memory(NEXT_DIR, 2)
        s.dir, s.speed = DIRS[state["direction"]], state["speed"]
        if s.next_dir > 3 or s.timer >= s.speed:     # not the globals of this ROM's build: a guess
            s.next_dir, s.timer = s.dir, 0
        s.apple, s.score = (state["apple_x"], state["apple_y"]), state["score"]
        s.dead, s.ate = False, 0
        return s

    @property
    def head(self):
        return self.body[-1]

    def move(self):
        d = self.next_dir
        x, y = self.body[-1]
        nx, ny = x + DX[d], y + DY[d]
        self.dir = d
        if not (0 <= nx < W and 0 <= ny < H):
            self.dead = True
            return
        grow = (nx, ny) == self.apple
        if not grow:
            self.occ.discard(self.body.pop(0))
        if (nx, ny) in self.occ:
            self.dead = True
            return
        self.body.append((nx, ny))
        self.occ.add((nx, ny))
        if grow:
            self.score += 1
            self.ate += 1
            if self.speed > 5 and self.score % 3 == 0:
                self.speed -= 1
            self.apple = None            # the game draws the next one: unknown here

    def step(self, key):
        """One action: `key` a direction (0-3) or None. After an apple the game may lose a frame or two
        drawing the next one: the model's timing is then a guess, and the player reads the game again."""
        for f in range(FRAMES):
            if key is not None and f < PRESS and key != (self.dir + 2) % 4:
                self.next_dir = key
            self.timer += 1
            if self.timer >= self.speed:
                self.timer = 0
                self.move()
                if self.dead:
                    return


def children(snake):
    """[(key, snake after the step)] for the distinct outcomes of the five actions, the dead ones left out."""
    out, seen = [], set()
    for key in (None, 0, 1, 2, 3):
        if key is not None and key in (snake.dir, (snake.dir + 2) % 4) and snake.next_dir == snake.dir:
            continue                     # straight on or straight back: a wait
        after = snake.copy()
        after.step(key)
        if after.dead:
            continue
        sig = (after.head, after.dir, after.timer, len(after.body), after.body[0])
        if sig not in seen:
            seen.add(sig)
            out.append((key, after))
    return out


def reach(snake, steps):
    """The most cells the snake can move in `steps` steps."""
    return (snake.timer + FRAMES * steps) // snake.speed


def ways(snake, depth):
    """The action sequences of exactly `depth` steps whose last step eats the apple: [(keys, snake after)]."""
    found = []

    def go(s, keys, left):
        ax, ay = s.apple
        hx, hy = s.head
        if abs(ax - hx) + abs(ay - hy) > reach(s, left):
            return
        for key, after in children(s):
            if after.ate:
                if left == 1:
                    found.append((keys + [key], after))
            elif left > 1:
                go(after, keys + [key], left - 1)

    go(snake, [], depth)
    return found


def survives(snake, steps):
    """Whether some actions keep the snake alive for `steps` steps (no apple in the way)."""
    if steps == 0:
        return True
    return any(survives(after, steps - 1) for _, after in children(snake))


def flood(snake):
    """The free cells reachable from the head."""
    seen = {snake.head}
    queue = deque([snake.head])
    while queue:
        x, y = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < W and 0 <= ny < H and (nx, ny) not in seen and (nx, ny) not in snake.occ:
                seen.add((nx, ny))
                queue.append((nx, ny))
    return len(seen) - 1


def distance(snake):
    """Cells from the head to the apple over free cells (None if there is no way)."""
    if snake.apple is None:
        return None
    seen = {snake.head}
    queue = deque([(snake.head, 0)])
    while queue:
        (x, y), d = queue.popleft()
        if (x, y) == snake.apple:
            return d
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < W and 0 <= ny < H and (nx, ny) not in seen and (nx, ny) not in snake.occ:
                seen.add((nx, ny))
                queue.append(((nx, ny), d + 1))
    return None


def safety(snake):
    """How well placed the snake is with the apple eaten: able to go on, in room for its body, and near the
    middle of the field (the next apple lands anywhere at least 8 cells from the head)."""
    room = flood(snake)
    ok = survives(snake, SAFE_STEPS) and room >= len(snake.body) + 2
    x, y = snake.head
    return ok, min(room, 3 * len(snake.body)) - 2 * (abs(2 * x - (W - 1)) + abs(2 * y - (H - 1))) / 2


def choose(snake):
    """The next action's key (None: wait)."""
    for depth in range(1, HORIZON + 1):
        found = ways(snake, depth)
        safe = [(safety(after), keys) for keys, after in found]
        safe = [(value, keys) for value, keys in safe if value[0]]
        if safe:
            return max(safe, key=lambda item: item[0])[1][0]
    # no safe way to the apple within reach: stay safe and get nearer
    best = None
    for key, after in children(snake):
        d = distance(after)
        value = (survives(after, SAFE_STEPS), flood(after) >= len(after.body) + 2,
                 -(d if d is not None else W * H), flood(after))
        if best is None or value > best[0]:
            best = (value, key)
    return best[1] if best else None


class Player:
    """The scripted player the baselines use (one action a call, read from the state and RAM)."""

    def __init__(self, task):
        self.task = task

    def act(self, env, state, info):
        key = choose(Snake.read(env.session, state))
        return WAIT if key is None else TURNS[NAMES[key]]


def play(task_id, seed=1, max_actions=100):
    """One game through the sandbox; returns the actions and the score after each."""
    actions, scores = [], []
    with make(task_id, observation="state") as env:
        player = Player(env.task)
        state, info = env.reset(seed=seed)
        while not env.done and len(actions) < max_actions:
            action = player.act(env, state, info)
            state, info = env.step(action)
            actions.append(action)
            scores.append(max(scores[-1] if scores else 0, state["score"]))
            if info["reset"]:
                print(f"  lost at step {len(actions)}", file=sys.stderr)
    return actions, scores


def main():
    manifest = json.loads(MANIFEST.read_text())
    hardest = manifest["tasks"][-1]
    actions, scores = play(f"snake/{hardest['slug']}", seed=1)
    print(f"seed 1: {scores[-1]} apples in {len(actions)} actions")
    for task in manifest["tasks"]:
        reached = next((i for i, s in enumerate(scores) if s >= task["target"]), None)
        if reached is None:
            raise SystemExit(f"{task['slug']}: the player reached {scores[-1]}, not {task['target']}")
        task["reference"] = {"seed": 1, "actions": actions[:reached + 1]}
        task["null"] = {"seed": 1, "actions": [TURNS["up"]] * task["max_actions"]}
        print(f"{task['slug']}: target {task['target']} in {reached + 1} actions")
    # the fail trajectory: wait until the snake runs into the wall
    manifest["tests"]["fail"] = {"seed": 1, "actions": [WAIT] * 10}
    manifest_json.write(MANIFEST, manifest)
    capture_banner()


def capture_banner():
    """The reference capture of the GAME OVER banner (the `game_over_banner` screen field): the region of
    the screen after the fail trajectory's crash."""
    from PIL import Image

    registry._loaded.clear()
    game = registry.game("snake")
    region = game.manifest["gameboy"]["fields"]["game_over_banner"]["screen"]
    with make(next(iter(game.tasks.values())), observation="state") as env:
        env.reset(seed=1)
        while True:
            env.session.apply({"type": "wait", "duration_ms": STEP_MS})
            if env.session.state()["terminal"]["is_terminal"]:
                break
        image = Image.open(io.BytesIO(env.render("png")))
    box = (region["x"], region["y"], region["x"] + region["width"], region["y"] + region["height"])
    image.crop(box).save(MANIFEST.parent / "refs/game_over.png")
    print("captured refs/game_over.png")


if __name__ == "__main__":
    capture_banner() if sys.argv[1:] == ["--banner"] else main()
