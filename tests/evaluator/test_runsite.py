"""`manage.py runsite`: Daphne, the worker and the beat live and die as a group, and one beat per schedule."""
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
    """A runsite on a free port with its own data folder; yields (process, {daphne, worker, beat pids})."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "GAMEWORLD_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "gameworld_site.settings"}
    env.pop("REDIS_URL", None), env.pop("DATABASE_URL", None)
    process = subprocess.Popen([sys.executable, "manage.py", "runsite", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    roles = {}

    def started():
        for pid in children_of(process.pid):
            line = cmdline(pid)
            role = "daphne" if "daphne" in line else "beat" if " beat" in line else "worker" if "worker" in line else None
            if role:
                roles[role] = pid
        return len(roles) == 3 and (tmp_path / "celerybeat-schedule.lock").read_text().strip() == str(roles["beat"])
    try:
        wait_for(started, what="daphne, the worker and the beat")
        yield process, roles, tmp_path, env
    finally:
        if process.poll() is None:
            process.kill()
        for pid in roles.values():
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_second_beat_on_the_same_schedule_refuses_to_start(site):
    process, roles, data_dir, env = site
    second = subprocess.run([sys.executable, "-m", "gameworld_site.beat", "--schedule",
                             str(data_dir / "celerybeat-schedule")], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert second.returncode == LOCK_HELD
    assert f"another beat (pid {roles['beat']}) holds" in second.stderr
    assert alive(roles["beat"])


def test_killing_the_site_stops_all_its_children(site):
    process, roles, _, _ = site
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in roles.values()), timeout=60, what="the children to stop")


def test_killing_the_worker_stops_the_site_and_its_beat(site):
    process, roles, _, _ = site
    os.kill(roles["worker"], signal.SIGKILL)
    assert process.wait(timeout=60) is not None
    assert "the worker exited with code -9; stopping the site." in process.stderr.read().decode()
    wait_for(lambda: not alive(roles["beat"]) and not alive(roles["daphne"]), timeout=60,
             what="the beat and daphne to stop")
