"""A Celery worker killed (SIGKILL) in the middle of a verification, then restarted, completes the submission
with nothing lost and nothing doubled: the scaled configuration (PostgreSQL + Redis), entirely through
subprocesses (`manage.py`, `celery ... worker`), with a short run lease and broker visibility timeout so that
recovery happens within the test.

Two ways back are tested, each on its own: the broker redelivering the dead worker's unacknowledged message
once its visibility timeout has passed (no sweep running), and the periodic sweep (`requeue_stuck_runs`, run
by `--beat` as `runsite` does) sending the run again once its lease has run out (the visibility timeout set
far beyond the test). The figures stored after recovery must equal those of a clean replay of the same runs.
Two narrower deaths follow: a worker dying between storing the last run and recounting the submission, and
a pool process killed while its worker's main process lives on."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from sandbox import registry
from tests.scaled import (ROOT, flushed_redis, manage, psql, require_postgres_and_redis, subprocess_env,
                          throwaway_database)
from tests.worker_data import redis_db

pytestmark = [pytest.mark.scaled, pytest.mark.slow]

REDIS_DB = redis_db(8)
RUN_LEASE_S = 5
VISIBILITY_TIMEOUT_S = 6  # > the lease: a redelivered message finds the dead worker's lease already expired
SWEEP_EVERY_S = 2
RECOVERY_BOUND_S = 120
# The drill of an 8-run submission (enough runs before and after the kill to see one lost or doubled, few enough
# to replay in seconds): the 8 bundled tasks with the longest reference trajectories, longest first, so that the
# kill lands inside a replay.
TASKS = [task.id for task in sorted((t for game in registry.games() for t in game.tasks.values()),
                                    key=lambda t: -len(t.reference.actions))][:8]
KILL_AFTER_CLAIM_S = 0.0  # kill as soon as a run is taken (running): a reference replays in a few tenths of a second
KILL_ATTEMPTS = 5  # a replay may still end in the instant before the kill: then a new worker is killed again
HOLD_AFTER_RUNS = 4  # the drill kills the worker holding the fifth run of eight (GAMEWORLD_DRILL_HOLD_AFTER_RUNS)

CREATE_SUBMISSION = """
import json
import zlib
from django.contrib.auth.models import User
from submissions.management.commands._baselines import primitive
from catalogue.models import Task
from submissions.models import UploadLimits
from submissions.services import create_submission
from submissions.uploads import parse_upload
runs = []
for task_id in json.loads(%r):
    slug, version = task_id.split("@")
    game, name = slug.split("/")
    task = Task.objects.select_related("game").get(game__slug=game, slug=name, version=int(version))
    actions = [primitive(a, task.spec()) if a["type"] == "semantic" else a for a in task.reference["actions"]]
    runs.append({"task": task_id, "seed": task.reference["seed"], "actions": actions})
raw = json.dumps({"format": "gameworld.submission/1", "protocol": "paused", "task_set": "core-v15", "runs": runs,
                  "agent": {"name": %r, "model": "scripted", "interface": "cua"}}).encode()
# An account per agent: a submission is its runs, so the same runs from one account are one submission.
username = "recovery-%%08x" %% zlib.crc32(json.loads(raw)["agent"]["name"].encode())
user = User.objects.filter(username=username).first() or User.objects.create_user(username, password="pw-rec-2026!")
submission = create_submission(user=user, parsed=parse_upload(raw, user=user, limits=UploadLimits.current()))
print("SUBMISSION", submission.pk)
"""

# A clean replay of each task's reference trajectory (what the worker replays), outside Celery entirely.
CLEAN_REPLAY = """
import json
from submissions.management.commands._baselines import primitive
from catalogue.models import Task
from sandbox import Trajectory, run_trajectory
for task_id in json.loads(%r):
    slug, version = task_id.split("@")
    game, name = slug.split("/")
    task = Task.objects.select_related("game").get(game__slug=game, slug=name, version=int(version))
    actions = [primitive(a, task.spec()) if a["type"] == "semantic" else a for a in task.reference["actions"]]
    score, _ = run_trajectory(task.spec(), Trajectory(seed=task.reference["seed"], actions=actions))
    print("CLEAN", json.dumps([task_id, score.progress, score.success, score.trace_sha256]), flush=True)
"""

# The state a worker leaves when it is killed after storing the last run's figures and before recounting
# the submission: the verification runs in this process, whose recount is replaced by an immediate exit.
DIE_BEFORE_THE_LAST_RECOUNT = """
import os
from submissions import verification
from submissions.models import Run
first, last = Run.objects.filter(submission_id=%d).order_by("pk").values_list("pk", flat=True)
verification.verify_run(run_id=first)
verification.refresh_submission = lambda **kwargs: os._exit(9)
verification.verify_run(run_id=last)
"""


@pytest.fixture(scope="module")
def scaled_site():
    """A migrated throwaway database with the bundled games, a flushed Redis db, and a clean replay of TASKS
    running in the background (collected with `clean()`)."""
    require_postgres_and_redis()
    with throwaway_database("gameworld_recovery") as database_url, flushed_redis(REDIS_DB) as redis_url:
        env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "GAMEWORLD_RUN_LEASE_S": str(RUN_LEASE_S),
               "GAMEWORLD_LOG_LEVEL": "INFO"}
        manage("migrate", "--noinput", env=env, check=True)
        games = sorted({task_id.split("/")[0] for task_id in TASKS})  # not a bundle in progress elsewhere
        manage("load_games", "--no-frames", "--no-validate", *games, env=env, check=True)
        replay = subprocess.Popen([sys.executable, "manage.py", "shell", "-c", CLEAN_REPLAY % json.dumps(TASKS)],
                                  cwd=ROOT, env=subprocess_env(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        figures = {}

        def clean():
            if not figures:
                out, err = replay.communicate(timeout=180)
                assert replay.returncode == 0, f"clean replay failed:\n{out}\n{err}"
                for line in out.splitlines():
                    if line.startswith("CLEAN "):
                        task_id, progress, success, sha = json.loads(line[6:])
                        figures[task_id] = (progress, success, sha)
                assert sorted(figures) == sorted(TASKS)
            return figures

        try:
            yield {"env": env, "database_url": database_url, "redis_url": redis_url, "clean": clean}
        finally:
            if replay.poll() is None:
                replay.kill()
                replay.communicate()


class Worker:
    """`celery -A gameworld_site worker --pool prefork --concurrency 1` in a session of its own, so that the
    whole tree (pool child, Playwright driver, Chromium) can be killed at once."""

    def __init__(self, name, env, log_dir, beat=False):
        self.log_path = log_dir / f"{name}.log"
        command = [sys.executable, "-m", "celery", "-A", "gameworld_site", "worker", "--pool", "prefork",
                   "--concurrency", "1", "--loglevel", "INFO", "--hostname", f"{name}@%h",
                   "--without-gossip", "--without-mingle"]
        if beat:
            command += ["--beat", "--schedule", str(log_dir / f"{name}-celerybeat-schedule")]
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, cwd=ROOT, env=subprocess_env(env), stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self):
        return self.process.poll() is None

    def session_members(self):
        pids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if fields[0] != "Z" and int(fields[3]) == self.process.pid:  # state, ..., session id
                    pids.append(int(entry))
        return pids

    def kill(self, sig=signal.SIGKILL, grace_s=15):
        """Signal the worker's whole process group; SIGKILL whatever of its session is left after grace_s."""
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 5
        while (members := self.session_members()) and time.monotonic() < deadline:
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        self.process.wait(timeout=5)
        self.log.close()
        return members

    def tail(self, lines=40):
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def create_submission(site, tasks, agent):
    """A new submission of the tasks' references (each test names its own agent, uploaded from an account of its
    own: the same runs from the same account would answer with the first submission)."""
    result = manage("shell", "-c", CREATE_SUBMISSION % (json.dumps(tasks), agent), env=site["env"], check=True)
    return int(result.stdout.split("SUBMISSION", 1)[1].split()[0])


def submission_row(site, submission_id):
    status, runs_done, runs_total, reason = psql(
        site["database_url"],
        f"SELECT status, runs_done, runs_total, reason FROM submissions_submission WHERE id = {submission_id}")[0]
    return status, int(runs_done), int(runs_total), reason


def run_rows(site, submission_id):
    rows = psql(site["database_url"], f"""
        SELECT r.id, g.slug || '/' || t.slug || '@' || t.version, r.status, r.progress, r.success, r.trace_sha256,
               r.verify_attempts, r.error, r.mismatch, r.verified_at
        FROM submissions_run r JOIN catalogue_task t ON t.id = r.task_id JOIN catalogue_game g ON g.id = t.game_id
        WHERE r.submission_id = {submission_id} ORDER BY r.id""")
    keys = ("id", "task", "status", "progress", "success", "trace_sha256", "verify_attempts", "error", "mismatch",
            "verified_at")
    runs = [dict(zip(keys, row)) for row in rows]
    for run in runs:
        run["id"], run["verify_attempts"] = int(run["id"]), int(run["verify_attempts"])
    return runs


def broker_held_runs(site):
    """The run ids of the verify_run messages waiting in the Redis queue and held unacknowledged."""
    import base64

    import redis

    def run_id(message):
        body = json.loads(base64.b64decode(message["body"])) if message["properties"].get("body_encoding") == \
            "base64" else json.loads(message["body"])
        return body[0][0]

    client = redis.Redis.from_url(site["redis_url"])
    try:
        queued = [json.loads(raw) for raw in client.lrange("celery", 0, -1)]
        unacked = [json.loads(raw)[0] for raw in client.hvals("unacked")]  # [message, exchange, routing key]
    finally:
        client.close()

    def runs(messages):
        return sorted(run_id(m) for m in messages if m["headers"].get("task") == "submissions.tasks.verify_run")

    return {"queued": runs(queued), "unacked": runs(unacked)}


def retire_leftovers(site, submission_id):
    """After a failure, runs left pending or running must not be picked up by the next test's sweep."""
    psql(site["database_url"], f"UPDATE submissions_run SET status = 'failed', error = 'left by a failed test' "
                               f"WHERE submission_id = {submission_id} AND status IN ('pending', 'running')")


def wait_for(condition, timeout, what, workers, logs_of=()):
    """Poll condition() until it is true; fail (with the workers' logs) on timeout or if a worker exits."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        dead = [w for w in workers if not w.alive()]
        if dead or time.monotonic() > deadline:
            logs = "\n\n".join(f"--- {w.log_path.name} ---\n{w.tail()}" for w in (*logs_of, *workers))
            reason = "a worker exited" if dead else f"not within {timeout} s"
            pytest.fail(f"{what}: {reason}\n{logs}")
        time.sleep(0.1)


def wait_until_replaying(site, submission_id, worker, verified_first=1):
    """Until a run has been replaying for KILL_AFTER_CLAIM_S, once `verified_first` runs are verified."""
    def replaying_after_a_verified_run():
        verified, finished, total, replaying = psql(site["database_url"], f"""
            SELECT count(*) FILTER (WHERE status = 'verified'),
                   count(*) FILTER (WHERE status IN ('verified', 'failed')), count(*),
                   coalesce(max(id) FILTER (WHERE status = 'running'
                            AND claimed_at < now() - interval '{int(KILL_AFTER_CLAIM_S * 1000)} ms'), 0)
            FROM submissions_run WHERE submission_id = {submission_id}""")[0]
        assert int(finished) < int(total), "the worker finished every run before it could be killed"
        return int(verified) >= verified_first and int(replaying)

    wait_for(replaying_after_a_verified_run, 90, f"the worker replaying after {verified_first} verified runs", [worker])


def assert_verified_as_a_clean_replay(site, submission_id, tasks, killed_id):
    """The submission is verified; each run once, with a clean replay's figures; the killed run taken again."""
    status, runs_done, runs_total, reason = submission_row(site, submission_id)
    runs = run_rows(site, submission_id)
    assert (status, reason) == ("verified", "")
    assert runs_done == runs_total == len(runs) == len(tasks), "a run was lost or doubled"
    assert sorted(run["task"] for run in runs) == sorted(tasks)
    clean = site["clean"]()
    for run in runs:
        progress, success, sha = clean[run["task"]]
        assert run["status"] == "verified", run
        assert run["verified_at"] and run["error"] == "" and run["mismatch"] == "f", run
        assert abs(float(run["progress"]) - progress) < 1e-9 and run["success"] == ("t" if success else "f"), run
        assert run["trace_sha256"] == sha, f"{run['task']}: the replay after recovery differs from a clean one"
    by_id = {run["id"]: run for run in runs}
    assert by_id[killed_id]["verify_attempts"] >= 2, "the killed run was not taken again"
    assert all(run["verify_attempts"] == 1 for run in runs if run["id"] != killed_id), runs
    return by_id


@pytest.mark.parametrize("recovery", ["redelivery", "sweep"])
def test_a_worker_killed_mid_verification_and_restarted_completes_the_submission(scaled_site, recovery,
                                                                                  tmp_path):
    site = scaled_site
    with flushed_redis(REDIS_DB):
        # redelivery: the broker gives the message back after VISIBILITY_TIMEOUT_S, and no sweep runs.
        # sweep: the message stays with the dead worker for the whole test; only the sweep can send it again.
        env = {**site["env"], "GAMEWORLD_VISIBILITY_TIMEOUT_S": str(VISIBILITY_TIMEOUT_S if recovery == "redelivery"
                                                                     else 3600),
               "GAMEWORLD_SWEEP_EVERY_S": str(SWEEP_EVERY_S)}
        site = {**site, "env": env}
        started = time.monotonic()
        submission_id = create_submission(site, TASKS, f"recovery-{recovery}")
        workers = []
        try:
            # The first worker holds the run it takes once HOLD_AFTER_RUNS are verified, claimed and not replayed:
            # the kill lands mid-way every time, never in the instant after a replay ended.
            first = Worker("first", {**env, "GAMEWORLD_DRILL_HOLD_AFTER_RUNS": str(HOLD_AFTER_RUNS)}, tmp_path)
            workers.append(first)
            wait_until_replaying(site, submission_id, first, verified_first=HOLD_AFTER_RUNS)
            first.kill(signal.SIGKILL)
            killed_at = time.monotonic()
            assert not first.session_members()
            before = run_rows(site, submission_id)
            left_running = [run for run in before if run["status"] == "running"]
            verified_before = {run["id"]: run for run in before if run["status"] == "verified"}
            assert (len(verified_before), len(left_running)) == (HOLD_AFTER_RUNS, 1), before
            killed = left_running[0]
            assert killed["verify_attempts"] == 1
            assert submission_row(site, submission_id)[0] == "verifying"
            time.sleep(1)  # nobody is left to change anything
            assert run_rows(site, submission_id) == before

            if recovery == "redelivery":
                # The new worker looks for unacknowledged messages past their visibility timeout as it starts.
                time.sleep(max(0.0, killed_at + VISIBILITY_TIMEOUT_S + 1 - time.monotonic()))
            second = Worker("second", env, tmp_path, beat=recovery == "sweep")
            workers.append(second)
            restarted_at = time.monotonic()

            def killed_run_verified():
                return next(r for r in run_rows(site, submission_id) if r["id"] == killed["id"])["status"] \
                    in ("verified", "failed")

            wait_for(killed_run_verified, RECOVERY_BOUND_S, f"the killed run {killed['id']} verified", [second],
                     logs_of=workers[:-1])
            recovered_at = time.monotonic()
            wait_for(lambda: submission_row(site, submission_id)[0] in ("verified", "rejected"), RECOVERY_BOUND_S,
                     f"submission {submission_id} finished", [second], logs_of=workers[:-1])
            finished_at = time.monotonic()
            time.sleep(1)  # whatever the worker still holds (duplicate messages) must change nothing
            second_log = second.log_path
            held = broker_held_runs(site)
            second.kill(signal.SIGTERM)
        finally:
            for worker in workers:
                if worker.alive():
                    worker.kill(signal.SIGKILL)
            retire_leftovers(site, submission_id)

        by_id = assert_verified_as_a_clean_replay(site, submission_id, TASKS, killed["id"])
        for run_id, run in verified_before.items():
            assert by_id[run_id] == run, "a run verified before the kill was verified again"
        if recovery == "redelivery":
            assert held == {"queued": [], "unacked": []}, "the broker still holds messages after recovery"
        else:  # the dead worker's message is still unacknowledged: the sweep, not the broker, brought the run back
            assert killed["id"] in held["unacked"], held
        messages = sum("verify_run[" in line and line.endswith("] received")
                       for line in second_log.read_text(errors="replace").splitlines())
        print(f"\n[{recovery}] {len(TASKS)} runs; killed run {killed['id']} ({killed['task']}) after "
              f"{len(verified_before)} verified, {killed_at - started:.1f} s in; second worker started "
              f"{restarted_at - killed_at:.1f} s after the kill; killed run verified {recovered_at - killed_at:.1f} s "
              f"after the kill; submission verified {finished_at - killed_at:.1f} s after the kill; the second worker "
              f"received {messages} verify_run messages for {len(TASKS) - len(verified_before)} unfinished runs; "
              f"killed run verify_attempts {by_id[killed['id']]['verify_attempts']}")


def test_a_worker_killed_between_storing_the_last_run_and_recounting_does_not_strand_the_submission(
        scaled_site, tmp_path):
    """The last run's figures are stored but the worker dies before `refresh_submission`: the run is verified,
    its message may come back, and the sweep runs; the submission must still end up verified."""
    site = scaled_site
    with flushed_redis(REDIS_DB):
        env = {**site["env"], "GAMEWORLD_VISIBILITY_TIMEOUT_S": str(VISIBILITY_TIMEOUT_S),
               "GAMEWORLD_SWEEP_EVERY_S": "1"}
        site = {**site, "env": env}
        submission_id = create_submission(site, TASKS[-2:], "recovery-before-recount")
        command = [sys.executable, "manage.py", "shell", "-c", DIE_BEFORE_THE_LAST_RECOUNT % submission_id]
        died = subprocess.Popen(command, cwd=ROOT, env=subprocess_env(env), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            _, died_stderr = died.communicate(timeout=120)
        finally:
            try:
                os.killpg(died.pid, signal.SIGKILL)  # its Chromium, if the exit left it behind
            except ProcessLookupError:
                pass
        assert died.returncode == 9, died_stderr
        runs = run_rows(site, submission_id)
        assert [run["status"] for run in runs] == ["verified", "verified"]
        assert submission_row(site, submission_id)[:2] == ("verifying", 1)
        # Both runs' messages are still queued; a worker with the sweep takes them and sweeps every second.
        worker = Worker("after-crash", env, tmp_path, beat=True)
        try:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and submission_row(site, submission_id)[0] == "verifying":
                time.sleep(0.5)
            log = worker.tail(200)
        finally:
            worker.kill(signal.SIGKILL)
        status, runs_done, runs_total, _ = submission_row(site, submission_id)
        assert (status, runs_done, runs_total) == ("verified", 2, 2), \
            f"the submission is stranded: {status}, {runs_done} of {runs_total} runs counted\n{log}"


def pool_processes(worker):
    """The prefork pool's child processes of the worker's main process."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[1]) == worker.process.pid:
                children.append(int(entry))
    return children


def test_a_worker_whose_pool_process_is_killed_mid_verification_completes_the_submission(scaled_site, tmp_path):
    """The pool process replaying the last run is SIGKILLed (the out-of-memory killer's choice, say) and the
    worker's main process lives on, as the scaled configuration runs it (`celery -A gameworld_site worker`, no
    beat). Celery gives the message back at once (reject_on_worker_lost), well inside the run's lease: the run
    must still be verified, within a few leases."""
    site = scaled_site
    tasks = TASKS[:3]
    lease_s = 6
    with flushed_redis(REDIS_DB):
        env = {**site["env"], "GAMEWORLD_RUN_LEASE_S": str(lease_s), "GAMEWORLD_VISIBILITY_TIMEOUT_S": "3600"}
        site = {**site, "env": env}
        worker = Worker("pool-killed", env, tmp_path)
        try:
            for attempt in range(1, KILL_ATTEMPTS + 1):  # a submission of its own each time: its last run is killed
                submission_id = create_submission(site, tasks, f"recovery-pool-process-{attempt}")
                wait_until_replaying(site, submission_id, worker, verified_first=len(tasks) - 1)
                pool = pool_processes(worker)
                assert len(pool) == 1, pool
                os.kill(pool[0], signal.SIGKILL)
                killed_at = time.monotonic()
                left_running = [run for run in run_rows(site, submission_id) if run["status"] == "running"]
                if left_running:
                    break
                wait_for(lambda: len(pool_processes(worker)) == 1, 30, "the worker's new pool process", [worker])
            else:
                pytest.fail(f"the last replay ended in the instant before each of {KILL_ATTEMPTS} kills")
            killed = left_running[0]
            bound = lease_s + 10
            while time.monotonic() < killed_at + bound and submission_row(site, submission_id)[0] == "verifying":
                assert worker.alive(), worker.tail()
                time.sleep(0.5)
            finished_after = time.monotonic() - killed_at
            log = worker.tail(12)
            runs = run_rows(site, submission_id)
            held = broker_held_runs(site)
        finally:
            worker.kill(signal.SIGKILL)
            retire_leftovers(site, submission_id)
        killed_now = next(r for r in runs if r["id"] == killed["id"])
        assert submission_row(site, submission_id)[0] == "verified", \
            f"not verified {bound} s after the pool process was killed: run {killed['id']} is {killed_now['status']} " \
            f"(verify_attempts {killed_now['verify_attempts']}), the broker holds {held}\n{log}"
        assert_verified_as_a_clean_replay(site, submission_id, tasks, killed["id"])
        print(f"\n[pool process killed] run {killed['id']} ({killed['task']}) verified again; submission verified "
              f"{finished_after:.1f} s after the kill")


class Site(Worker):
    """`manage.py runsite` (Daphne, the worker and its beat as children) on a free port, in a session of its own."""

    def __init__(self, name, env, log_dir):
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.log_path = log_dir / f"{name}.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([sys.executable, "manage.py", "runsite", "--port", str(port)], cwd=ROOT,
                                        env=subprocess_env(env), stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def beats(self):
        """The pids of this site's running beats."""
        return [pid for pid in self.session_members() if " beat " in _cmdline(pid)]  # celery ... beat --loglevel


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as found:
            return found.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_the_whole_site_killed_mid_verification_and_restarted_completes_the_submission(scaled_site, tmp_path):
    """SIGKILL of the whole site (`runsite` with Daphne, the worker, its pool and the beat, all at once) while a
    run replays; a new `runsite` on the same data folder finishes the submission with every run once, and runs
    one beat (the dead beat's schedule lock is taken over, not shared)."""
    site = scaled_site
    with flushed_redis(REDIS_DB):
        env = {**site["env"], "GAMEWORLD_VISIBILITY_TIMEOUT_S": str(VISIBILITY_TIMEOUT_S),
               "GAMEWORLD_SWEEP_EVERY_S": str(SWEEP_EVERY_S), "GAMEWORLD_DATA_DIR": str(tmp_path / "data"),
               "GAMEWORLD_WORKER_CONCURRENCY": "1"}
        site = {**site, "env": env}
        submission_id = create_submission(site, TASKS, "recovery-whole-site")
        sites = []
        try:
            for attempt in range(1, KILL_ATTEMPTS + 1):
                first = Site(f"site-{attempt}", env, tmp_path)
                sites.append(first)
                wait_until_replaying(site, submission_id, first)
                # Every process of the site at once, as a crash of its machine or container would: the worker
                # gets no chance to finish its replay (a SIGKILL of runsite alone stops the worker warmly).
                first.kill(signal.SIGKILL, grace_s=0)
                killed_at = time.monotonic()
                assert not first.session_members()
                before = run_rows(site, submission_id)
                left_running = [run for run in before if run["status"] == "running"]
                if left_running:
                    break
            else:
                pytest.fail(f"no replay was caught by the kill in {KILL_ATTEMPTS} attempts: {before}")
            killed = left_running[0]
            verified_before = {run["id"]: run for run in before if run["status"] == "verified"}

            second = Site("site-restarted", env, tmp_path)
            sites.append(second)
            remaining = len(TASKS) - len(verified_before)  # the new site replays all of these (a busy machine)
            wait_for(lambda: submission_row(site, submission_id)[0] in ("verified", "rejected"),
                     RECOVERY_BOUND_S + 15 * remaining, f"submission {submission_id} finished after the restart",
                     [second], logs_of=sites[:-1])
            finished_at = time.monotonic()
            beats = second.beats()
            schedule_lock = (tmp_path / "data" / "celerybeat-schedule.lock").read_text().strip()
        finally:
            for running in sites:
                if running.alive():
                    running.kill(signal.SIGKILL)
            retire_leftovers(site, submission_id)

        assert len(beats) == 1 and schedule_lock == str(beats[0]), (beats, schedule_lock)
        by_id = assert_verified_as_a_clean_replay(site, submission_id, TASKS, killed["id"])
        for run_id, run in verified_before.items():
            assert by_id[run_id] == run, "a run verified before the kill was verified again"
        print(f"\n[whole site killed] {len(TASKS)} runs; killed run {killed['id']} ({killed['task']}) after "
              f"{len(verified_before)} verified; submission verified {finished_at - killed_at:.1f} s after the kill, "
              f"one beat")
