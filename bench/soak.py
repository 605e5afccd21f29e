"""The site kept up under steady mixed traffic while a worker and a Daphne process are killed (kill -9) once each.

Sets up the embedded default in a temporary data folder (the developer's data is never touched), starts
`manage.py runsite` (two Daphne processes, the worker, the beat) on a free loopback port, and measures:
  idle   pages and API polls at the steady rate with nothing else going on: the baseline of this run
  soak   the same, plus uploads (one run each, through the API), human players on the play socket and hosted
         agents on the agent socket, each at a steady pace; the worker is killed a third of the way through and
         one Daphne two thirds of the way (the supervisor starts each again)
then waits for every uploaded run to be verified and counts runs lost (uploaded, never verified) and doubled
(stored by two replays). A GET that fails on a connection the kill cut is tried once more, as a browser does; so
is an upload (`upload_retries`: the same runs from the same account are the same submission, never a second one);
a socket the kill cut reconnects and resumes its episode (counted as `reconnects`, not as errors).

    .venv/bin/python bench/soak.py [--seconds 45] [--players 5] [--agents 3]   (--seconds 300 for a longer soak)
Last line: errors=.. lost_runs=.. doubled_runs=.. uploads=.. p99_ratio_pages=.. p99_ratio_api=.. p99_ms_pages=..
p99_ms_pages_idle=.. p99_ms_api=.. p99_ms_api_idle=.. p99_ms_play=.. p99_ms_agent=.. restarts=.. reconnects=..
"""
import argparse
import asyncio
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import site_setup  # noqa: E402  (the bench folder is on sys.path when a bench runs)
from site_load import free_port, percentile, stop_site, wait_until_up

PAGES = ["/", "/games/", "/leaderboard/export.csv", "/evaluate/"]
PAGE_EVERY_S, POLL_EVERY_S, UPLOAD_EVERY_S, ACTION_EVERY_S = 0.25, 0.5, 3.0, 0.5
IDLE_S = 10
SETTLE_S = 180  # the longest wait for the uploaded runs to be verified after the soak
AGENT = {"name": "soak-agent", "model": "scripted", "interface": "cua"}
TASK = "breakout/rally-5@2"


def prepare(players, agents):
    """Migrate, load the games, collect static files; accounts: players (session cookies), agents and uploaders
    (API tokens). Returns (cookies, agent keys, uploader keys, upload documents, a submission to poll)."""
    site_setup.set_up()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from catalogue.models import TaskSet
    from submissions.management.commands._baselines import primitive
    from submissions.models import ApiToken

    call_command("collectstatic", "--noinput", verbosity=0)
    cookies = []
    for index in range(players):
        client = Client()
        client.force_login(User.objects.create_user(f"soak-player{index}", password="bench-not-used-1"))
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    agent_keys = [ApiToken.issue(user=User.objects.create_user(f"soak-agent{i}"), name="soak")[1] for i in range(agents)]
    uploader_keys = [ApiToken.issue(user=User.objects.create_user(f"soak-uploader{i}"), name="soak")[1] for i in range(4)]
    task_set = TaskSet.objects.get(is_default=True)
    documents = []  # one run each, all different (a submission is its runs)
    for task in task_set.tasks.select_related("game").order_by("pk"):
        actions = [primitive(a, task.spec()) for a in task.reference["actions"][:12]]
        for seed in task.seeds:
            documents.append({"format": "gameworld.submission/1", "protocol": "paused", "task_set": task_set.slug,
                              "agent": {"name": f"soak-{len(documents)}", "model": "m", "interface": "cua"},
                              "runs": [{"task": task.task_id, "seed": seed, "actions": actions}]})
    connections.close_all()
    return cookies, agent_keys, uploader_keys, documents


class Traffic:
    """Every kind of traffic at its steady pace until `until`; what each saw."""

    def __init__(self, base, until):
        self.base, self.until = base, until
        self.latencies = {"pages": [], "api": [], "play": [], "agent": []}
        self.errors, self.reconnects, self.uploaded, self.upload_retries = [], 0, [], 0
        self.in_flight = set()

    async def get(self, client, path, kind):
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                response = await client.get(path)
            except Exception as exc:  # noqa: BLE001  (a cut connection: tried once more, then reported)
                if attempt == 2:
                    self.errors.append(f"{kind} {path}: {type(exc).__name__}")
                continue
            self.latencies[kind].append((time.perf_counter() - started) * 1000)
            if response.status_code not in (200, 304):
                self.errors.append(f"{kind} {path}: {response.status_code}")
            return

    async def steady(self, every_s, action):
        tick = time.monotonic()
        while tick < self.until:
            request = asyncio.create_task(action())
            self.in_flight.add(request)
            request.add_done_callback(self.in_flight.discard)
            tick += every_s
            await asyncio.sleep(max(0.0, tick - time.monotonic()))

    async def pages(self, client):
        turn = iter(range(10**9))
        await self.steady(PAGE_EVERY_S, lambda: self.get(client, PAGES[next(turn) % len(PAGES)], "pages"))

    async def polls(self, client, submission_path):
        await self.steady(POLL_EVERY_S, lambda: self.get(client, submission_path, "api"))

    async def uploads(self, client, keys, documents):
        turn = iter(range(10**9))

        async def upload():
            n = next(turn)
            for attempt in (1, 2):
                try:
                    response = await client.post("/api/v1/submissions", json=documents[n % len(documents)],
                                                  headers={"Authorization": f"Token {keys[n % len(keys)]}"})
                except Exception as exc:  # noqa: BLE001  (a cut connection)
                    # Safe to send again: a submission is its runs, so the same runs from the same account are
                    # answered with the submission they made the first time, never stored twice.
                    if attempt == 2:
                        self.errors.append(f"upload: {type(exc).__name__}")
                    else:
                        self.upload_retries += 1
                    continue
                if response.status_code in (200, 201):
                    self.uploaded.append(response.json()["id"])
                else:
                    self.errors.append(f"upload: {response.status_code} {response.text[:120]}")
                return
        await self.steady(UPLOAD_EVERY_S, upload)

    async def play_socket(self, url, headers, opening, kind):
        """Open the socket, send `opening` (its replies up to a status and a frame), then act every ACTION_EVERY_S
        until the end; a cut connection reconnects and resumes (the server stored every action)."""
        import websockets

        origin = self.base
        while time.monotonic() < self.until:
            try:
                async with websockets.connect(url, origin=origin, additional_headers=headers, open_timeout=60,
                                              compression=None) as sock:
                    for message in opening:
                        await sock.send(json.dumps(message))
                        status = await self.status_and_frame(sock)
                    if not opening:  # the play socket sends its status and frame on connecting
                        status = await self.status_and_frame(sock)
                    while time.monotonic() < self.until and not status.get("done"):
                        await asyncio.sleep(ACTION_EVERY_S)
                        started = time.perf_counter()
                        await sock.send(json.dumps({"type": "action", "step": status["step"],
                                                    "action": {"type": "press_key", "key": "ArrowLeft"}}))
                        status = await self.status_and_frame(sock)
                        self.latencies[kind].append((time.perf_counter() - started) * 1000)
                    return
            except (websockets.ConnectionClosed, OSError, asyncio.TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(1)
            except RuntimeError as exc:
                self.errors.append(f"{kind}: {exc}")
                return

    @staticmethod
    async def status_and_frame(sock):
        while True:
            data = await asyncio.wait_for(sock.recv(), 120)
            message = json.loads(data) if isinstance(data, str) else {}
            if message.get("type") == "refused":
                raise RuntimeError(f"refused: {message['reason']}")
            if message.get("type") == "status":
                await asyncio.wait_for(sock.recv(), 120)  # its frame
                return message
            if message.get("type") == "evaluation":
                return message


def descendants(pid):
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                child = int(stat.parent.name)
                found += [child, *descendants(child)]
        except (OSError, ValueError):
            continue
    return found


def child_with(site_pid, marker):
    for pid in descendants(site_pid):
        try:
            if marker in Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode():
                return pid
        except OSError:
            continue
    return None


async def kill_at(delay_s, site_pid, marker, what, killed):
    """SIGKILL the runsite child whose command line has `marker` (and everything under it) after `delay_s`."""
    await asyncio.sleep(delay_s)
    pid = child_with(site_pid, marker)
    for victim in [pid, *descendants(pid)] if pid else []:
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            pass
    killed.append(f"{what} (pid {pid}) at {delay_s:.0f} s" if pid else f"no {what} found to kill")


async def phase(base, seconds, *, polled, busy=None, site_pid=None):
    import httpx

    traffic = Traffic(base, time.monotonic() + seconds)
    killed = []
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=8)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        jobs = [traffic.pages(client), traffic.polls(client, polled)]
        if busy:
            cookies, agent_keys, uploader_keys, documents, sessions = busy
            ws = base.replace("http://", "ws://")
            jobs.append(traffic.uploads(client, uploader_keys, documents))
            jobs += [traffic.play_socket(f"{ws}/ws/play/{session}/", {"Cookie": cookie}, [], "play")
                     for session, cookie in zip(sessions, cookies)]
            for n, key in enumerate(agent_keys):  # an evaluation each, continued after a reconnect
                evaluation = await begin_evaluation(ws, key)
                jobs.append(traffic.play_socket(f"{ws}/ws/agent/", {"Authorization": f"Token {key}"},
                                                [{"type": "begin", "evaluation": evaluation},
                                                 {"type": "reset", "task": TASK, "seed": 1 + n % 3}], "agent"))
            jobs += [kill_at(seconds / 3, site_pid, " worker ", "the worker", killed),
                     kill_at(2 * seconds / 3, site_pid, "gameworld_site.webserver", "a Daphne", killed)]
        await asyncio.gather(*jobs)
        await asyncio.gather(*traffic.in_flight)  # the last requests answered before the client closes
    return traffic, killed


async def begin_evaluation(ws, key):
    import websockets

    async with websockets.connect(f"{ws}/ws/agent/", additional_headers={"Authorization": f"Token {key}"},
                                  open_timeout=60) as sock:
        await sock.send(json.dumps({"type": "begin", "agent": AGENT}))
        return json.loads(await asyncio.wait_for(sock.recv(), 60))["id"]


def first_upload(base, key, document):
    """A submission for the API polls to follow, uploaded before any measurement."""
    import httpx

    return httpx.post(f"{base}/api/v1/submissions", json=document, headers={"Authorization": f"Token {key}"},
                      timeout=60).json()["id"]


def play_sessions(count):
    from django.contrib.auth.models import User

    from catalogue.models import TaskSet
    from humanplay import services
    from humanplay.models import PlaySession

    task = next(t for t in TaskSet.objects.get(is_default=True).tasks.select_related("game") if t.task_id == TASK)
    return [services.start_session(user=User.objects.get(username=f"soak-player{i}"), task=task,
                                   mode=PlaySession.Mode.PRACTICE).pk for i in range(count)]


def settle(submission_ids):
    """Wait for the uploaded submissions' runs; (lost, doubled, runs)."""
    from django.db.models import Count

    from submissions.models import Run, SubmissionEvent

    ids = set(submission_ids)
    deadline = time.monotonic() + SETTLE_S
    while time.monotonic() < deadline and Run.objects.filter(submission_id__in=ids).exclude(
            status__in=["verified", "failed"]).exists():
        time.sleep(1)
    runs = list(Run.objects.filter(submission_id__in=ids).values_list("pk", "status"))
    lost = sum(status != "verified" for _, status in runs)
    stored = SubmissionEvent.objects.filter(submission_id__in=ids, message__contains=") replayed:")
    per_run = {}
    for message in stored.values_list("message", flat=True):
        per_run[message.split()[1]] = per_run.get(message.split()[1], 0) + 1
    doubled = sum(n > 1 for n in per_run.values()) + (len(runs) - Run.objects.filter(submission_id__in=ids)
                                                      .values("task", "seed", "submission").annotate(n=Count("pk"))
                                                      .count())
    return lost, doubled, len(runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=45, help="the soak's length (the default run is under "
                                                                  "about a minute of traffic; 300 for a longer soak)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the temporary data folder")
    args = parser.parse_args()
    began = time.perf_counter()
    with site_setup.temporary_site(keep=args.keep) as tmp:
        cookies, agent_keys, uploader_keys, documents = prepare(args.players, args.agents)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = start_site_with_worker(tmp, port)
        try:
            asyncio.run(wait_until_up(base, "/api/openapi.json", process, tmp, timeout=120))
            polled = f"/api/v1/submissions/{first_upload(base, uploader_keys[0], documents.pop())}"
            print(f"site up on {base} after {time.perf_counter() - began:.1f} s")
            idle, _ = asyncio.run(phase(base, IDLE_S, polled=polled))
            sessions = play_sessions(args.players)
            busy = (cookies, agent_keys, uploader_keys, documents, sessions)
            soak, killed = asyncio.run(phase(base, args.seconds, polled=polled, busy=busy, site_pid=process.pid))
            print("killed: " + "; ".join(killed))
            lost, doubled, runs = settle(soak.uploaded)
            log = (tmp / "runsite.log").read_text(errors="replace")
            restarts = log.count("started again (pid")
        finally:
            stop_site(process)
    p99 = {kind: percentile(values, 99) for kind, values in soak.latencies.items()}
    idle_p99 = {kind: percentile(idle.latencies[kind], 99) for kind in ("pages", "api")}
    for kind, values in soak.latencies.items():
        print(f"{kind:6s} {len(values):5d} answers  p50 {percentile(values, 50):7.1f} ms  p99 {p99[kind]:7.1f} ms"
              + (f"  (idle p99 {idle_p99[kind]:.1f} ms)" if kind in idle_p99 else ""))
    errors = idle.errors + soak.errors
    for error in sorted(set(errors)):
        print(f"error x{errors.count(error)}: {error}")
    print(f"{len(set(soak.uploaded))} submissions, {runs} runs; total {time.perf_counter() - began:.1f} s")
    print(f"errors={len(errors)} lost_runs={lost} doubled_runs={doubled} uploads={len(set(soak.uploaded))} "
          f"p99_ratio_pages={p99['pages'] / idle_p99['pages']:.2f} p99_ratio_api={p99['api'] / idle_p99['api']:.2f} "
          f"p99_ms_pages={p99['pages']:.0f} p99_ms_pages_idle={idle_p99['pages']:.0f} p99_ms_api={p99['api']:.0f} "
          f"p99_ms_api_idle={idle_p99['api']:.0f} p99_ms_play={p99['play']:.0f} p99_ms_agent={p99['agent']:.0f} "
          f"restarts={restarts} reconnects={soak.reconnects} upload_retries={soak.upload_retries} "
          f"seconds={args.seconds:g}")


def start_site_with_worker(tmp, port):
    """runsite with its worker and beat (site_load's start_site serves without them), two Daphne processes."""
    log = open(tmp / "runsite.log", "w")
    return subprocess.Popen([site_setup.sys.executable, "manage.py", "runsite", "--processes", "2", "--host",
                             "127.0.0.1", "--port", str(port)], cwd=site_setup.ROOT, env=dict(os.environ),
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


if __name__ == "__main__":
    main()
