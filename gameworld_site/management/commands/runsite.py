"""Serve the site with Daphne and run its two Celery workers and beat beside it, as child processes of this command.

The site is served by GAMEWORLD_WEB_PROCESSES Daphne processes (one a core by default) on the one port: this
command binds the port itself, once per process with SO_REUSEPORT, and hands each Daphne its own listening
socket (`--fd`), so that the kernel spreads connections over them and a slow request in one process does not
hold up the others (an IPv6 address is served by one process: Daphne adopts IPv4 sockets only). Nothing a
request or a socket relies on lives in one process's memory: sessions, play logs and submission progress are
in the database, pages in the shared cache (see the settings).

The children are supervised: one that exits (a crash, the OOM killer) is started again after a back-off while the
others go on serving; one that keeps exiting stops the site with a non-zero code. Each is asked by the kernel to
stop when this command dies, however it dies (SIGKILL included). The beat runs as a child of its
own (not inside the worker), so that a killed worker cannot leave it behind, and it refuses to start while
another beat holds the same schedule (gameworld_site/beat.py).
"""
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Serve the site (Daphne, HTTP + WebSockets) with its Celery workers; Ctrl-C stops them all."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("GAMEWORLD_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("GAMEWORLD_PORT", "8000")))
        parser.add_argument("--no-worker", action="store_true", help="serve only (the workers run elsewhere)")
        parser.add_argument("--processes", type=int, default=None,
                            help="Daphne processes serving the port (default: GAMEWORLD_WEB_PROCESSES)")

    def handle(self, *args, host, port, no_worker=False, processes=None, **options):
        processes = settings.GAMEWORLD_WEB_PROCESSES if processes is None else processes
        if processes < 1:
            raise CommandError(f"--processes {processes}: must be at least 1")
        python = sys.executable
        sockets = listening_sockets(host, port, processes)
        commands = {}
        if sockets[0].family != socket.AF_INET:  # Daphne adopts IPv4 sockets only: one process binds it itself
            for sock in sockets:
                sock.close()
            sockets, processes = [], 1
            commands["daphne"] = ([python, "-m", "gameworld_site.webserver", "-b", host, "-p", str(port),
                                   "gameworld_site.asgi:application"], ())
        for number, sock in enumerate(sockets, start=1):
            name = "daphne" if processes == 1 else f"daphne {number}"
            commands[name] = ([python, "-m", "gameworld_site.webserver", "--fd", str(sock.fileno()),
                               "gameworld_site.asgi:application"], (sock.fileno(),))
        if not no_worker:
            commands.update({name: (command, ()) for name, command in worker_commands(["--loglevel", "INFO"]).items()})
            commands["the beat"] = ([python, "-m", "gameworld_site.beat",
                                     "--schedule", str(settings.DATA_DIR / "celerybeat-schedule")], ())
        supervisor = Supervisor(commands, stdout=self.stdout, stderr=self.stderr)
        try:
            supervisor.start()
            self.stdout.write(f"GameWorld is serving on http://{display_host(host)}:{port}/ "
                              f"({processes} server process{'es' if processes != 1 else ''}, "
                              f"{'with' if not no_worker else 'without'} its workers). Ctrl-C stops it.")
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            failing = supervisor.watch()
            raise CommandError(f"{failing} keeps failing; stopping the site.", returncode=1)
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            supervisor.stop()
            for sock in sockets:  # kept open until now, so that a Daphne started again serves the same socket
                sock.close()


def worker_commands(options):
    """The site's two Celery workers, by name, each with `options`: one for the interactive and replay queues, one
    for the background queue (see the settings), so that work a person waits for never queues behind background
    work."""
    worker = [sys.executable, "-m", "celery", "-A", "gameworld_site", "worker", *options]
    return {
        "the worker": worker + ["--hostname", "interactive@%h",
                                "--queues", f"{settings.INTERACTIVE_QUEUE},{settings.REPLAYS_QUEUE}",
                                "--concurrency", str(settings.GAMEWORLD_WORKER_CONCURRENCY)],
        "the background worker": worker + ["--hostname", "background@%h", "--queues", settings.BACKGROUND_QUEUE,
                                           "--concurrency", str(settings.GAMEWORLD_BACKGROUND_CONCURRENCY)],
    }


class Supervisor:
    """Starts the children and starts again one that exits, after a back-off that doubles with each exit in a row
    (an exit after STABLE_S of running starts the count again) while the others go on serving; `watch` returns
    the name of a child that exited MAX_FAILURES times in a row. A Daphne started again takes the listening socket
    its predecessor served, which this process keeps open: connections the kernel queued on it meanwhile are
    answered, not refused."""

    STABLE_S = 60
    MAX_FAILURES = 5
    FIRST_BACKOFF_S = 1

    def __init__(self, commands, *, stdout, stderr):
        self.commands, self.stdout, self.stderr = commands, stdout, stderr
        self.children, self.started_at, self.restart_at = {}, {}, {}
        self.failures = {name: 0 for name in commands}

    def start(self):
        for name in self.commands:
            self.spawn(name)

    def spawn(self, name):
        command, fds = self.commands[name]
        self.children[name] = subprocess.Popen(command, cwd=settings.BASE_DIR, pass_fds=fds,
                                               preexec_fn=stop_with_parent(os.getpid(), nice=NICENESS.get(name, 0)))
        self.started_at[name] = time.monotonic()

    def watch(self):
        while True:
            now = time.monotonic()
            for name, child in self.children.items():
                if name in self.restart_at or child.poll() is None:
                    continue
                stable = now - self.started_at[name] >= self.STABLE_S
                self.failures[name] = 1 if stable else self.failures[name] + 1
                if self.failures[name] >= self.MAX_FAILURES:
                    self.stderr.write(f"{name} exited with code {child.returncode}, {self.failures[name]} times in "
                                      "a row.")
                    return name
                backoff = self.FIRST_BACKOFF_S * 2 ** (self.failures[name] - 1)
                self.stderr.write(f"{name} exited with code {child.returncode}; starting it again in {backoff} s.")
                self.restart_at[name] = now + backoff
            for name, when in list(self.restart_at.items()):
                if now >= when:
                    del self.restart_at[name]
                    self.spawn(name)
                    self.stdout.write(f"{name} started again (pid {self.children[name].pid}).")
            time.sleep(0.2)

    def stop(self):
        running = [child for child in self.children.values() if child.poll() is None]
        for child in running:
            child.send_signal(signal.SIGTERM)
        for child in running:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()


def listening_sockets(host, port, count):
    """`count` listening sockets on host:port sharing it with SO_REUSEPORT (the kernel balances connections
    over them). The port is first bound once without SO_REUSEPORT, so that a port another program (or another
    site) listens on is refused rather than silently shared with it."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise CommandError(f"--host {host!r}: {exc}") from None
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
        sockets = []
        for _ in range(count):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            sock.listen(1024)
            sock.set_inheritable(True)
    except OSError as exc:
        for sock in locals().get("sockets", []):
            sock.close()
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sockets


def display_host(host):
    return f"[{host}]" if ":" in host else host


PR_SET_PDEATHSIG = 1  # linux/prctl.h


# The background worker (and the Chromiums it starts) yields the CPU to pages, sockets and interactive work.
NICENESS = {"the background worker": 10}


def stop_with_parent(parent_pid, *, nice=0):
    """A pre-exec hook: the child gets SIGTERM when its parent dies (the request survives the exec), at a CPU
    priority lowered by `nice`."""
    def hook():
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        os.nice(nice)
        if os.getppid() != parent_pid:  # the parent died before the request was in place
            os._exit(1)
    return hook
