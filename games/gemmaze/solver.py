"""Scripted player for gemmaze (Gem Maze, Game Boy); writes the reference trajectories into the manifest.

It plays through the sandbox and reads the maze the ROM keeps at 0xC100 (19x17 bytes: 0 floor, 1 wall, 2 gem,
3 exit) and a few of its globals (see `RNG` and `WANT`). With them it knows the game exactly: `advance` is
gemmaze.c's play loop in Python, frame by frame, the ghost's wandering included (its random numbers come
from the same generator, whose state is read), and so is the loop's timing: the ghost's breadth-first search
makes an iteration last several frames (`SLOW`), which shifts the ghost against the player. A look-ahead
that only guesses where the ghost will be walks into it in the faster ghost's maze; this one plans in the
model, fast enough to look far ahead, and a plan plays out as planned.

Each plan is a beam search over the five actions a step (wait, or one of the four directions), `DEPTH` steps
deep: a state the ghost catches is dropped, the others are ranked by `Maze.cost` (the shortest way through
the remaining gems to the exit, exact over the gem orders, and a charge for the ghost near the next gem), and
the best state's actions are played for `COMMIT` steps, so whatever is played can still go on unharmed for
the rest of the plan. Leaving by the exit ends a plan; the next one starts in the new maze, read once the ROM
has made it. One game on seed 1 gives every task's reference: the actions up to the step where its target is
reached.

    .venv/bin/python games/gemmaze/solver.py
"""
import json
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sandbox import make  # noqa: E402
from sandbox import manifest_json  # noqa: E402

MANIFEST = ROOT / "games/gemmaze/manifest.json"
W, H = 19, 17                # tiles; cells are the tiles at odd coordinates
CW, CH = 9, 8                # cells
MAZE = 0xC100
PLAYER = 0xC006              # player x, y, ghost x, y, moving (gw_* of gemmaze.c)
PERIOD = 0xC00F              # frames a ghost move
TICKS = 0xC00C               # play-loop iterations (one a frame, but for the slow ones: `SLOW`)
RNG = 0xC37C                 # gemmaze.c's rng_state (the linker's map of the pinned ROM) ...
WANT = 0xC40F                # ... and want, prev_pad, player_timer, ghost_dir, ghost_timer, ghost_wait
WALL, GEM = 1, 2
STILL = 4
DX, DY = (1, 0, -1, 0), (0, 1, 0, -1)
CELL_STEP = (1, CW, -1, -CW)
DOOR = (H - 2) * W + (W - 2)
FRAMES, PRESS = 19, 5        # a step: the key held for 5 frames, 19 frames in all (press_frames + release_frames)
SLOW = 2                     # frames more an iteration lasts when the ghost chooses its way (a breadth-first search),
SLOWER = 3                   # or 3 when the player takes a gem in it too (the HUD's digits: divisions); measured
GHOST_DELAY = 60             # loop iterations the ghost waits in a new maze
KEYS = (None, 0, 1, 2, 3)    # wait, right, down, left, up
NAMES = ("right", "down", "left", "up")
WAIT = {"type": "wait"}
ACTIONS = {None: WAIT, **{d: {"type": "press_key", "key": name} for d, name in enumerate(NAMES)}}
DEPTH = 16                   # steps a plan looks ahead
WIDTH = 64                   # states kept a step
COMMIT = 8                   # steps of a plan played before the next
NEAR = 12                    # tiles: a ghost nearer than this to the player's next gem (or the exit) costs a tile each


def _bfs(start, size, unreached, neighbours):
    """Breadth-first steps from `start` to every one of `size` places (`unreached` where none leads)."""
    dist = [unreached] * size
    dist[start] = 0
    queue = deque([start])
    while queue:
        place = queue.popleft()
        for nxt in neighbours(place):
            if dist[nxt] == unreached:
                dist[nxt] = dist[place] + 1
                queue.append(nxt)
    return dist


class Maze:
    """One maze's fixed facts: open tiles, the cells' passages and distances (the ghost's), the tile distances
    from each gem and the exit, and the shortest ways through every subset of the gems to the exit."""

    def __init__(self, tiles, period):
        self.open = [t != WALL for t in tiles]
        self.period = period
        self.gems = [i for i, t in enumerate(tiles) if t == GEM]
        self.gem_bit = {tile: 1 << i for i, tile in enumerate(self.gems)}
        self.links = [[d for d in range(4) if self.is_open(2 * cx + 1 + DX[d], 2 * cy + 1 + DY[d])]
                      for cy in range(CH) for cx in range(CW)]
        self.cell_distance = [self._cell_bfs(cell) for cell in range(CW * CH)]
        from_gem = [self._tile_bfs(g) for g in self.gems]
        to_door = self._tile_bfs(DOOR)
        self.from_gem, self.to_door = from_gem, to_door
        # tour[S][i]: the shortest way from gem i through all the gems of the set S (i in S), then to the exit
        n = len(self.gems)
        self.tour = [[0] * n for _ in range(1 << n)]
        for subset in range(1, 1 << n):
            for i in range(n):
                if subset >> i & 1:
                    rest = subset & ~(1 << i)
                    self.tour[subset][i] = to_door[self.gems[i]] if not rest else min(
                        from_gem[j][self.gems[i]] + self.tour[rest][j] for j in range(n) if rest >> j & 1)

    def is_open(self, x, y):
        return 0 <= x < W and 0 <= y < H and self.open[y * W + x]

    def _cell_bfs(self, start):
        return _bfs(start, CW * CH, 255, lambda cell: (cell + CELL_STEP[d] for d in self.links[cell]))

    def _tile_bfs(self, start):
        return _bfs(start, W * H, 999, lambda tile: (
            nxt for nxt in (tile + 1, tile - 1, tile + W, tile - W)
            if 0 <= nxt < W * H and self.open[nxt] and abs(nxt % W - tile % W) < 2))

    def cost(self, state):
        """Tiles from the player through the gems still out to the exit, in the best order; and a tile more for
        each the ghost is nearer than `NEAR` to the first of them, so that a ghost guarding a dead end is
        led away from it (else the player can wait for a way in that never comes)."""
        tile, gems, ghost = state[1] * W + state[0], state[11], state[6] * W + state[5]
        if not gems:
            return self.to_door[tile] + max(0, NEAR - self.to_door[ghost])
        way, i = min((self.from_gem[i][tile] + self.tour[gems][i], i) for i in range(len(self.gems)) if gems >> i & 1)
        return way + max(0, NEAR - self.from_gem[i][ghost])


def read(session):
    """The maze and the state now, from RAM: (player x, y, moving, want, player timer, ghost x, y, direction,
    timer, wait, rng, gems still out (a bit per gem of the maze), frames the ghost's decision still runs,
    loop iterations)."""
    tiles = session.memory(MAZE, W * H)
    maze = Maze(tiles, session.memory(PERIOD)[0])
    px, py, gx, gy, moving = session.memory(PLAYER, 5)
    want, _, player_timer, ghost_dir, ghost_timer, ghost_wait = session.memory(WANT, 6)
    rng = int.from_bytes(session.memory(RNG, 2), "little")
    ticks = int.from_bytes(session.memory(TICKS, 2), "little")
    state = (px, py, moving, want, player_timer, gx, gy, ghost_dir, ghost_timer, ghost_wait, rng,
             (1 << len(maze.gems)) - 1, 0, ticks)
    return maze, state


def next_rng(r):
    r ^= (r << 7) & 0xFFFF
    r ^= r >> 9
    return r ^ (r << 8) & 0xFFFF


def advance(maze, state, key):
    """One step of gemmaze.c's play loop: `key` a direction held for the first frames, or None. Returns the
    state after it, None if the ghost catches the player, or the loop iteration (an int) in which the player
    left by the open exit (the ROM then makes the next maze)."""
    px, py, moving, want, timer, gx, gy, gdir, gtimer, gwait, rng, gems, busy, ticks = state
    is_open, period, gem_bit = maze.is_open, maze.period, maze.gem_bit
    for frame in range(FRAMES):
        if busy:                          # the ghost's search still runs: no loop iteration this frame
            busy -= 1
            continue
        ticks += 1
        old = (px, py, gx, gy)
        took = False
        if key is not None and frame < PRESS:
            want, key = key, None         # the press is seen once, by the first iteration while it is held
        # player_frame()
        if moving == STILL:
            if want != STILL:
                if is_open(px + DX[want], py + DY[want]):
                    moving = want
                want, timer = STILL, 0
        else:
            if want == (moving + 2) & 3 and is_open(px + DX[want], py + DY[want]):
                moving, want = want, STILL
            timer += 1
            if timer >= 2:
                timer = 0
                if not is_open(px + DX[moving], py + DY[moving]):
                    moving = want = STILL
                else:
                    px += DX[moving]
                    py += DY[moving]
                    tile = py * W + px
                    bit = gem_bit.get(tile, 0)
                    if gems & bit:
                        gems &= ~bit
                        took = True
                    elif tile == DOOR and not gems:
                        return ticks
                    if px & 1 and py & 1:   # choose()
                        if want != STILL and is_open(px + DX[want], py + DY[want]):
                            moving, want = want, STILL
                        else:
                            ways = [d for d in range(4) if d != (moving + 2) & 3 and is_open(px + DX[d], py + DY[d])]
                            if len(ways) == 1:
                                moving = ways[0]
                            else:
                                moving = want = STILL
        # ghost_frame()
        if gwait:
            gwait -= 1
        else:
            gtimer += 1
            if gtimer >= period:
                gtimer = 0
                if gx & 1 and gy & 1:
                    cell = (gy >> 1) * CW + (gx >> 1)
                    dist = maze.cell_distance[(py >> 1) * CW + (px >> 1)]
                    options = maze.links[cell]
                    gdir, best = STILL, 255
                    for d in options:
                        if dist[cell + CELL_STEP[d]] < best:
                            gdir, best = d, dist[cell + CELL_STEP[d]]
                    rng = next_rng(rng)
                    if rng & 7 == 0:
                        rng = next_rng(rng)
                        gdir = options[(rng & 0xFF) % len(options)]
                    busy = SLOWER if took else SLOW
                if gdir != STILL:
                    gx += DX[gdir]
                    gy += DY[gdir]
        if (px, py) == (gx, gy) or (px, py, gx, gy) == (old[2], old[3], old[0], old[1]):
            return None
    return (px, py, moving, want, timer, gx, gy, gdir, gtimer, gwait, rng, gems, busy, ticks)


def plan(maze, state):
    """The keys of the best plan from `state`: through the exit if a plan leaves by it, else `COMMIT` steps of
    the plan whose state after `DEPTH` steps costs least (one step if every plan is caught sooner)."""
    layer = [(state, ())]
    for depth in range(DEPTH):
        children = {}
        for now, keys in layer:
            for key in KEYS:
                after = advance(maze, now, key)
                if after is None:
                    continue
                if isinstance(after, int):
                    return list(keys + (key,))
                children.setdefault(after[:13], (after, keys + (key,)))
        if not children:
            return list(layer[0][1][:1]) or [None]
        layer = sorted(children.values(), key=lambda child: maze.cost(child[0]))[:WIDTH]
    return list(layer[0][1][:COMMIT])


class Player:
    """The scripted player the baselines use (one action a call): keeps the model in step with the game, plans
    in it, and plays the plan."""

    def __init__(self, task):
        self.task = task
        self.maze = self.now = self.left_at = None
        self.keys = []

    def act(self, env, state, info):
        session = env.session
        ticks = int.from_bytes(session.memory(TICKS, 2), "little")
        if ticks == 0:                                    # a new attempt: the game has not begun to run
            self.maze, self.now = read(session)
            self.keys, self.left_at = [], None
        elif self.left_at is not None:                    # left by the exit: the ROM makes the next maze
            ghost_wait = session.memory(WANT + 5)[0]
            if ticks <= self.left_at or ghost_wait >= GHOST_DELAY:
                return WAIT                               # still making it
            self.maze, now = read(session)
            self.now = now[:9] + (GHOST_DELAY - 1 - (ticks - self.left_at),) + now[10:]
            self.left_at = None
        elif self.now is None or self._lost(session, state, ticks):
            self.maze, self.now = read(session)
            self.keys = []
        if not self.keys:
            self.keys = plan(self.maze, self.now)
        key = self.keys.pop(0)
        after = advance(self.maze, self.now, key)
        self.now = after if isinstance(after, tuple) else None
        if isinstance(after, int):
            self.left_at, self.keys = after, []
        return ACTIONS[key]

    def _lost(self, session, state, ticks):
        """Whether the game is not where the model is. The sandbox may read RAM midway through a loop iteration:
        the player's tile, the loop count and the gems may lag one behind the model's."""
        now = self.now
        gems = bin(now[11]).count("1")
        return (abs(state["player_x"] - now[0]) + abs(state["player_y"] - now[1]) > 1
                or not 0 <= now[13] - ticks <= 1 or not 0 <= state["gems_left"] - gems <= 1)


def play(task_id, seed=1):
    """One game through the sandbox; returns the actions and the best state figures after each."""
    actions, reached = [], []
    best = {"score": 0, "mazes": 0}
    with make(task_id, observation="state") as env:
        player = Player(env.task)
        state, info = env.reset(seed=seed)
        while not env.done:
            action = player.act(env, state, info)
            state, info = env.step(action)
            actions.append(action)
            best = {k: max(v, state[k]) for k, v in best.items()}
            reached.append(dict(best))
            if info["reset"]:
                print(f"  caught at step {len(actions)}", file=sys.stderr)
    return actions, reached


def main():
    manifest = json.loads(MANIFEST.read_text())
    hardest = manifest["tasks"][-1]
    actions, reached = play(f"gemmaze/{hardest['slug']}", seed=1)
    print(f"seed 1: {reached[-1]} in {len(actions)} actions")
    for task in manifest["tasks"]:
        field = task["score_field"]
        at = next((i for i, r in enumerate(reached) if r[field] >= task["target"]), None)
        if at is None:
            raise SystemExit(f"{task['slug']}: the player reached {reached[-1][field]} {field}, not {task['target']}")
        task["reference"] = {"seed": 1, "actions": actions[:at + 1]}
        task["null"] = {"seed": 1, "actions": [WAIT] * task["max_actions"]}
        print(f"{task['slug']}: {field} {task['target']} in {at + 1} actions")
    manifest["tests"]["fail"] = {"seed": 1, "actions": [WAIT] * 40}
    manifest_json.write(MANIFEST, manifest)


if __name__ == "__main__":
    main()
