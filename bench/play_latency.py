"""Human-play latency: N simulated players on the play socket of one site, each answering every frame at once.

Everything runs in a fresh temporary directory (SQLite database, data dir), set up the project's own way
(migrate, load_games --no-frames --no-validate), so the developer's database is untouched. A Daphne serving
the site is started on a free loopback port on that database, and 20 signed-in players (a Django session
cookie each) are created. An untimed warm-up round of 5 players pays the one-time costs of a site that has
just started (its first sockets, the start of its browsers). Then for each N in 1, 5 and 20, every player
starts a practice session of the task (the play page's POST does the same) and opens its socket
`/ws/play/<session>/` in a thread of its own; the session's game opens in the Daphne process (a browser
context in one of its Chromiums), untimed. When all N have their first frame, and FIRST_LOOK_S later (a
person looks before acting; the site meanwhile closes the last phase's games, background work it does
whenever players leave and keeps out of the way of steps), they play together: each
sends an action (a seeded random key of the game, or a wait) as soon as the previous frame arrives, and
times it from the send to the arrival of the next frame (the JSON status, then the binary JPEG). Frames per
second is frames served over the phase's wall time, all players together. A last phase has 20 players at a
person's pace: each sends its next action 300 ms after it sent the last one (or at once if the frame came
later), from a random offset so that they do not all act together.

The baseline, measured in the same run, is the same step in this process: the sandbox env stepped and its
JPEG frame taken, with no socket, database or event loop in between (`sandbox_p50_ms`).

    .venv/bin/python bench/play_latency.py [--task breakout/rally-18@1] [--actions 30] [--keep]
Last line: p50_ms_1=.. p99_ms_1=.. p50_ms_5=.. p99_ms_5=.. p50_ms_20=.. p99_ms_20=.. p50_ms_20_paced=..
p99_ms_20_paced=.. fps=.. (fps at 20 players) sandbox_p50_ms=..
"""
import argparse
import json
import random
import statistics
import sys
import threading
import time
from contextlib import ExitStack

import site_setup  # noqa: E402  (the bench folder is on sys.path when a bench runs)

PLAYER_COUNTS = (1, 5, 20)
PACED_PLAYERS, PACE_S = 20, 0.3  # a person acts about every 300 ms
WARM_UP_PLAYERS = 5
# The players look at their first frame before they act, and the site closes the last phase's games meanwhile
# (in the background, as it does whenever a player leaves; not part of any step).
FIRST_LOOK_S = 1.5
OPEN_TIMEOUT_S = 120


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def player_actions(task, count, seed):
    """A seeded random sequence over the game's keys (and waits), the way a person mashes them."""
    keys = list(task.game.action_space.keys) or []
    choices = [{"type": "press_key", "key": key} for key in keys] + [{"type": "wait"}]
    rng = random.Random(seed)
    return [rng.choice(choices) for _ in range(count)]


def sign_in_players(count):
    """Players with a session cookie each (what the browser sends on the socket's handshake)."""
    from django.contrib.auth.models import User
    from django.test import Client

    cookies = []
    for index in range(count):
        user = User.objects.create_user(f"player{index}", password="bench-not-used-1")
        client = Client()
        client.force_login(user)
        cookies.append((user, f"sessionid={client.cookies['sessionid'].value}"))
    return cookies


class Player(threading.Thread):
    def __init__(self, url, cookie, actions, ready, go, pace_s=0.0, offset_s=0.0):
        super().__init__(daemon=True)
        self.url, self.cookie, self.actions = url, cookie, actions
        self.ready, self.go = ready, go
        self.pace_s, self.offset_s = pace_s, offset_s
        self.latencies, self.error = [], None

    def run(self):
        from websockets.sync.client import connect

        with ExitStack() as stack:
            try:  # the play socket checks the Origin, as a browser on the site's own page sends it
                sock = stack.enter_context(connect(
                    self.url, origin=self.url.replace("ws://", "http://").split("/ws/")[0],
                    additional_headers={"Cookie": self.cookie}, open_timeout=OPEN_TIMEOUT_S, compression=None))
            except Exception as exc:  # noqa: BLE001  (reported by the bench, never hidden)
                self.error = f"connect: {exc}"
                self.ready.release()
                return
            try:
                status = self.next_frame(sock)
                self.ready.release()
                self.go.wait()
                time.sleep(self.offset_s)
                started = None
                for action in self.actions:
                    if status.get("done"):
                        break
                    if started is not None and self.pace_s:
                        time.sleep(max(0.0, started + self.pace_s - time.perf_counter()))
                    started = time.perf_counter()
                    sock.send(json.dumps({"type": "action", "step": status["step"], "action": action}))
                    status = self.next_frame(sock)
                    self.latencies.append((time.perf_counter() - started) * 1000)
            except Exception as exc:  # noqa: BLE001
                self.error = self.error or f"{type(exc).__name__}: {exc}"
                self.ready.release()

    @staticmethod
    def next_frame(sock):
        """The status and the frame after it; a refusal is an error of the bench."""
        data = sock.recv(timeout=OPEN_TIMEOUT_S)
        message = json.loads(data) if isinstance(data, str) else {}
        if message.get("type") != "status":
            raise RuntimeError(f"expected a status, got {data[:200]!r}")
        frame = sock.recv(timeout=OPEN_TIMEOUT_S)
        if not isinstance(frame, bytes) or frame[:3] != b"\xff\xd8\xff":
            raise RuntimeError("expected a JPEG frame after the status")
        return message


def phase(site, task_db, players, actions_each, seed, pace_s=0.0):
    """N players at once, each acting as soon as its frame arrives or `pace_s` after its last action; returns
    (latencies in ms, frames per second served, seconds the sessions took to open)."""
    from humanplay import services
    from humanplay.models import PlaySession

    ready, go = threading.Semaphore(0), threading.Event()
    threads, offsets = [], random.Random(seed)
    for index, (user, cookie) in enumerate(players):
        session = services.start_session(user=user, task=task_db, mode=PlaySession.Mode.PRACTICE)
        url = site.replace("http://", "ws://") + f"/ws/play/{session.pk}/"
        threads.append(Player(url, cookie, actions_each(seed + index), ready, go, pace_s,
                              offsets.uniform(0, pace_s)))
    opened = time.perf_counter()
    for thread in threads:
        thread.start()
    for _ in threads:
        if not ready.acquire(timeout=OPEN_TIMEOUT_S):
            raise SystemExit(f"the sessions did not open within {OPEN_TIMEOUT_S} s")
    opened = time.perf_counter() - opened
    time.sleep(FIRST_LOOK_S)
    started = time.perf_counter()
    go.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    errors = [t.error for t in threads if t.error]
    if errors:
        raise SystemExit(f"{len(errors)} of {len(threads)} players failed, e.g. {errors[0]}")
    latencies = [ms for t in threads for ms in t.latencies]
    return latencies, len(latencies) / elapsed, opened


def sandbox_baseline(task, actions):
    """The same steps in this process: env.step and its JPEG frame, nothing in between."""
    from sandbox import make

    timings = []
    with make(task, observation="state") as env:
        env.reset(seed=task.seeds[0])
        env.render("jpeg")
        for action in actions:
            if env.done:
                break
            started = time.perf_counter()
            env.step(action)
            env.render("jpeg")
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="breakout/rally-18@1",
                        help="the task played (default breakout/rally-18@1: random keys do not finish it)")
    parser.add_argument("--actions", type=int, default=30, help="actions each player sends per phase (default 30)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the players' random keys")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    args = parser.parse_args()

    with site_setup.temporary_site(keep=args.keep) as tmp, ExitStack() as stack:
        began = time.perf_counter()
        site_setup.set_up()
        from catalogue.models import Task
        from sandbox import registry

        spec = registry.task(args.task)
        task_db = next(t for t in Task.objects.select_related("game") if t.task_id == spec.id)
        players = sign_in_players(max(PLAYER_COUNTS))
        site = stack.enter_context(site_setup.serving(tmp))  # stopped before the folder goes
        print(f"{spec.id}: {args.actions} random actions per player and phase; site on {site}; "
              f"set-up {time.perf_counter() - began:.1f} s")

        def actions_each(seed):
            return player_actions(spec, args.actions, seed)

        # Warm-up, not timed: Daphne's first sockets and the process's browsers (a second Chromium starts only
        # when two games run at once), one-time costs of a site that has just started.
        phase(site, task_db, players[:WARM_UP_PLAYERS], actions_each, args.seed)
        figures, rates = {}, {}
        for count in PLAYER_COUNTS:
            latencies, fps, opened = phase(site, task_db, players[:count], actions_each, args.seed)
            p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
            figures[count], rates[count] = (p50, p99), fps
            print(f"{count:>2} player(s): {len(latencies)} actions, sent -> next frame p50 {p50:.1f} ms, "
                  f"p99 {p99:.1f} ms, max {max(latencies):.1f} ms; {fps:.1f} frames/s served "
                  f"(sessions opened in {opened:.1f} s, not timed)")
        latencies, _, _ = phase(site, task_db, players[:PACED_PLAYERS], actions_each, args.seed, PACE_S)
        paced = statistics.median(latencies), percentile(latencies, 0.99)
        print(f"{PACED_PLAYERS} players, one action every {PACE_S * 1000:.0f} ms each: {len(latencies)} actions, "
              f"p50 {paced[0]:.1f} ms, p99 {paced[1]:.1f} ms, max {max(latencies):.1f} ms")
        baseline = sandbox_baseline(spec, actions_each(args.seed))
        sandbox_p50 = statistics.median(baseline)
        print(f"baseline: the same step in this process (sandbox step + JPEG frame) p50 {sandbox_p50:.1f} ms; "
              f"one player's socket round trip costs {figures[1][0] / sandbox_p50:.2f}x that; "
              f"total {time.perf_counter() - began:.0f} s")
        print(" ".join(f"p50_ms_{n}={figures[n][0]:.1f} p99_ms_{n}={figures[n][1]:.1f}" for n in PLAYER_COUNTS)
              + f" p50_ms_20_paced={paced[0]:.1f} p99_ms_20_paced={paced[1]:.1f}"
              + f" fps={rates[max(PLAYER_COUNTS)]:.1f} sandbox_p50_ms={sandbox_p50:.1f}")


if __name__ == "__main__":
    sys.exit(main())
