"""python -m gameworld_client upload results.json --site http://127.0.0.1:8000 --token $GAMEWORLD_TOKEN

Uploads a gameworld.submission/1 file, prints a line each time its verification moves on, then a verdict
table (claimed vs verified figures of every run). The token may come from GAMEWORLD_TOKEN and the site
from GAMEWORLD_SITE.

Exit codes: 0 verified without mismatches (or accepted, with --no-wait); 1 verified with mismatches, or
rejected; 2 upload refused (each `field: message` printed) or bad usage; 3 the site could not be reached,
failed, or the submission did not finish in time.
"""
import argparse
import os
import sys

from .upload import ClientError, UploadError, WaitTimeout, status_url_for, upload, wait

DEFAULT_SITE = "http://127.0.0.1:8000"
EXIT_OK, EXIT_MISMATCH, EXIT_REFUSED, EXIT_UNREACHABLE = 0, 1, 2, 3


def say(line=""):
    print(line, flush=True)


def progress_line(snapshot):
    done, total = snapshot.get("runs_done", 0), snapshot.get("runs_total", 0)
    status = snapshot.get("status")
    if status == "verifying":
        return f"verifying {done} of {total} runs"
    if status == "verified":
        return f"verified {done} of {total} runs"
    if status == "rejected":
        return f"rejected ({done} of {total} runs finished): {snapshot.get('reason') or 'no reason given'}"
    return f"{status}: {done} of {total} runs verified"


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
    printed = []

    def on_progress(snapshot):
        text = progress_line(snapshot)
        if not printed or printed[-1] != text:
            printed.append(text)
            say(text)

    try:
        final = wait(status_url, interval=args.interval, timeout=args.timeout, on_progress=on_progress)
    except WaitTimeout as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE
    except ClientError as exc:
        say(f"error: {exc}")
        return EXIT_UNREACHABLE
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


def parser():
    root = argparse.ArgumentParser(prog="python -m gameworld_client",
                                   description="Upload agent runs to a GameWorld site and follow their verification.")
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
