"""python -m sandbox {list,run,check,calibrate,new,doctor}: run, calibrate and author games without the site."""
import argparse
import sys

from . import registry
from .authoring import GENRES, doctor, scaffold
from .cli import calibrate, check, run
from .errors import SandboxError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sandbox", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the bundled games and their tasks")
    run_p = sub.add_parser("run", help="replay a trajectory file (seed + actions) on a task")
    run_p.add_argument("task", help="game/task or game/task@version")
    run_p.add_argument("--trajectory", required=True, help='JSON file: {"seed": 1, "actions": [...]}')
    run_p.add_argument("--frames", help="write one PNG per step into this folder")
    run_p.add_argument("--gif", help="write the run as an animated GIF")
    check_p = sub.add_parser("check", help="every task of a game: reference reaches the target, null does not")
    check_p.add_argument("game", nargs="+")
    calibrate_p = sub.add_parser("calibrate", help="measure every task of a game (random agents, solver on its "
                                 "seeds and on fresh ones, open-loop replays, trivial policies, reference, null, "
                                 "frames), write games/<slug>/calibration.json; exits 1 when a task fails the gate")
    calibrate_p.add_argument("game", nargs="+", help="game slugs, or `all`")
    calibrate_p.add_argument("--runs-per-seed", type=int, help="random runs per seed and interface "
                             "(default: enough for 30 runs per task and interface)")
    calibrate_p.add_argument("--sample", action="store_true", help="do not measure: replay a sample of the "
                             "stored random runs and check they reproduce the stored figures and hashes")
    calibrate_p.add_argument("--stored", action="store_true", help="do not measure: print the stored cards' "
                             "figures and what keeps a task (or, for several games, the task set) from shipping")
    calibrate_p.add_argument("--keep", action="store_true", help="keep what stored cards measured that still "
                             "holds: of the same game version and task definitions, the arms on fresh seeds and the "
                             "random runs of the current random floor (check those with --sample)")
    new_p = sub.add_parser("new", help="scaffold games/<slug>/: a page, game.js, manifest and solver that keep "
                           "the platform rules")
    new_p.add_argument("slug")
    new_p.add_argument("--title", required=True)
    new_p.add_argument("--genre", required=True, choices=GENRES)
    new_p.add_argument("--level", required=True, type=int, choices=range(1, 6))
    doctor_p = sub.add_parser("doctor", help="check a game end to end and say how to fix each failure")
    doctor_p.add_argument("game")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for game in registry.games():
                print(f"{game.slug} {game.version} ({game.genre}, level {game.level}): {game.title}")
                for task in game.tasks.values():
                    print(f"  {task.id}: {task.title}")
        elif args.command == "run":
            run(args.task, args.trajectory, frames_dir=args.frames, gif=args.gif)
        elif args.command == "new":
            folder = scaffold(args.slug, title=args.title, genre=args.genre, level=args.level)
            print(f"created {folder}: open index.html in a browser to play; then "
                  f"`python -m sandbox doctor {args.slug}`")
        elif args.command == "doctor":
            if doctor(args.game):
                return 1
        elif args.command == "calibrate":
            if args.runs_per_seed is not None and args.runs_per_seed < 1:
                parser.error("--runs-per-seed must be at least 1")
            failures = calibrate(args.game, runs_per_seed=args.runs_per_seed, sample=args.sample,
                                 stored=args.stored, keep=args.keep)
            if failures:
                return 1
        else:
            failures = [f for slug in args.game for f in check(slug)]
            if failures:
                print("failed: " + ", ".join(failures))
                return 1
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
