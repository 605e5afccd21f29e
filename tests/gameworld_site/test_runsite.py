"""`manage.py runsite`: the Daphne processes (two here, on one port), the worker and the beat; a child that dies is
started again while the others serve; one that keeps failing stops the site; one beat per schedule."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gameworld_site.beat import LOCK_HELD

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def children_of(pid):
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cmdline(pid):
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def wait_for(predicate, timeout=60, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


# What tells each of runsite's other children apart in its command line.
ROLE_MARKERS = {"worker": "interactive@", "background worker": "background@", "beat": " beat"}


@pytest.fixture
def site(tmp_path):
    """A runsite on a free port with its own data folder and two server processes; yields (process, {worker,
    background worker, beat pids}, data folder, environment, [daphne pids], port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "GAMEWORLD_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "gameworld_site.settings",
           "GAMEWORLD_WEB_PROCESSES": "2"}
    env.pop("REDIS_URL", None), env.pop("DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "manage.py", "runsite", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    roles, daphnes = {}, []

    def started():
        for pid in children_of(process.pid):
            line = cmdline(pid)
            if "gameworld_site.webserver" in line:
                if pid not in daphnes:
                    daphnes.append(pid)
            else:
                role = next((role for role, marker in ROLE_MARKERS.items() if marker in line), None)
                if role:
                    roles[role] = pid
        return len(daphnes) == 2 and len(roles) == len(ROLE_MARKERS) \
            and (tmp_path / "celerybeat-schedule.lock").read_text().strip() == str(roles["beat"])
    try:
        wait_for(started, what="two daphnes, the two workers and the beat")
        yield process, roles, tmp_path, env, daphnes, port
    finally:
        if process.poll() is None:
            process.kill()
        for pid in [*roles.values(), *daphnes]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def socket_inodes(pid):
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:["):-1]))
    return inodes


def server_side_connections(port):
    """{client port: socket inode} of the connections the site accepted on `port` (from /proc/net/tcp)."""
    found = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state, inode = fields[1], fields[2], fields[3], int(fields[9])
        if state == "01" and int(local.split(":")[1], 16) == port:
            found[int(remote.split(":")[1], 16)] = inode
    return found


def test_two_server_processes_answer_on_the_one_port(site):
    process, roles, _, _, daphnes, port = site
    clients = []
    try:
        for _ in range(16):  # each connection goes to one of the two (the kernel spreads them)
            client = socket.create_connection(("127.0.0.1", port), timeout=60)
            client.sendall(b"GET /api/no-such-thing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert client.recv(4096).startswith(b"HTTP/1.1 404")
            clients.append(client)
        accepted = server_side_connections(port)
        owners = {pid: socket_inodes(pid) for pid in daphnes}
        answered_by = {next(pid for pid, inodes in owners.items() if accepted[c.getsockname()[1]] in inodes)
                       for c in clients}
        assert answered_by == set(daphnes)
    finally:
        for client in clients:
            client.close()


def get(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=60) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
        return client.recv(4096)


def started_again(process, old_pid, marker):
    """The pid of the child whose command line has `marker` and that replaced `old_pid`."""
    found = []

    def replaced():
        found[:] = [pid for pid in children_of(process.pid) if pid != old_pid and marker in cmdline(pid)]
        return bool(found)
    wait_for(replaced, timeout=90, what=f"a new {marker}")
    return found[0]


def test_a_killed_server_process_is_started_again_and_no_request_is_lost(site):
    process, roles, _, _, daphnes, port = site
    os.kill(daphnes[0], signal.SIGKILL)
    # Asked at once, while one process is down: each is answered (by the other, or queued for the new one).
    assert all(get(port, "/api/no-such-thing").startswith(b"HTTP/1.1 404") for _ in range(8))
    new = started_again(process, daphnes[0], "gameworld_site.webserver")
    wait_for(lambda: new in {owner for owner in daphnes_serving(port, [new, daphnes[1]])}, timeout=90,
             what="the new server process to answer")
    assert process.poll() is None and all(alive(pid) for pid in [daphnes[1], *roles.values()])
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    assert "daphne 1 exited with code -9; starting it again in 1 s." in process.stderr.read().decode()


def daphnes_serving(port, pids):
    """The server processes that answered 24 requests (the kernel spreads connections over both)."""
    owners = set()
    for _ in range(24):
        with socket.create_connection(("127.0.0.1", port), timeout=60) as client:
            client.sendall(b"GET /api/no-such-thing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert client.recv(4096).startswith(b"HTTP/1.1 404")
            accepted = server_side_connections(port)[client.getsockname()[1]]
            owners |= {pid for pid in pids if accepted in socket_inodes(pid)}
    return owners


def niceness(pid):
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_the_background_worker_yields_the_cpu_to_the_pages_and_the_interactive_worker(site):
    _, roles, _, _, daphnes, _ = site
    assert niceness(roles["background worker"]) == niceness(os.getpid()) + 10
    assert all(niceness(pid) == niceness(os.getpid()) for pid in [roles["worker"], *daphnes])


@pytest.mark.parametrize("role", ["worker", "beat"])
def test_a_killed_worker_or_beat_is_started_again_while_the_site_serves(site, role):
    process, roles, data_dir, _, daphnes, port = site
    os.kill(roles[role], signal.SIGKILL)
    assert get(port, "/api/no-such-thing").startswith(b"HTTP/1.1 404")
    new = started_again(process, roles[role], ROLE_MARKERS[role])
    if role == "beat":  # it holds the schedule again
        wait_for(lambda: (data_dir / "celerybeat-schedule.lock").read_text().strip() == str(new), timeout=60,
                 what="the new beat to hold the schedule")
    assert process.poll() is None and all(alive(pid) for pid in daphnes)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    assert f"the {role} exited with code -9; starting it again in 1 s." in process.stderr.read().decode()


def test_a_child_that_keeps_failing_stops_the_site_with_a_non_zero_code(tmp_path):
    """A beat finds its schedule held by another (here, this test) every time it starts."""
    import fcntl

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    lock = os.open(tmp_path / "celerybeat-schedule.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)
    env = {**os.environ, "GAMEWORLD_DATA_DIR": str(tmp_path), "GAMEWORLD_WEB_PROCESSES": "1"}
    env.pop("REDIS_URL", None), env.pop("DATABASE_URL", None)
    try:
        result = subprocess.run([sys.executable, "manage.py", "runsite", "--port", str(port)], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=600)
    finally:
        os.close(lock)
    assert result.returncode == 1
    assert "the beat exited with code 3; starting it again in 8 s." in result.stderr
    assert "the beat keeps failing; stopping the site." in result.stderr


def test_a_second_beat_on_the_same_schedule_refuses_to_start(site):
    process, roles, data_dir, env, _, _ = site
    second = subprocess.run([sys.executable, "-m", "gameworld_site.beat", "--schedule",
                             str(data_dir / "celerybeat-schedule")], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert second.returncode == LOCK_HELD
    assert f"another beat (pid {roles['beat']}) holds" in second.stderr
    assert alive(roles["beat"])


def test_killing_the_site_stops_all_its_children(site):
    process, roles, _, _, daphnes, _ = site
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in [*roles.values(), *daphnes]), timeout=60,
             what="the children to stop")
