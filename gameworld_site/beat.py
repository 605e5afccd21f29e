"""The site's Celery beat, at most one per schedule file.

It takes an exclusive lock beside the schedule file and holds it for its whole life (the lock's descriptor
survives the exec into Celery; the kernel releases it when the process dies), so a second beat on the same
schedule, such as one started by a restart while an orphan of the last run lives on, refuses to start
instead of sending every periodic task twice.

    python -m gameworld_site.beat --schedule var/celerybeat-schedule
"""
import argparse
import fcntl
import os
import sys

LOCK_HELD = 3  # the exit code of a beat that found another one on its schedule


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m gameworld_site.beat", description=__doc__.split("\n")[0])
    parser.add_argument("--schedule", required=True, help="Celery beat's schedule file")
    args = parser.parse_args(argv)
    lock_path = f"{args.schedule}.lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
        print(f"beat: another beat (pid {holder}) holds {lock_path}; not starting a second one on the same "
              "schedule", file=sys.stderr)
        return LOCK_HELD
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())  # the exec keeps the pid: this is the beat's
    os.set_inheritable(fd, True)
    os.execv(sys.executable, [sys.executable, "-m", "celery", "-A", "gameworld_site", "beat", "--loglevel", "INFO",
                              "--schedule", args.schedule])


if __name__ == "__main__":
    sys.exit(main())
