"""Task validity (games/README.md "What every game and task must have"): measure every task of a game and store
its calibration card in `games/<slug>/calibration.json`; `gate` and `gate_task_set` say what keeps a task or
a task set from shipping.

A card holds, per task: uniform random agents of both interfaces (the task's seeds x several action seeds,
at least MIN_RANDOM_RUNS runs each, every run's trace hash with the seeds that replay it), the solver on every
seed, the reference (replayed twice) and null trajectories, the frame rule's facts, and the verdict. Three arms
ask whether the task needs eyes, on *fresh* seeds (`fresh_seeds`: a stream of the calibration's own, never a
public seed): the solver on FRESH_SEEDS of them (a task is a family of games, not three levels); *open loop*,
the reference trajectory (which the solver wrote on the task's first seed) replayed blind on them (a memorised
sequence is not play); *trivial policies*, every single action of either interface held for the whole budget
(key pairs included) and a cycle through the keys and through the semantic actions, on TRIVIAL_SEEDS of them.

The random agents draw from the whole action space (`actions.random_action`: key pairs, clicks, pointer moves and
drags, every semantic action equally); a card says which `random_floor` drew its runs. The *noisy solver* measures
whether a task tells good play from worse: the solver with each action replaced by a random one with probability
0.1, 0.3 and 0.6 (NOISE_RUNS fresh seeds each), its success and progress per level (the card's `noise` ladder).
Facts that need the game's other tasks are stored on each card when the game is calibrated: the `ladder` (every
task's success at noise 0.3, in the manifest's order, easiest first) and `same_run_as` (tasks that the same run
reaches on the same public seed).

Random runs are shared between the tasks of a game that have the same seeds, step duration and budget: one
full-budget run, then each task is scored on the part of the trace its own run would have recorded (a run
stops where its target is reached; up to there the two runs are the same, reset-on-fail included, since a
reset happens only while the target is not reached).
"""
import functools
import hashlib
import itertools
import json
import math
import random
import time
import zlib
from dataclasses import replace
from pathlib import Path

import jsonschema

from . import manifest_json, oracle, run_trajectory
from .actions import RANDOM_FLOOR, random_action
from .errors import SandboxError
from .frames import frame_facts, frame_problems
from .manifest import Trajectory
from .protocol import INTERFACES, describe_action
from .solvers import play_solver

CARD_FILE = "calibration.json"
SCHEMA_PATH = Path(__file__).with_name("calibration.schema.json")
MIN_RANDOM_RUNS = 30
MAX_RANDOM_SR = 0.10
SET_MAX_RANDOM_SR = 0.05
SET_MAX_RANDOM_PG = 0.20
SET_MIN_SOLVER_SR = 0.90
FRESH_SEEDS = 30          # the solver and the open-loop replays, per task
TRIVIAL_SEEDS = 3         # each trivial policy, per game
MIN_FRESH_SOLVER_SR = 0.90
MAX_OPEN_LOOP_SR = 0.10
SET_MAX_OPEN_LOOP_SR = 0.05
RUN_ARMS = ("fresh_solver", "open_loop", "trivial")  # the arms on fresh seeds that are one list of runs each
ARMS = RUN_ARMS + ("noise",)  # the arms on fresh seeds (the ladder: a list of levels); a card without them is re-measured
NOISE_LEVELS = (0.1, 0.3, 0.6)
NOISE_RUNS = 10           # noisy solver runs a level, on the first fresh seeds
LADDER_NOISE = 0.3        # the level at which a game's tasks must form a ladder and a task must feel the noise
CLIFF_NOISE = 0.1         # at this level a task keeps at least CLIFF_SHARE of the noiseless progress
CLIFF_SHARE = 1 / 3
MAX_SOLVER_SHARE = 0.85   # slack: the solver reaches the target within 85 of 100 actions (of a task's budget)
MIN_SOLVER_SHARE = 0.10   # and no task is over in fewer than 10 of 100


def action_seed(interface, game_slug, seed, k):
    """The seed of the k-th random run of an interface on a game seed: the same on every machine."""
    return zlib.crc32(f"{interface}:{game_slug}:{seed}:{k}".encode())


def fresh_seeds(game, count=None):
    """The calibration's own seeds for a game (FRESH_SEEDS of them unless `count` is given): the same on every
    machine, none of them a public seed of its tasks, below 2**31 like every seed a game is given."""
    count = FRESH_SEEDS if count is None else count
    public = {seed for task in game.tasks.values() for seed in task.seeds}
    stream = (zlib.crc32(f"fresh:{game.slug}:{k}".encode()) & 0x7FFFFFFF for k in itertools.count())
    return list(itertools.islice((seed for seed in stream if seed not in public), count))


def trivial_policies(space):
    """{name: the actions it plays in turn}: each single action of either interface (every key, every pair of
    keys, a click at the centre where the game takes the pointer, every semantic action at the middle of its
    arguments' bounds), a cycle through the keys and a cycle through the semantic actions. None of them looks
    at the game, so none may reach a target."""
    keys = [{"type": "press_key", "key": key} for key in space.keys]
    pairs = [{"type": "press_keys", "keys": list(pair)} for pair in itertools.combinations(space.keys, 2)]
    clicks = [{"type": "left_click", "x": space.width // 2, "y": space.height // 2}] if space.pointer else []
    semantic = [_middle(name, spec) for name, spec in space.semantic.items()]
    policies = {describe_action(action): [action] for action in keys + pairs + clicks + semantic}
    if len(keys) > 1:
        policies["cycle through the keys"] = keys
    if len(semantic) > 1:
        policies["cycle through the semantic actions"] = semantic
    return policies


def _middle(name, spec):
    action = {"type": "semantic", "name": name}
    if spec.get("args"):
        action["args"] = {arg: (bounds["min"] + bounds["max"]) // 2 for arg, bounds in spec["args"].items()}
    return action


WORDING = ("title", "instruction")  # fixed in place: a reworded task measures the same thing


def task_sha256(task):
    """A hash of everything a task measures (its wording aside): a card measured for other settings is stale.
    Numbers are compared as numbers (a site's database gives 15.0 for a manifest's 15)."""
    measured = {name: _whole(value) for name, value in task.to_dict().items() if name not in WORDING}
    canonical = json.dumps(measured, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _whole(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


def task_run(trace, task):
    """The part of a full-budget trace that the task's own run records: up to the step where its target is
    first reached (the env stops there, as it checks after each step), else all of it."""
    start = oracle.resolve_start(task.start, trace, task.score_field)
    for index, record in enumerate(trace):
        if record["kind"] != "step":
            continue
        value = oracle.read_score(record["state"], task.score_field)
        if value is not None and oracle.reached(start, task.target, value):
            return trace[:index + 1]
    return trace


def random_trajectory(task, interface, seed, run_action_seed):
    """A random run's actions, drawn in advance (a uniform random agent sees nothing, so they do not depend on
    the game): the whole budget, so the backend can run them ahead in a few round trips."""
    rng = random.Random(run_action_seed)
    return Trajectory(seed=seed, actions=[random_action(task.game.action_space, rng, interface)
                                          for _ in range(task.max_actions)])


def score_task(trace, task):
    return oracle.score_run(task_run(trace, task), score_field=task.score_field, start=task.start,
                            target=task.target)


def shared_scores(tasks, trajectory, **session_options):
    """Score every task of `tasks` (same step_ms and budget) from one run of the trajectory on
    `unbounded(tasks[0])`, which never stops at a target."""
    _, trace = run_trajectory(unbounded(tasks[0]), trajectory, **session_options)
    return {task.id: score_task(trace, task) for task in tasks}


def shared_random_scores(tasks, interface, seed, run_action_seed, **session_options):
    return shared_scores(tasks, random_trajectory(unbounded(tasks[0]), interface, seed, run_action_seed),
                         **session_options)


def unbounded(task):
    """The task with a target no score reaches: its run always spends the whole budget (or ends in a win)."""
    return replace(task, target=math.inf)


def replay_random(task, interface, seed, run_action_seed, **session_options):
    """A random run of the task alone (the run a stored card entry describes), for checking a card."""
    score, _ = run_trajectory(task, random_trajectory(task, interface, seed, run_action_seed),
                              **session_options)
    return score


def card_floor(card):
    """The random agent that drew the card's runs: a card written before the floor was named was drawn by the first
    (one key, a wait or a click a step)."""
    return card.get("random_floor", 1)


def earlier_floor_problem(task, card):
    """A card of an earlier random agent was measured under fewer rules (no key pairs, no noisy-solver ladder, no
    budget or rung rules), and its runs no longer replay: it must be measured again."""
    if card_floor(card) == RANDOM_FLOOR:
        return []
    return [f"{task.id}: the card was drawn by an earlier random agent (floor {card_floor(card)}, not "
            f"{RANDOM_FLOOR}) and measured under fewer rules: run `python -m sandbox calibrate {task.game.slug}`"]


def _groups(tasks, *, by_seeds=True):
    groups = {}
    for task in tasks:
        groups.setdefault((task.seeds if by_seeds else (), task.step_ms, task.max_actions), []).append(task)
    return list(groups.values())


def _run_entry(score, **extra):
    return {**extra, "success": score.success, "progress": round(score.progress, 4), "actions": score.actions,
            "attempts": score.attempts, "trace_sha256": score.trace_sha256}


def summarize(entries):
    """Runs, success rate and mean progress of a list of run entries."""
    count = len(entries)
    return {"runs": count,
            "success_rate": round(sum(e["success"] for e in entries) / count, 4) if count else 0.0,
            "mean_progress": round(sum(e["progress"] for e in entries) / count, 4) if count else 0.0}


def measure_random(game, tasks=None, *, runs_per_seed=None, out=print, **session_options):
    """{task id: {interface: [run entry]}} for both interfaces over every task's seeds (of `tasks`, by default
    every task of the game)."""
    if not game.action_space.semantic:
        raise SandboxError(f"{game.slug}: no semantic actions, so the generalist random agent cannot play it")
    tasks = list(game.tasks.values()) if tasks is None else tasks
    runs = {task.id: {interface: [] for interface in INTERFACES} for task in tasks}
    for group in _groups(tasks):
        seeds = group[0].seeds
        per_seed = runs_per_seed or math.ceil(MIN_RANDOM_RUNS / len(seeds))
        for interface in INTERFACES:
            began, done = time.monotonic(), 0
            for seed in seeds:
                for k in range(per_seed):
                    run_seed = action_seed(interface, game.slug, seed, k)
                    scores = shared_random_scores(group, interface, seed, run_seed, **session_options)
                    for task in group:
                        runs[task.id][interface].append(_run_entry(scores[task.id], seed=seed, action_seed=run_seed))
                    done += 1
            out(f"  random {interface}: {done} runs on seeds {list(seeds)} ({time.monotonic() - began:.0f} s)")
    return runs


def measure_trivial(game, seeds, *, out=print, **session_options):
    """{task id: [run entry]}: every trivial policy on every one of `seeds`, one run shared by the tasks of a
    step duration and budget."""
    policies = trivial_policies(game.action_space)
    runs = {task.id: [] for task in game.tasks.values()}
    began = time.monotonic()
    for group in _groups(game.tasks.values(), by_seeds=False):
        for (name, cycle), seed in itertools.product(policies.items(), seeds):
            actions = list(itertools.islice(itertools.cycle(cycle), group[0].max_actions))
            scores = shared_scores(group, Trajectory(seed=seed, actions=actions), **session_options)
            for task in group:
                runs[task.id].append(_run_entry(scores[task.id], policy=name, seed=seed))
    out(f"  trivial policies: {len(policies)} on fresh seeds {list(seeds)} ({time.monotonic() - began:.0f} s)")
    return runs


def measure_fresh(task, seeds, *, out=print, **session_options):
    """The solver on every fresh seed, and the open-loop arm: the reference trajectory (for the bundled games,
    the solver's run on the task's first seed) replayed blind on every fresh seed."""
    began = time.monotonic()
    solver = [_run_entry(play_solver(task, seed, **session_options).score, seed=seed) for seed in seeds]
    open_loop = [_run_entry(run_trajectory(task, Trajectory(seed=seed, actions=task.reference.actions),
                                           **session_options)[0],
                            source="reference", made_on=task.reference.seed, seed=seed) for seed in seeds]
    out(f"  {task.id}: solver and open-loop replays on {len(seeds)} fresh seeds ({time.monotonic() - began:.0f} s)")
    return {"fresh_solver": {**summarize(solver), "results": solver},
            "open_loop": {**summarize(open_loop), "results": open_loop}}


def noise_seed(game, rate, seed):
    """The seed of the random draws of the noisy solver at `rate` on a game seed: the same on every machine, and the
    same for every task of the game, so that where a game's solver plays its tasks alike the harder task's noisy
    runs are the easier one's, longer (common random numbers: the ladder compares tasks, not luck)."""
    return zlib.crc32(f"noise:{game.slug}:{rate}:{seed}".encode())


def measure_noise(task, seeds, *, out=print, **session_options):
    """The noisy solver's ladder: for each of NOISE_LEVELS, the solver on every one of `seeds` with that share of
    its actions replaced by random ones."""
    began = time.monotonic()
    ladder = []
    for rate in NOISE_LEVELS:
        runs = [_run_entry(play_solver(task, seed, noise=rate, noise_seed=noise_seed(task.game, rate, seed),
                                       **session_options).score, seed=seed) for seed in seeds]
        ladder.append({"rate": rate, **summarize(runs), "results": runs})
    out(f"  {task.id}: noisy solver " + ", ".join(f"{level['rate']}: SR {level['success_rate']:.0%} PG "
                                                  f"{level['mean_progress']:.0%}" for level in ladder)
        + f" on {len(seeds)} fresh seeds ({time.monotonic() - began:.0f} s)")
    return ladder


def kept_arms(game, earlier):
    """{task id: {arm: what the earlier document's card measured}}: the measurements of its cards that still hold.
    Nothing of a stale card; of a current one the arms on fresh seeds, and its random runs when they were drawn by
    this RANDOM_FLOOR (a random run does not depend on anything else of the card, and its action seeds are the
    task's own)."""
    kept = {}
    for task in game.tasks.values():
        card = earlier["tasks"].get(task.id)
        if card is None or is_stale(task, card):
            continue
        arms = {arm: card[arm] for arm in ARMS if arm in card}
        if card.get("random_floor") == RANDOM_FLOOR:
            arms["random"] = {interface: arm["results"] for interface, arm in card["random"].items()}
        kept[task.id] = arms
    return kept


def calibrate(game, *, runs_per_seed=None, keep=None, out=print, **session_options):
    """Measure every task of a game; the calibration document (see the module docstring), not yet written.
    `keep`, an earlier document of the game: what of its cards still holds (`kept_arms`) is kept instead of
    measured again (random runs replay the same: `verify_sample` checks a sample)."""
    out(f"{game.slug} {game.version}: calibrating {len(game.tasks)} tasks")
    kept = kept_arms(game, keep) if keep else {}
    random_runs = {task_id: arms["random"] for task_id, arms in kept.items() if "random" in arms}
    if kept:
        out("  kept from the earlier calibration (same game version and task definitions): "
            + "; ".join(f"{task_id.split('/')[1]}: {', '.join(sorted(arms))}" for task_id, arms in kept.items()))
    remeasured = [task for task in game.tasks.values() if task.id not in random_runs]
    if remeasured:
        random_runs.update(measure_random(game, remeasured, runs_per_seed=runs_per_seed, out=out,
                                          **session_options))
    seeds = fresh_seeds(game)
    if all("trivial" in kept.get(task.id, {}) for task in game.tasks.values()):
        trivial = {task.id: kept[task.id]["trivial"]["results"] for task in game.tasks.values()}
    else:
        trivial = measure_trivial(game, seeds[:TRIVIAL_SEEDS], out=out, **session_options)
    frames = frame_facts(game, **session_options)
    flat = [seed for seed, is_flat in frames["first_frame_flat"].items() if is_flat]
    post_reset = frames["post_reset"]
    out(f"  frames: blank first frame on seeds {', '.join(flat) or 'none'}; frame after a reset: " + (
        "not checked (no fail trajectory)" if not frames["fail_trajectory"] else
        "not seen (the fail trajectory did not lose)" if post_reset is None else
        f"{'stale' if post_reset['stale'] else 'fresh'} ({post_reset['differing_pixels']} pixels, "
        f"{post_reset['differing_share']:.2%}, differ from a fresh reset)"))
    cards = {}
    for task in game.tasks.values():
        solver = [_run_entry(play_solver(task, seed, **session_options).score, seed=seed) for seed in task.seeds]
        reference, _ = run_trajectory(task, task.reference, **session_options)
        replayed, _ = run_trajectory(task, task.reference, **session_options)
        null, _ = run_trajectory(task, task.null, **session_options)
        earlier = kept.get(task.id, {})
        fresh = ({arm: earlier[arm] for arm in ("fresh_solver", "open_loop")} if "open_loop" in earlier
                 else measure_fresh(task, seeds, out=out, **session_options))
        cards[task.id] = {
            "task": task.id, "game_version": game.version, "task_sha256": task_sha256(task),
            "random_floor": RANDOM_FLOOR,
            "random": {interface: {**summarize(random_runs[task.id][interface]),
                                   "results": random_runs[task.id][interface]} for interface in INTERFACES},
            "solver": {**summarize(solver), "results": solver},
            "reference": _run_entry(reference, seed=task.reference.seed,
                                    replays_identical=replayed.trace_sha256 == reference.trace_sha256),
            "null": _run_entry(null, seed=task.null.seed),
            "frames": frames,
            **fresh,
            "trivial": {**summarize(trivial[task.id]), "seeds": seeds[:TRIVIAL_SEEDS], "results": trivial[task.id]},
            "noise": earlier.get("noise") or measure_noise(task, seeds[:NOISE_RUNS], out=out, **session_options),
        }
    add_game_facts(cards)
    for task in game.tasks.values():
        card = cards[task.id]
        card["reasons"] = gate(task, card)
        card["verdict"] = "fail" if card["reasons"] else "pass"
        out("  " + _row(card))
    return {"game": game.slug, "game_version": game.version, "tasks": cards}


def add_game_facts(cards):
    """Store on each card (a game's, in manifest order) what the gate needs of the game's other tasks: the `ladder`
    (each task's success rate at LADDER_NOISE) and `same_run_as` (the tasks one solver run reaches on the same
    public seed: the same trace, the same number of actions)."""
    ladder = [{"task": card["task"], "success_rate": _level(card, LADDER_NOISE)["success_rate"]}
              for card in cards.values()]
    runs = {}
    for card in cards.values():
        for entry in card["solver"]["results"]:
            runs.setdefault((entry["seed"], entry["trace_sha256"]), []).append(card["task"])
    for card in cards.values():
        card["ladder"] = ladder
        same = {}
        for (seed, _), tasks in runs.items():
            if card["task"] in tasks:
                for other in tasks:
                    if other != card["task"]:
                        same.setdefault(other, []).append(seed)
        card["same_run_as"] = [{"task": other, "seeds": sorted(seeds)} for other, seeds in same.items()]


def _level(card, rate):
    return next(level for level in card["noise"] if level["rate"] == rate)


def is_stale(task, card):
    """The card was measured on another game version or another definition of the task."""
    return card["game_version"] != task.game.version or card["task_sha256"] != task_sha256(task)


def gate(task, card):
    """Why the task may not ship, each reason naming the task; [] when its card passes the gate."""
    rerun = f"run `python -m sandbox calibrate {task.game.slug}`"
    if card is None:
        return [f"{task.id}: not calibrated: {rerun}"]
    if is_stale(task, card):
        changed = ("the task's definition changed" if card["game_version"] == task.game.version
                   else f"measured on game version {card['game_version']}, the game is {task.game.version}")
        return [f"{task.id}: the calibration is stale ({changed}): {rerun}"]

    problems = [f"{task.id}: the solver does not reach the target on seed {entry['seed']} "
                f"(progress {entry['progress']:.2f})" for entry in card["solver"]["results"] if not entry["success"]]
    unplayed = sorted(set(task.seeds) - {entry["seed"] for entry in card["solver"]["results"]})
    if unplayed:
        problems.append(f"{task.id}: the solver was not run on seed{'s' if len(unplayed) > 1 else ''} "
                        f"{', '.join(map(str, unplayed))}")
    reference = card["reference"]
    if not reference["success"]:
        problems.append(f"{task.id}: the reference trajectory does not reach the target on seed "
                        f"{reference['seed']} (progress {reference['progress']:.2f})")
    if not reference["replays_identical"]:
        problems.append(f"{task.id}: two replays of the reference trajectory gave different traces")
    if card["null"]["success"]:
        problems.append(f"{task.id}: the null trajectory reaches the target on seed {card['null']['seed']}")
    for interface in INTERFACES:
        measured = summarize(card["random"][interface]["results"])  # from the runs, not a stored summary
        if measured["runs"] < MIN_RANDOM_RUNS:
            problems.append(f"{task.id}: {measured['runs']} random {interface} runs measured, "
                            f"at least {MIN_RANDOM_RUNS} needed")
        elif measured["success_rate"] > MAX_RANDOM_SR:
            problems.append(f"{task.id}: random {interface} play reaches the target in "
                            f"{measured['success_rate']:.0%} of {measured['runs']} runs (at most "
                            f"{MAX_RANDOM_SR:.0%}): make the target need intent")
    earlier = earlier_floor_problem(task, card)
    if earlier:
        return problems + earlier
    return (problems + budget_problems(task, card) + fresh_problems(task, card) + noise_problems(task, card)
            + frame_problems(task.id, card["frames"]) + loss_problems(task, card))


def loss_problems(task, card):
    """A game that cannot be lost never exercises reset-on-fail: it needs a fail trajectory that loses."""
    if card["frames"]["fail_trajectory"]:
        return []
    return [f"{task.id}: the game has no fail trajectory (tests.fail): every game must be losable within its budget "
            "by a plausible mistake; add a run that loses, so the reset is checked"]


def solver_action_bounds(task):
    """(fewest, most) actions the solver may take to reach the task's target: room for a mistake, and more than a
    few presses (10 and 85 of a budget of 100)."""
    return math.ceil(MIN_SOLVER_SHARE * task.max_actions), math.floor(MAX_SOLVER_SHARE * task.max_actions)


def budget_problems(task, card):
    """Slack in the budget (`solver_action_bounds`): on every public seed the solver's run is within the bounds;
    on fresh seeds, at least MIN_FRESH_SOLVER_SR of them are reached within the most, and none in fewer than the
    fewest."""
    fewest, most = solver_action_bounds(task)
    problems = []
    public = [entry for entry in card["solver"]["results"] if entry["success"]]
    slow = [entry for entry in public if entry["actions"] > most]
    if slow:
        problems.append(f"{task.id}: the solver needs {max(e['actions'] for e in slow)} actions on seed"
                        f"{'s' if len(slow) > 1 else ''} {', '.join(str(e['seed']) for e in slow)} (at most {most} "
                        f"of {task.max_actions}): leave room for a mistake, with a lower target")
    fresh = card.get("fresh_solver", {}).get("results", [])
    in_time = sum(entry["success"] and entry["actions"] <= most for entry in fresh)
    reached = sum(entry["success"] for entry in fresh)  # fewer than enough at all: fresh_problems says so
    if fresh and in_time / len(fresh) < MIN_FRESH_SOLVER_SR <= reached / len(fresh):
        problems.append(f"{task.id}: the solver reaches the target within {most} actions on {in_time / len(fresh):.0%} "
                        f"of {len(fresh)} fresh seeds (at least {MIN_FRESH_SOLVER_SR:.0%}): leave room for a "
                        "mistake, with a lower target")
    quick = sorted(entry["actions"] for entry in public + fresh if entry["success"] and entry["actions"] < fewest)
    if quick:
        problems.append(f"{task.id}: the solver reaches the target in {quick[0]} actions (at least {fewest}): ask "
                        "for more, so that the task is not over in a few presses")
    return problems


def noise_problems(task, card):
    """The noisy solver's ladder: noise at LADDER_NOISE must matter; noise at CLIFF_NOISE must not wreck the run;
    the game's tasks must not get easier for it as they get harder; no other task is reached by the same run."""
    if "noise" not in card or "ladder" not in card:
        return []  # fresh_problems names the missing arm
    problems = []
    ladder_sr = _level(card, LADDER_NOISE)["success_rate"]
    if ladder_sr >= 1:
        problems.append(f"{task.id}: the solver with {LADDER_NOISE:.0%} of its actions random still reaches the "
                        f"target every time: make the target need good play throughout")
    cliff = _level(card, CLIFF_NOISE)["mean_progress"]
    seeds = {entry["seed"] for entry in _level(card, CLIFF_NOISE)["results"]}
    clean = summarize([e for e in card["fresh_solver"]["results"] if e["seed"] in seeds])["mean_progress"]
    if cliff < CLIFF_SHARE * clean:
        problems.append(f"{task.id}: with {CLIFF_NOISE:.0%} of its actions random the solver makes {cliff:.0%} mean "
                        f"progress, under a third of its {clean:.0%} without: one slip should cost some, not all")
    order = [rung["task"] for rung in card["ladder"]]
    mine = order.index(task.id)
    easier = [f"{rung['task']} ({rung['success_rate']:.0%})" for rung in card["ladder"][:mine]
              if rung["success_rate"] < ladder_sr]
    if easier:
        problems.append(f"{task.id}: at noise {LADDER_NOISE} the solver reaches it in {ladder_sr:.0%} of runs, more "
                        f"than the easier {', '.join(easier)}: the tasks must rise in difficulty")
    problems += [f"{task.id}: the same run reaches {same['task']} on seed{'s' if len(same['seeds']) > 1 else ''} "
                 f"{', '.join(map(str, same['seeds']))}, at the same action: make each task a rung of its own"
                 for same in card["same_run_as"]]
    return problems


def fresh_problems(task, card):
    """The arms on fresh seeds: the solver plays the task's family, a blind sequence and a trivial policy do not."""
    missing = [arm for arm in ARMS if arm not in card]
    if missing:
        return [f"{task.id}: the card has no {', '.join(missing)} arm (measured before it was part of the gate): "
                f"run `python -m sandbox calibrate {task.game.slug}`"]
    problems = []
    solver = summarize(card["fresh_solver"]["results"])
    if solver["runs"] < FRESH_SEEDS or solver["success_rate"] < MIN_FRESH_SOLVER_SR:
        problems.append(f"{task.id}: the solver reaches the target on {solver['success_rate']:.0%} of "
                        f"{solver['runs']} fresh seeds (at least {MIN_FRESH_SOLVER_SR:.0%} of {FRESH_SEEDS}): "
                        "make every seed's game winnable by good play")
    blind = summarize(card["open_loop"]["results"])
    if blind["success_rate"] > MAX_OPEN_LOOP_SR:
        problems.append(f"{task.id}: a sequence memorised on one seed reaches the target on "
                        f"{blind['success_rate']:.0%} of {blind['runs']} fresh seeds (at most {MAX_OPEN_LOOP_SR:.0%}): "
                        "make what the player must look at depend on the seed")
    winners = {}
    for entry in card["trivial"]["results"]:
        if entry["success"]:
            winners.setdefault(entry["policy"], []).append(entry["seed"])
    problems += [f"{task.id}: the trivial policy '{policy}' reaches the target on fresh seed"
                 f"{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}: make the target need more than "
                 "one action repeated or a fixed cycle" for policy, seeds in winners.items()]
    return problems


def gate_task_set(cards):
    """Why a set of tasks (their cards) may not be a default task set; [] when it may."""
    if not cards:
        return ["the task set is empty"]
    problems = []
    for interface in INTERFACES:
        runs = [entry for card in cards for entry in card["random"][interface]["results"]]
        measured = summarize(runs)
        if measured["success_rate"] > SET_MAX_RANDOM_SR:
            problems.append(f"the task set: random {interface} play reaches the target in "
                            f"{measured['success_rate']:.1%} of {len(runs)} runs (at most {SET_MAX_RANDOM_SR:.0%})")
        if measured["mean_progress"] > SET_MAX_RANDOM_PG:
            problems.append(f"the task set: random {interface} play makes {measured['mean_progress']:.1%} mean "
                            f"progress (at most {SET_MAX_RANDOM_PG:.0%})")
    blind = summarize([entry for card in cards for entry in card.get("open_loop", {}).get("results", [])])
    if blind["success_rate"] > SET_MAX_OPEN_LOOP_SR:
        problems.append(f"the task set: sequences memorised on one seed reach the target on "
                        f"{blind['success_rate']:.1%} of {blind['runs']} fresh seeds (at most {SET_MAX_OPEN_LOOP_SR:.0%})")
    solver = summarize([entry for card in cards for entry in card["solver"]["results"]])
    if solver["success_rate"] < SET_MIN_SOLVER_SR:
        problems.append(f"the task set: the solvers reach the target in {solver['success_rate']:.1%} of "
                        f"{solver['runs']} runs (at least {SET_MIN_SOLVER_SR:.0%})")
    return problems


def card_path(game):
    return Path(game.bundle_dir) / CARD_FILE


def write_calibration(game, document):
    card_path(game).write_text(manifest_json.dumps(document))


def load_calibration(game):
    """The game's calibration document, or None when it has none; SandboxError naming the file and the field
    when it is not one (a bundle's file is data from its author: checked before anything reads it)."""
    path = card_path(game)
    if not path.is_file():
        return None
    raw = path.read_bytes()
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise SandboxError(f"{path}: not valid JSON: {exc}") from None
    digest = hashlib.sha256(raw).digest()
    if digest not in _SCHEMA_VALID:
        error = jsonschema.exceptions.best_match(_validator().iter_errors(document))
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "(the document)"
            raise SandboxError(f"{path}: {where}: {error.message[:300]}: "
                               f"run `python -m sandbox calibrate {game.slug}`")
        _SCHEMA_VALID.add(digest)
    return document


# The sha256 of every card file this process found valid. The schema check of a card's thousands of runs is most
# of the time a site takes to load its bundles; the same bytes are valid again, so each file is checked once.
_SCHEMA_VALID = set()


@functools.cache
def _validator():
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def verify_sample(game, document, *, out=print, **session_options):
    """Replay a sample of the stored random runs of every task of the game (`verify_task_sample`); the
    mismatches with what the cards stored, each naming the task."""
    mismatches = []
    for task in game.tasks.values():
        card = document["tasks"].get(task.id)
        if card is None:
            mismatches.append(f"{task.id}: not in the calibration file")
        else:
            mismatches += verify_task_sample(task, card, out=out, **session_options)
    return mismatches


def verify_task_sample(task, card, *, out=print, interfaces=INTERFACES, **session_options):
    """Replay one stored random run per interface of `interfaces` (picked by a hash of the task and interface) as
    the task's own run; the mismatches with what the card stored, each naming the task."""
    mismatches = earlier_floor_problem(task, card)
    if mismatches:
        return mismatches  # drawn by another agent: replaying by this one would only report differences
    for interface in interfaces:
        results = card["random"][interface]["results"]
        if not results:
            mismatches.append(f"{task.id}: no random {interface} runs stored")
            continue
        stored = results[zlib.crc32(f"{task.id}:{interface}".encode()) % len(results)]
        score = replay_random(task, interface, stored["seed"], stored["action_seed"], **session_options)
        replayed = _run_entry(score, seed=stored["seed"], action_seed=stored["action_seed"])
        same = replayed == stored
        out(f"  {'ok  ' if same else 'DIFF'} {task.id} {interface} seed={stored['seed']} "
            f"action_seed={stored['action_seed']} trace={score.trace_sha256[:12]}")
        if not same:
            mismatches.append(f"{task.id}: random {interface} run (seed {stored['seed']}, action seed "
                              f"{stored['action_seed']}) replays as {replayed}, the card says {stored}")
    return mismatches


def sampled_interface(task):
    """The interface whose random run a check of a whole task set replays for this task: one a task, in turn over
    the game's tasks, so that a game's tasks sample every interface between them for half the replays."""
    slugs = sorted({*task.game.tasks, task.slug})  # a task made on a site is not in its game's manifest
    return INTERFACES[slugs.index(task.slug) % len(INTERFACES)]


def _figures(label, cards):
    """One line of a summary table: random SR and PG of each interface, the solver on the public and on fresh
    seeds, open-loop transfer and the trivial policies' SR and mean PG, over the cards' runs."""
    def pooled(arm, field="results"):
        return summarize([entry for card in cards for entry in (card[arm] if arm in card else {}).get(field, [])])

    cua, generalist = (summarize([e for c in cards for e in c["random"][i]["results"]]) for i in INTERFACES)
    fresh, blind, trivial = pooled("fresh_solver"), pooled("open_loop"), pooled("trivial")
    noisy = [summarize([e for c in cards if "noise" in c for e in _level(c, rate)["results"]]) for rate in NOISE_LEVELS]
    return (f"{label:34s} random cua {cua['success_rate']:4.0%}/{cua['mean_progress']:4.0%} "
            f"gen {generalist['success_rate']:4.0%}/{generalist['mean_progress']:4.0%}  "
            f"solver {pooled('solver')['success_rate']:4.0%} fresh {fresh['success_rate']:4.0%}  "
            f"open loop {blind['success_rate']:4.0%}  trivial {trivial['success_rate']:4.0%}/"
            f"{trivial['mean_progress']:4.0%}  noisy " + " ".join(f"{level['success_rate']:4.0%}" if level["runs"] else "   –"
                                                    for level in noisy))


def _row(card):
    return f"{_figures(card['task'], [card])}  {card['verdict'].upper()}"


def summary_table(documents):
    """The figures of calibrated games as text lines: one a task (random SR/PG of each interface, solver SR on
    the public and on fresh seeds, open-loop SR, trivial policies SR/PG), then the task set's totals."""
    cards = [card for document in documents for card in document["tasks"].values()]
    passed = sum(card["verdict"] == "pass" for card in cards)
    return [_row(card) for card in cards] + [
        f"{_figures(f'all {len(cards)} tasks', cards)}  {passed} pass, {len(cards) - passed} fail"]
