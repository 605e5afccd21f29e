"""`manage.py runsite`: the Daphne processes (two here, on one port), the worker and the beat live and die as a
group, and one beat per schedule."""
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


@pytest.fixture
def site(tmp_path):
    """A runsite on a free port with its own data folder and two server processes; yields (process, {worker, beat
    pids}, data folder, environment, [daphne pids], port)."""
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
            if "daphne" in line:
                if pid not in daphnes:
                    daphnes.append(pid)
            elif " beat" in line or "worker" in line:
                roles["beat" if " beat" in line else "worker"] = pid
        return len(daphnes) == 2 and len(roles) == 2 \
            and (tmp_path / "celerybeat-schedule.lock").read_text().strip() == str(roles["beat"])
    try:
        wait_for(started, what="two daphnes, the worker and the beat")
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


def test_killing_one_server_process_stops_the_site(site):
    process, roles, _, _, daphnes, port = site
    os.kill(daphnes[0], signal.SIGKILL)
    assert process.wait(timeout=60) is not None
    assert "exited with code -9; stopping the site." in process.stderr.read().decode()
    wait_for(lambda: not any(alive(pid) for pid in [*roles.values(), *daphnes]), timeout=60,
             what="the other children to stop")
    with pytest.raises(OSError):  # nobody answers on the port any more
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


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


def test_killing_the_worker_stops_the_site_and_its_beat(site):
    process, roles, _, _, daphnes, _ = site
    os.kill(roles["worker"], signal.SIGKILL)
    assert process.wait(timeout=60) is not None
    assert "the worker exited with code -9; stopping the site." in process.stderr.read().decode()
    wait_for(lambda: not alive(roles["beat"]) and not any(alive(pid) for pid in daphnes), timeout=60,
             what="the beat and the daphnes to stop")
