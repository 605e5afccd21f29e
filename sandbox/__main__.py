"""python -m sandbox {list,run,check}: run games and trajectories without the site."""
import argparse
import sys

from . import registry
from .cli import check, run
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
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for game in registry.games():
                print(f"{game.slug} {game.version} ({game.genre}, level {game.level}): {game.title}")
                for task in game.tasks.values():
                    print(f"  {task.id}: {task.title}")
        elif args.command == "run":
            run(args.task, args.trajectory, frames_dir=args.frames, gif=args.gif)
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
