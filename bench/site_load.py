"""The site under load: many clients at once against the site as `bin/serve` runs it.

Sets up the embedded default in a temporary data folder (SQLite, the file cache, collected static files; the
developer's database is never touched), fills it with N verified submissions over the default task set and
human runs (as bench/leaderboard_render.py does), starts `manage.py runsite --no-worker` on a free loopback
port (the worker is left out: it does not serve pages) and loads it with C concurrent keep-alive clients
(httpx, asyncio), for a fixed time each (the targets take turns, a few times over), against:
  static  a static file (served by WhiteNoise inside the same Django stack): the server's ceiling, this run
  home    the leaderboard's home page (cached under the data version)
  home304 the home page again with If-None-Match from its ETag (what a browser's reload sends), if it has one
  csv     the table's CSV export
  api     the submission status API, /api/v1/submissions/<id> (what an uploading client polls; 120 runs)

    .venv/bin/python bench/site_load.py [--clients 20] [--seconds 5] [--rounds 3] [--submissions 100] [--processes N]
Last line: ratio=<home rps / static rps> api_ratio=<api rps / static rps> p99_ms_home=.. p99_ms_api=..
csv_ratio=.. static_rps=.. home_rps=.. api_rps=.. csv_rps=.. home304_rps=.. processes=..
Targets (issue 13): ratio >= 0.5, api_ratio >= 0.5, p99_ms_home <= 250.
"""
import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import site_setup  # noqa: E402  (the bench folder is on sys.path when a bench runs)

ROOT = site_setup.ROOT


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(submissions):
    """Migrate, load the games, collect the static files and generate the board's data; returns
    (submission id for the status API, static file path)."""
    site_setup.set_up()
    from django.core.management import call_command
    from django.db import connections
    from django.templatetags.static import static
    from leaderboard_render import generate

    call_command("collectstatic", "--noinput", verbosity=0)
    task_set, n_tasks, n_runs = generate(submissions)
    from submissions.models import Submission

    polled = Submission.objects.filter(task_set=task_set).order_by("pk").values_list("pk", flat=True).first()
    static_path = static("css/site.css")
    connections.close_all()
    print(f"{submissions} verified submissions x {n_tasks} tasks of {task_set.slug}: {n_runs} runs")
    return polled, static_path


def stop_site(process):
    """Stop runsite and every process of its group (it was started in a session of its own)."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def start_site(tmp, port, processes):
    env = dict(os.environ)
    if processes:
        env["GAMEWORLD_WEB_PROCESSES"] = str(processes)
    log = open(tmp / "runsite.log", "w")
    process = subprocess.Popen([sys.executable, "manage.py", "runsite", "--no-worker", "--host", "127.0.0.1",
                                "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    return process


async def wait_until_up(base, path, process, tmp, timeout=90):
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        while True:
            try:
                if (await client.get(path)).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the site did not start: see {tmp / 'runsite.log'}")
            await asyncio.sleep(0.3)


async def load(base, path, *, clients, seconds, headers=None, expect=200, warmup=0.5):
    """`clients` keep-alive clients requesting `path` in a loop for `seconds`; returns (rps, latencies in ms,
    errors, bytes of one answer)."""
    import httpx

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    latencies, errors, size = [], [], [0]
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30, headers=headers or {}) as client:
        async def one_client(until, record):
            while time.monotonic() < until:
                started = time.perf_counter()
                try:
                    response = await client.get(path)
                except httpx.HTTPError as exc:
                    if record:
                        errors.append(type(exc).__name__)
                    continue
                if record:
                    latencies.append((time.perf_counter() - started) * 1000)
                    if response.status_code != expect:
                        errors.append(str(response.status_code))
                    size[0] = len(response.content)

        warm_until = time.monotonic() + warmup  # connections opened, first requests answered
        await asyncio.gather(*(one_client(warm_until, False) for _ in range(clients)))
        started = time.monotonic()
        await asyncio.gather(*(one_client(started + seconds, True) for _ in range(clients)))
        elapsed = time.monotonic() - started
    return len(latencies) / elapsed, latencies, errors, size[0]


def percentile(values, q):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


async def measure(base, targets, clients, seconds, rounds):
    """Every target in turn, `rounds` times over (seconds / rounds each time), so that a machine whose other load
    changes during the run weighs on every target alike; figures over all rounds."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        home = await client.get(targets["home"])
        etag = home.headers.get("ETag")
        for name in ("csv", "api"):  # the first answer fills the caches
            assert (await client.get(targets[name])).status_code == 200, name
    plan = [("static", targets["static"], None, 200), ("home", targets["home"], None, 200)]
    if etag:
        plan.append(("home304", targets["home"], {"If-None-Match": etag}, 304))
    plan += [("csv", targets["csv"], None, 200), ("api", targets["api"], None, 200)]
    done = {name: {"requests": 0, "seconds": 0.0, "latencies": [], "errors": [], "bytes": 0} for name, *_ in plan}
    for _ in range(rounds):
        for name, path, headers, expect in plan:
            rps, latencies, errors, size = await load(base, path, clients=clients, seconds=seconds / rounds,
                                                      headers=headers, expect=expect)
            done[name]["requests"] += len(latencies)
            done[name]["seconds"] += len(latencies) / rps if rps else seconds / rounds
            done[name]["latencies"] += latencies
            done[name]["errors"] += errors
            done[name]["bytes"] = size
    results = {}
    for name, path, *_ in plan:
        d = done[name]
        results[name] = {"rps": d["requests"] / d["seconds"], "p50": percentile(d["latencies"], 50),
                         "p99": percentile(d["latencies"], 99), "errors": d["errors"], "bytes": d["bytes"]}
        r = results[name]
        print(f"{name:8s} {path[:48]:48s} {r['rps']:8.1f} req/s  p50 {r['p50']:7.1f} ms  p99 {r['p99']:7.1f} ms  "
              f"{r['bytes'] / 1024:7.1f} KiB  errors {len(r['errors'])}"
              + (f" ({', '.join(sorted(set(r['errors'])))})" if r["errors"] else ""))
    return results, etag


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0, help="per target")
    parser.add_argument("--rounds", type=int, default=3, help="the targets take turns this many times")
    parser.add_argument("--submissions", type=int, default=100)
    parser.add_argument("--processes", type=int, default=0,
                        help="GAMEWORLD_WEB_PROCESSES for the site (default: the setting's own default)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary data folder")
    args = parser.parse_args()
    began = time.perf_counter()
    with site_setup.temporary_site(keep=args.keep) as tmp:
        polled, static_path = prepare(args.submissions)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = start_site(tmp, port, args.processes)
        try:
            asyncio.run(wait_until_up(base, static_path, process, tmp))
            set_up_s = time.perf_counter() - began
            print(f"site up on {base} after {set_up_s:.1f} s; {args.clients} clients, {args.seconds:g} s a target; "
                  f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
            targets = {"static": static_path, "home": "/", "csv": "/leaderboard/export.csv",
                       "api": f"/api/v1/submissions/{polled}"}
            results, etag = asyncio.run(measure(base, targets, args.clients, args.seconds, args.rounds))
            processes = sum(1 for line in subprocess.run(["ps", "-o", "args=", "--ppid", str(process.pid)],
                                                         capture_output=True, text=True).stdout.splitlines()
                            if "gameworld_site.webserver" in line)
        finally:
            stop_site(process)
    static_rps = results["static"]["rps"]
    failed = sum(len(r["errors"]) for r in results.values())
    print(f"ETag on the home page: {'yes' if etag else 'no'}; errors {failed}; total {time.perf_counter() - began:.1f} s")
    home304 = f"{results['home304']['rps']:.1f}" if "home304" in results else "na"
    print(f"ratio={results['home']['rps'] / static_rps:.2f} api_ratio={results['api']['rps'] / static_rps:.2f} "
          f"p99_ms_home={results['home']['p99']:.0f} p99_ms_api={results['api']['p99']:.0f} "
          f"csv_ratio={results['csv']['rps'] / static_rps:.2f} static_rps={static_rps:.1f} "
          f"home_rps={results['home']['rps']:.1f} api_rps={results['api']['rps']:.1f} "
          f"csv_rps={results['csv']['rps']:.1f} home304_rps={home304} p50_ms_home={results['home']['p50']:.0f} "
          f"p50_ms_api={results['api']['p50']:.0f} processes={processes} errors={failed}")


if __name__ == "__main__":
    main()
