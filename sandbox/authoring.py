"""The authoring kit: `python -m sandbox new` scaffolds a game bundle that already keeps the platform rules
(games/README.md), and `python -m sandbox doctor` checks a game end to end, saying how to fix each failure."""
import re
from pathlib import Path

from . import calibration, make, manifest_json, run_trajectory
from .briefing import hud_problems, parity_problems
from .errors import SandboxError
from .frames import frame_facts, frame_problems
from .manifest import Trajectory, load_manifest
from .protocol import INTERFACES
from .registry import registry
from .solvers import play_solver

TEMPLATE_DIR = Path(__file__).with_name("game_template")
TEMPLATE_FILES = ("index.html", "game.js", "solver.py")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,48}$")
GENRES = ("arcade", "platformer", "puzzle", "runner", "simulation")
VIEWPORT = {"width": 480, "height": 360}
REQUIRED_STATE = ("status", "actionable", "terminal", "score")
MIN_STATE_FIELDS = 6
TASKS_PER_GAME = 5
STUB_TARGETS = (2, 4, 7, 10, 13)  # coins, for the demo game: set your own
MOVES = {"move_left": "ArrowLeft", "move_right": "ArrowRight", "move_up": "ArrowUp", "move_down": "ArrowDown"}


def starter_manifest(slug, *, title, genre, level):
    """The manifest of a new bundle: the demo game's keys, actions and six state fields, five task stubs
    whose reference trajectories the solver writes (`python games/<slug>/solver.py`)."""
    wait = {"type": "wait"}
    return {
        "slug": slug, "title": title, "version": "0.1.0",
        "description": f"{title}: a new game (scaffolded demo: collect coins, dodge the spark).",
        "genre": genre, "level": level, "backend": "browser", "entry": "index.html", "viewport": dict(VIEWPORT),
        "keys": list(MOVES.values()), "pointer": False, "step_ms": 200,
        "semantic_actions": [
            *({"name": name, "description": f"Walk {name.split('_')[1]} for one step (about 36 px).",
               "action": {"type": "press_key", "key": key}} for name, key in MOVES.items()),
            {"name": "wait", "description": "Stand still for one step.", "action": wait}],
        "state_fields": {
            "score": "Coins collected, one a coin.", "lives": "Lives left, 3 at the start; the spark takes one.",
            "player_x": "The player's centre, px from the left.", "player_y": "The player's centre, px from the top.",
            "coin_x": "The coin's centre, px from the left.", "coin_y": "The coin's centre, px from the top."},
        "hud": {"score": "top left: \"COINS n\""},
        "tests": {"fail": None},
        "tasks": [
            {"slug": f"coins-{target}", "version": 1, "title": f"Collect {target} coins",
             "instruction": f"Walk to the coins with the arrow keys (about 36 px a step) and collect {target} of "
                            "them within 100 actions; the red spark takes a life.",
             "score_field": "score", "start": 0, "target": target, "max_actions": 100, "step_ms": 200,
             "seeds": [1, 2, 3], "reference": {"seed": 1, "actions": []},
             "null": {"seed": 1, "actions": [wait] * 100}}
            for target in STUB_TARGETS],
    }


def scaffold(slug, *, title, genre, level, games_dir=None):
    """Create <games_dir>/<slug>/ (index.html, game.js, manifest.json, solver.py) in the registry's games folder
    unless told otherwise; return the folder."""
    if not SLUG.match(slug or ""):
        raise SandboxError(f"{slug!r} is not a game slug: lowercase letters, digits and dashes, at most 49")
    if not title or len(title) > 80:
        raise SandboxError("a title has 1 to 80 characters")
    if genre not in GENRES:
        raise SandboxError(f"genre {genre!r} is not one of {', '.join(GENRES)}")
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 5:
        raise SandboxError(f"level {level!r} is not a curriculum level from 1 to 5")
    folder = Path(games_dir or registry.games_dir) / slug
    if folder.exists():
        raise SandboxError(f"{folder} already exists: pick another slug or remove it")
    folder.mkdir(parents=True)
    values = {"slug": slug, "title": title, **{k: str(v) for k, v in VIEWPORT.items()}}
    for name in TEMPLATE_FILES:
        text = (TEMPLATE_DIR / name).read_text()
        for key, value in values.items():
            text = text.replace("{{" + key + "}}", value)
        (folder / name).write_text(text)
    manifest_json.write(folder / "manifest.json", starter_manifest(slug, title=title, genre=genre, level=level))
    load_manifest(folder)  # a scaffold that does not load is a bug here, not the author's
    return folder


def doctor(slug, *, games=None, out=print):
    """Check a game end to end; print each check, each failure with how to fix it; return the failures."""
    games = games or registry
    failures = []

    def report(check, problems, fix):
        out(f"{'ok  ' if not problems else 'FAIL'} {check}")
        for problem in problems:
            out(f"     {problem}")
        if problems:
            out(f"     fix: {fix}")
        failures.extend(problems)

    try:
        game = games.game(slug)
    except SandboxError as exc:
        report("manifest", [str(exc)], "edit manifest.json where the message says; games/README.md shows a "
                                      "complete manifest")
        return failures
    report("manifest", _manifest_problems(game), "games/README.md 'What every game and task must have': at least "
           f"{MIN_STATE_FIELDS} state fields a person can read and {TASKS_PER_GAME} tasks of rising difficulty")
    report("what each interface is told", parity_problems(game),
           "put the facts of the semantic actions' descriptions (durations, distances, steps) in every task's "
           "instruction too: a computer-use agent reads only the instruction and the key names")
    report("the measured figure on screen", hud_problems(game),
           "draw each task's score_field on the HUD and say where in the manifest's \"hud\" "
           "(docs/game-authors.md, 'The HUD')")
    tasks = list(game.tasks.values())
    hardest = tasks[-1]
    report("conformance (actionable, state fields, determinism)", _conformance_problems(hardest),
           "getState() must return the required fields and every manifest state field once actionable; chance "
           "only from Math.random and time only from the virtual clock (games/README.md 'The page')")
    report("frames", frame_problems(hardest.id, frame_facts(game)),
           "draw() once before the game reports actionable, and call draw() at the end of gameAPI.reset()")
    if game.fail_trajectory is None:
        out("     note: no tests.fail trajectory, so the frame after a reset-on-fail was not checked")
    report("reference and null trajectories", _trajectory_problems(tasks),
           f"write the references with the solver (`.venv/bin/python games/{slug}/solver.py`); make a target "
           "that doing nothing cannot reach")
    report("solver on every seed", _solver_problems(tasks),
           f"improve Player in games/{slug}/solver.py, or lower the task's target")
    document = calibration.load_calibration(game)
    if document is None:
        problems = [f"{game.slug}: no {calibration.CARD_FILE} (the game is not calibrated)"]
    else:
        problems = [problem for task in tasks for problem in calibration.gate(task, document["tasks"].get(task.id))]
    report("calibration gate", problems,
           f"fix what each reason says, then run `python -m sandbox calibrate {slug}` (random play must reach "
           "a target in at most 10% of runs, content must depend on the seed: games/README.md 'What every game "
           "and task must have')")
    out(f"{slug}: {'healthy' if not failures else f'{len(failures)} problems'}")
    return failures


def _manifest_problems(game):
    problems = []
    if len(game.state_fields) < MIN_STATE_FIELDS:
        problems.append(f"{game.slug}: {len(game.state_fields)} state fields, at least {MIN_STATE_FIELDS} needed")
    if len(game.tasks) != TASKS_PER_GAME:
        problems.append(f"{game.slug}: {len(game.tasks)} tasks, {TASKS_PER_GAME} needed")
    return problems


def _conformance_problems(task):
    game = task.game
    try:
        with make(task, observation="state") as env:
            state, _ = env.reset(seed=task.seeds[0])
    except SandboxError as exc:
        return [f"{task.id}: the game does not start: {exc}"]
    missing = [name for name in REQUIRED_STATE + tuple(game.state_fields) if name.split(".")[0] not in state]
    problems = [f"{task.id}: getState() lacks {', '.join(missing)}"] if missing else []
    for interface in INTERFACES:
        seed, action_seed = task.seeds[0], calibration.action_seed(interface, game.slug, task.seeds[0], 0)
        first, second = (calibration.replay_random(task, interface, seed, action_seed) for _ in range(2))
        if first.trace_sha256 != second.trace_sha256:
            problems.append(f"{task.id}: two random {interface} runs with the same seed {seed} and actions gave "
                            "different state traces (not deterministic)")
    return problems


def _trajectory_problems(tasks):
    problems = []
    for task in tasks:
        score, _ = run_trajectory(task, task.reference)
        if not score.success:
            problems.append(f"{task.id}: the reference trajectory (seed {task.reference.seed}, "
                            f"{len(task.reference.actions)} actions) does not reach the target "
                            f"(best {score.best:g} of {score.target:g})")
        for seed in task.seeds:
            score, _ = run_trajectory(task, Trajectory(seed=seed, actions=task.null.actions))
            if score.success:
                problems.append(f"{task.id}: the null trajectory reaches the target on seed {seed}")
    return problems


def _solver_problems(tasks):
    problems = []
    for task in tasks:
        for seed in task.seeds:
            try:
                score = play_solver(task, seed).score
            except SandboxError as exc:
                return problems + [str(exc)]
            if not score.success:
                problems.append(f"{task.id}: the solver does not reach the target on seed {seed} "
                                f"(best {score.best:g} of {score.target:g})")
    return problems
