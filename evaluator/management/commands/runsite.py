"""Serve the site with Daphne and run its Celery worker and beat beside it, as child processes of this command.

The site is served by GAMEWORLD_WEB_PROCESSES Daphne processes (one a core by default) on the one port: this
command binds the port itself, once per process with SO_REUSEPORT, and hands each Daphne its own listening
socket (`--fd`), so that the kernel spreads connections over them and a slow request in one process does not
hold up the others (an IPv6 address is served by one process: Daphne adopts IPv4 sockets only). Nothing a
request or a socket relies on lives in one process's memory: sessions, play logs and submission progress are
in the database, pages in the shared cache (see the settings).

The children live and die as a group: each is asked by the kernel to stop when this command dies, however
it dies (SIGKILL included), and when one child exits the others are stopped. The beat runs as a child of its
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
    help = "Serve the site (Daphne, HTTP + WebSockets) with its Celery worker; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("GAMEWORLD_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("GAMEWORLD_PORT", "8000")))
        parser.add_argument("--no-worker", action="store_true", help="serve only (workers run elsewhere)")
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
            commands["daphne"] = ([python, "-m", "daphne", "-b", host, "-p", str(port),
                                   "gameworld_site.asgi:application"], ())
        for number, sock in enumerate(sockets, start=1):
            name = "daphne" if processes == 1 else f"daphne {number}"
            commands[name] = ([python, "-m", "daphne", "--fd", str(sock.fileno()), "gameworld_site.asgi:application"],
                              (sock.fileno(),))
        if not no_worker:
            commands["the worker"] = ([python, "-m", "celery", "-A", "gameworld_site", "worker", "--loglevel", "INFO",
                                       "--concurrency", str(settings.GAMEWORLD_WORKER_CONCURRENCY)], ())
            commands["the beat"] = ([python, "-m", "gameworld_site.beat",
                                     "--schedule", str(settings.DATA_DIR / "celerybeat-schedule")], ())
        try:
            children = {name: subprocess.Popen(command, cwd=settings.BASE_DIR, pass_fds=fds,
                                               preexec_fn=stop_with_parent(os.getpid()))
                        for name, (command, fds) in commands.items()}
        finally:
            for sock in sockets:  # each Daphne holds its own copy; a socket dies with the process serving it
                sock.close()
        self.stdout.write(f"GameWorld is serving on http://{display_host(host)}:{port}/ "
                          f"({processes} server process{'es' if processes != 1 else ''}, "
                          f"{'with' if not no_worker else 'without'} its worker). Ctrl-C stops it.")
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            while all(child.poll() is None for child in children.values()):
                time.sleep(0.5)
            name, failed = next((n, c) for n, c in children.items() if c.poll() is not None)
            self.stderr.write(f"{name} exited with code {failed.returncode}; stopping the site.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children.values():
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


def stop_with_parent(parent_pid):
    """A pre-exec hook: the child gets SIGTERM when its parent dies (the request survives the exec)."""
    def hook():
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent_pid:  # the parent died before the request was in place
            os._exit(1)
    return hook
