"""gameworld upload results.json --site http://127.0.0.1:8000 --token $GAMEWORLD_TOKEN
gameworld run --agent chat --interface generalist --base-url http://127.0.0.1:8080/v1 \
    --model my-vlm [--hosted --site ... --token ... | --out results.json [--upload]]

(`python -m gameworld_client` is the same command.) `upload` sends a gameworld.submission/1 file, follows
its verification (a progress bar on a terminal, else a line each time it moves on), then prints a
verdict table (claimed vs verified figures of every run). `run` plays tasks with an agent (a chat model
behind an OpenAI-compatible endpoint, or the random baseline): locally in the sandbox of a platform
checkout (writes a submission file, optionally uploads it) or hosted, live on a site (no upload: the site
records the runs and verifies them). The token may come from GAMEWORLD_TOKEN and the site from
GAMEWORLD_SITE.

Exit codes: 0 verified without mismatches (or accepted, with --no-wait); 1 verified with mismatches, or
rejected; 2 upload refused (each `field: message` printed) or bad usage; 3 the site could not be reached,
failed, or the submission did not finish in time.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .progress import RunProgress, VerificationProgress, played_at, say
from .protocol import INTERFACES, PROTOCOLS, is_invalid_record
from .upload import PROTOCOL, ClientError, UploadError, WaitTimeout, status_url_for, upload, wait

DEFAULT_SITE = "http://127.0.0.1:8000"
EXIT_OK, EXIT_MISMATCH, EXIT_REFUSED, EXIT_UNREACHABLE = 0, 1, 2, 3


def _progress(value):
    return "-" if value is None else f"{value:.3f}"


def _success(value):
    return "-" if value is None else ("yes" if value else "no")


def verdict_table(runs):
    """The claimed and verified figures of every run, one row each, the mismatches flagged."""
    header = ("task", "seed", "claimed progress", "verified progress", "claimed success", "verified success",
              "mismatch")
    rows = []
    for run in runs:
        if run.get("mismatch"):
            flag = "MISMATCH"
        elif run.get("status") == "failed":
            flag = "NOT REPLAYED"
        elif run.get("status") != "verified":
            flag = run.get("status", "?")
        else:
            flag = "ok"
        rows.append((run["task"], str(run["seed"]), _progress(run.get("claimed_progress")),
                     _progress(run.get("progress")), _success(run.get("claimed_success")),
                     _success(run.get("success")), flag))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    numeric = {1, 2, 3}

    def line(row):
        cells = [cell.rjust(width) if i in numeric and row is not header else cell.ljust(width)
                 for i, (cell, width) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *map(line, rows)]


def report(snapshot):
    """Print the verdict; return the exit code it calls for."""
    runs = snapshot.get("runs") or []
    say()
    for text in verdict_table(runs):
        say(text)
    for run in runs:
        if run.get("error"):
            say(f"{run['task']} seed {run['seed']}: could not be replayed: {run['error']}")
    say()
    mismatches = sum(1 for run in runs if run.get("mismatch"))
    if snapshot.get("status") == "verified":
        note = ("no mismatches" if not mismatches else
                f"{mismatches} mismatch{'es' if mismatches != 1 else ''} (claims that differ from the replay)")
        say(f"verified: {len(runs)} runs, {note}")
        return EXIT_MISMATCH if mismatches else EXIT_OK
    say(f"rejected: {snapshot.get('reason') or 'no reason given'}")
    return EXIT_MISMATCH


def follow(status_url, args, page_url=None):
    progress = VerificationProgress()
    try:
        final = wait(status_url, interval=args.interval, timeout=args.timeout, on_progress=progress)
    except (WaitTimeout, ClientError) as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE
    finally:
        progress.close()
    code = report(final)
    if page_url:
        say(f"details: {page_url}")
    return code


def cmd_upload(args):
    if not args.token:
        say("error: no API token: pass --token or set GAMEWORLD_TOKEN (create one on your account page)")
        return EXIT_REFUSED
    try:
        created = upload(args.file, site=args.site, token=args.token)
    except UploadError as exc:
        say(f"upload refused (HTTP {exc.status}), nothing was stored:" if exc.status else
            "upload not sent:")
        for error in exc.errors:
            say(f"  {error.get('field', '?')}: {error.get('message', '')}")
        return EXIT_REFUSED
    except OSError as exc:
        say(f"error: cannot read {args.file}: {exc.strerror or exc}")
        return EXIT_REFUSED
    except ClientError as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE
    say(f"uploaded submission {created['id']}: {created.get('runs_total', '?')} runs, {created.get('status')}")
    say(f"  page: {created.get('url', '')}")
    say(f"  status: {created['status_url']}")
    if args.no_wait:
        return EXIT_OK
    return follow(created["status_url"], args, page_url=created.get("url"))


def cmd_wait(args):
    target = args.submission
    status_url = target if "://" in target else status_url_for(args.site, target) if target.isdigit() else None
    if status_url is None:
        say(f"error: {target!r} is neither a submission id nor a status URL")
        return EXIT_REFUSED
    return follow(status_url, args)


def make_agent(args):
    """The agent the options ask for, and its block of the submission (None and a message if it cannot be)."""
    agent_block = {"name": args.name, "model": args.model or "none", "interface": args.interface}
    if args.agent == "chat":
        from .chat import ChatAgent, ChatError, ChatModel

        try:
            model = ChatModel(base_url=args.base_url, model=args.model, api_key=args.api_key,
                              timeout=args.request_timeout, max_retries=args.max_retries, temperature=args.temperature)
        except ChatError as exc:
            return None, str(exc)
        agent = ChatAgent(model, interface=args.interface, memory_rounds=args.memory_rounds, log=args.log,
                          use_tools=not args.no_tools)
        agent_block.update(name=args.name or f"{model.model} ({args.interface})", model=model.model,
                           memory_rounds=args.memory_rounds)
    else:
        from .agents import RandomAgent

        agent = RandomAgent(seed=args.random_seed)
        agent_block.update(name=args.name or f"Random ({args.interface})", model="uniform random",
                           notes="Uniform over the Gym action space; sees nothing.")
    for field in ("org", "url", "notes", "code_url", "paper_url", "weights"):
        if getattr(args, field):
            agent_block[field] = getattr(args, field)
    if args.tuned_on_benchmark is not None:
        agent_block["tuned_on_benchmark"] = args.tuned_on_benchmark == "yes"
    return (agent, agent_block), None


def plan_runs(args, seeds_of: dict[str, list[int]], played=frozenset()) -> list[tuple[str, list[int]]]:
    """(task, seeds) to play: the tasks --tasks/--games pick, at their first seed or all (--seeds), less
    those already played."""
    wanted = [t.strip() for t in (args.tasks or "").split(",") if t.strip()]
    games = {g.strip() for g in (args.games or "").split(",") if g.strip()}
    plan = []
    for task, seeds in seeds_of.items():
        if wanted and task not in wanted and task.split("@")[0] not in wanted:
            continue
        if games and task.split("/")[0] not in games:
            continue
        chosen = [s for s in (seeds if args.seeds == "all" else seeds[:1]) if (task, s) not in played]
        plan.append((task, chosen))
    if not plan:
        raise SystemExit("error: no task matches --tasks/--games")
    return [(task, seeds) for task, seeds in plan if seeds]


def play(agent, make_env, plan) -> list[dict[str, Any]]:
    """Every run of the plan, with a progress bar on a terminal and one line per run on stdout."""
    from .agents import run_tasks

    progress = RunProgress(sum(len(seeds) for _, seeds in plan))

    def on_run(run, env):
        progress.on_run(run)
        claimed = run.get("claimed") or {}
        invalid = sum(1 for a in run["actions"] if is_invalid_record(a))
        say(f"{run['task']} {played_at(run)}: progress {claimed.get('progress', 0):.3f} "
            f"success {'yes' if claimed.get('success') else 'no'}, {len(run['actions'])} actions ({invalid} invalid)")

    try:
        return [run for task, seeds in plan
                for run in run_tasks(agent, make_env, [task], seeds=seeds, on_run=on_run, on_step=progress.on_step)]
    finally:
        progress.close()


def cmd_run(args):
    """Play tasks with an agent, locally (a submission file) or hosted on a site (a submission there)."""
    from .agents import summary
    from .chat import ChatError
    from .hosted import HostedError

    made, problem = make_agent(args)
    if made is not None and args.sealed and not args.hosted:
        made, problem = None, "--sealed plays on a site: add --hosted (a local run plays the public seeds)"
    if made is None:
        say(f"error: {problem}")
        return EXIT_REFUSED
    agent, agent_block = made
    try:
        if args.rounds or args.rounds_entry:
            return run_rounds(args, agent, agent_block)
        if args.hosted:
            return run_hosted(args, agent, agent_block)
        from .env import GameWorldEnv, SandboxMissing, import_sandbox

        try:
            registry = import_sandbox().registry
        except SandboxMissing as exc:
            say(f"error: {exc}")
            return EXIT_REFUSED
        plan = plan_runs(args, {task.id: list(task.seeds) for game in registry.games()
                                for task in game.tasks.values()})
        runs = play(agent, lambda t: GameWorldEnv(t, interface=args.interface, protocol=args.protocol), plan)
        from .upload import write_submission

        if args.agent == "chat" and agent.reported():
            agent_block["reported"] = agent.reported()

        write_submission(args.out, agent=agent_block, task_set=args.task_set or "core-v15", runs=runs,
                         protocol=args.protocol)
        figures = summary(runs)
        say(f"wrote {args.out}: {figures['runs']} runs, mean progress {figures['progress']:.3f}, "
            f"success rate {figures['success_rate']:.3f}")
    except (ChatError, HostedError) as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE
    finally:
        if args.agent == "chat":
            say(f"tokens: {agent.usage['prompt_tokens']} prompt, {agent.usage['completion_tokens']} completion; "
                f"{agent.retries} retried requests; {agent.invalid} invalid replies")
    if not args.upload:
        return EXIT_OK
    args.file, args.no_wait = args.out, False
    return cmd_upload(args)


def run_hosted(args, agent, agent_block):
    from .agents import summary
    from .hosted import ConnectionLost, HostedError, HostedEvaluation

    if not args.token:
        say("error: --hosted needs an API token: pass --token or set GAMEWORLD_TOKEN")
        return EXIT_REFUSED
    try:
        hosted = HostedEvaluation(args.site, args.token, agent=agent_block, task_set=args.task_set,
                                  protocol=args.protocol, sealed=args.sealed, evaluation=args.evaluation)
    except HostedError as exc:  # unreachable (3), or refused: a bad token, task set or agent block (2)
        say(f"error: {exc}")
        return EXIT_UNREACHABLE if isinstance(exc, ConnectionLost) else EXIT_REFUSED
    with hosted:
        say(f"hosted evaluation {hosted.id} on {args.site} ({hosted.protocol}{', sealed' if hosted.sealed else ''}, "
            f"task set {hosted.task_set})")
        # A sealed evaluation's episodes are numbered (their seeds are the site's secret until submission).
        key = "episode_number" if hosted.sealed else "seed"
        played = {(e["task"], e[key]) for e in hosted.episodes if e["status"] == "finished"}
        plan = plan_runs(args, {task: hosted.env(task).episode_keys() for task in hosted.tasks}, played)
        runs = play(agent, lambda t: hosted.env(t, interface=args.interface), plan)
        say(f"{summary(runs)['runs']} runs played; submitting")
        submitted = hosted.submit()
    say(f"submission {submitted['submission']}: {submitted['runs']} runs, verifying on the site")
    say(f"  page: {submitted['url']}")
    if args.no_wait:
        return EXIT_OK
    return follow(submitted["status_url"], args, page_url=submitted["url"])


def run_rounds(args, agent, agent_block):
    """A rounds evaluation: every round of the curriculum, live on --site, reflecting between rounds."""
    from .hosted import ConnectionLost, HostedError
    from .rounds import play_rounds

    if not args.token:
        say("error: --rounds plays on a site: pass --token or set GAMEWORLD_TOKEN")
        return EXIT_REFUSED
    try:
        result = play_rounds(args.site, args.token, args.rounds, agent, agent_block, play=play,
                             protocol=args.protocol, interface=args.interface, entry=args.rounds_entry, say=say)
    except HostedError as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE if isinstance(exc, ConnectionLost) else EXIT_REFUSED
    curve = ", ".join(f"{score:.1f}" for score in result["scores"])
    say(f"rounds entry {result['entry']} finished: mean progress by round (the last is held-out) {curve}; best "
        f"round {result['best_round']}{'; rolled back after round ' + ', '.join(map(str, result['rollbacks'])) if result['rollbacks'] else ''}")
    say(f"  page (figures once every round is verified): {args.site.rstrip('/')}/rounds/entries/{result['entry']}/")
    return EXIT_OK


def parser():
    root = argparse.ArgumentParser(prog="gameworld", description="Play GameWorld tasks with an agent (locally or "
                                   "live on a site), upload runs and follow their verification.")
    sub = root.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--site", default=os.environ.get("GAMEWORLD_SITE") or DEFAULT_SITE,
                       help=f"the site's base URL (default: $GAMEWORLD_SITE or {DEFAULT_SITE})")
        p.add_argument("--interval", type=float, default=1.0, help="seconds between status polls (default 1)")
        p.add_argument("--timeout", type=float, default=600.0,
                       help="give up waiting after this many seconds (default 600)")

    up = sub.add_parser("upload", help="upload a gameworld.submission/1 file and wait for its verdict")
    up.add_argument("file", help="the submission file (JSON)")
    up.add_argument("--token", default=os.environ.get("GAMEWORLD_TOKEN"),
                    help="an API token (default: $GAMEWORLD_TOKEN)")
    up.add_argument("--no-wait", action="store_true", help="exit once the upload is accepted")
    common(up)
    up.set_defaults(run=cmd_upload)

    rn = sub.add_parser("run", help="play tasks with an agent: locally (a submission file) or hosted on a site")
    rn.add_argument("--agent", choices=["chat", "random"], default="chat",
                    help="chat: a chat model behind an OpenAI-compatible endpoint; random: the uniform baseline")
    rn.add_argument("--interface", choices=INTERFACES, default="generalist",
                    help="cua: keys and clicks; generalist: the games' semantic actions (default)")
    rn.add_argument("--base-url", help="the endpoint, e.g. http://127.0.0.1:8080/v1 (default: $GAMEWORLD_CHAT_BASE_URL "
                                       "or $OPENAI_BASE_URL)")
    rn.add_argument("--model", help="the model name (default: $GAMEWORLD_CHAT_MODEL or $OPENAI_MODEL)")
    rn.add_argument("--api-key", help="the endpoint's key (default: $GAMEWORLD_CHAT_API_KEY or $OPENAI_API_KEY)")
    rn.add_argument("--memory-rounds", type=int, default=4, help="earlier rounds shown to the model (default 4)")
    rn.add_argument("--temperature", type=float)
    rn.add_argument("--request-timeout", type=float, default=120.0, help="seconds per model request (default 120)")
    rn.add_argument("--max-retries", type=int, default=6, help="retries of a transient HTTP error (default 6)")
    rn.add_argument("--no-tools", action="store_true", help="no tool calling: the model writes its action as text")
    rn.add_argument("--log", help="append one JSON line per step here (prompt, reply, tokens, latency)")
    rn.add_argument("--random-seed", type=int, default=0)
    rn.add_argument("--protocol", choices=PROTOCOLS, default=PROTOCOL,
                    help="realtime: the model's latency runs the game clock before each action lands")
    rn.add_argument("--tasks", help="comma-separated game/task[@version] (default: every task)")
    rn.add_argument("--games", help="comma-separated game slugs")
    rn.add_argument("--seeds", choices=["first", "all"], default="first", help="each task's first seed or all")
    rn.add_argument("--name", help="the agent's display name")
    rn.add_argument("--org")
    rn.add_argument("--url")
    rn.add_argument("--notes")
    rn.add_argument("--code-url", help="where the agent's code is (shown on the board)")
    rn.add_argument("--paper-url", help="the paper or report describing the agent")
    rn.add_argument("--weights", choices=["open", "closed"], help="whether the model's weights are published")
    rn.add_argument("--tuned-on-benchmark", choices=["yes", "no"],
                    help="whether the agent was built, prompted or trained using these games or tasks")
    rn.add_argument("--task-set", help="the task set (default: the site's default; core-v15 locally)")
    rn.add_argument("--hosted", action="store_true", help="play live on --site (no upload)")
    rn.add_argument("--sealed", action="store_true",
                    help="with --hosted: a sealed evaluation, the one the default board ranks (the site draws each "
                         "episode's seed and reveals it on submission; --seeds then picks episode numbers)")
    rn.add_argument("--evaluation", type=int, help="continue this open hosted evaluation")
    rn.add_argument("--rounds", metavar="CURRICULUM",
                    help="a rounds evaluation on --site: round 0 cold, a reflection between rounds (the model "
                         "rewrites its notes from its own runs), then the held-out tasks with its best notes")
    rn.add_argument("--rounds-entry", type=int, help="go on with this rounds entry of yours")
    rn.add_argument("--out", default="results.json", help="local: the submission file written (default results.json)")
    rn.add_argument("--upload", action="store_true", help="local: upload the file to --site afterwards")
    rn.add_argument("--token", default=os.environ.get("GAMEWORLD_TOKEN"),
                    help="an API token (default: $GAMEWORLD_TOKEN)")
    rn.add_argument("--no-wait", action="store_true", help="do not wait for the verification")
    common(rn)
    rn.set_defaults(run=cmd_run)

    wt = sub.add_parser("wait", help="follow a submission already uploaded (its id or status URL)")
    wt.add_argument("submission", help="a submission id, or its status URL")
    common(wt)
    wt.set_defaults(run=cmd_wait)
    return root


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        say("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
