"""The rules of the sandbox, on the small counter game (tests/fixtures/games/counter)."""
import time

import pytest

from sandbox import GameNotReady, RunOver, SandboxError, make
from sandbox.backends.browser import BrowserHost

UP = {"type": "press_key", "key": "ArrowUp"}
DOWN = {"type": "press_key", "key": "ArrowDown"}  # loses the counter game
WAIT = {"type": "wait"}


@pytest.fixture
def env(counter_task):
    with make(counter_task, observation="state") as env:
        yield env


def test_reset_waits_until_the_game_is_actionable(env):
    state, info = env.reset(seed=1)
    assert state["actionable"] is True and state["status"] == "playing"
    assert (info["attempt"], info["actions_left"], info["progress"]) == (1, 10, 0.0)
    assert env.trace[0]["kind"] == "ready"


def test_readiness_timeout_is_an_error_not_a_hang(counter_task):
    with make(counter_task, observation="state", ready_timeout_ms=0) as env:
        with pytest.raises(GameNotReady, match="not actionable after 0 ms"):
            env.reset(seed=1)


def test_one_action_is_applied_per_step_and_time_advances_by_its_duration(env):
    env.reset(seed=1)
    before = env.trace[-1]["state"]["ticks"]
    state, info = env.step(UP)
    assert state["score"] == 1 and not info["invalid"]
    assert state["ticks"] - before == 12  # 200 ms at 60 ticks a second
    state, _ = env.step({"type": "wait", "duration_ms": 500})
    assert state["ticks"] - before == 12 + 30


def test_a_drag_presses_moves_through_even_points_and_releases_at_its_end(env):
    env.reset(seed=1)
    state, info = env.step({"type": "drag", "x": 10, "y": 100, "to_x": 90, "to_y": 20})
    assert not info["invalid"]
    assert state["stroke"] == {"down": [10, 100], "moves": [[10 + 10 * k, 100 - 10 * k] for k in range(1, 9)],
                               "up": [90, 20]}
    assert state["clicks"] == 0  # a stroke is not a click
    state, _ = env.step({"type": "left_click", "x": 30, "y": 40})
    assert state["stroke"] == {"down": [30, 40], "moves": [], "up": [30, 40]} and state["clicks"] == 1


def test_an_invalid_action_is_charged_and_the_game_does_not_move(env):
    state, _ = env.reset(seed=1)
    after, info = env.step({"type": "press_key", "key": "KeyQ"})
    assert info["invalid"] and "KeyQ" in info["invalid_reason"]
    assert after == state and info["actions_left"] == 9
    assert env.score().invalid == 1 and env.score().iar == 1.0


def test_the_budget_ends_the_run(env):
    env.reset(seed=1)
    for _ in range(9):
        _, info = env.step(WAIT)
        assert not info["truncated"]
    _, info = env.step(WAIT)
    assert info["truncated"] and info["actions_left"] == 0
    with pytest.raises(RunOver, match="10 of 10 actions used"):
        env.step(WAIT)


def test_reaching_the_target_terminates_the_run(env):
    env.reset(seed=1)
    for _ in range(3):
        _, info = env.step(UP)
    assert info["terminated"] and info["success"] and info["progress"] == 1.0


def test_reset_on_fail_starts_a_new_attempt_and_keeps_the_best_score(env):
    first, _ = env.reset(seed=1)
    env.step(UP)
    env.step(UP)
    state, info = env.step(DOWN)
    assert info["reset"] and info["attempt"] == 2
    assert state["score"] == 0 and state["luck"] != first["luck"]  # a new attempt, a derived seed
    assert info["progress"] == pytest.approx(2 / 3)
    _, info = env.step(UP)
    assert info["progress"] == pytest.approx(2 / 3) and info["actions_left"] == 6
    assert env.score().attempts == 2


def test_seeds_change_the_game_and_replays_are_identical(counter_task):
    traces = []
    for seed in (1, 1, 2):
        with make(counter_task, observation="state") as env:
            env.reset(seed=seed)
            for action in (UP, WAIT, DOWN, UP):
                env.step(action)
            traces.append(env.score().trace_sha256)
    assert traces[0] == traces[1] != traces[2]


def test_the_clock_is_paused_between_steps(counter_task):
    """A game left alone for a second of real time is in the same state as one stepped at once."""
    def play(pause_s):
        with make(counter_task, observation="state") as env:
            env.reset(seed=1)
            env.step(UP)
            time.sleep(pause_s)
            state, _ = env.step(WAIT)
            return state, env.score().trace_sha256
    assert play(1.0) == play(0.0)


def test_requests_outside_the_bundle_are_blocked(env):
    env.reset(seed=1)
    assert env.session.blocked_requests == ["https://example.com/tracker.png"]


def test_frames_are_jpeg_or_png_of_the_canvas(counter_task):
    with make(counter_task) as env:
        frame, _ = env.reset(seed=1)
        assert frame[:3] == b"\xff\xd8\xff"
        assert env.render("png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_seeds_and_early_steps_are_refused(env):
    with pytest.raises(SandboxError, match="call reset"):
        env.step(WAIT)
    with pytest.raises(SandboxError, match="non-negative integer"):
        env.reset(seed=-1)


def test_sessions_at_the_same_time_spread_over_browsers_and_play_the_same(counter_task, monkeypatch, request):
    monkeypatch.setenv("GAMEWORLD_BROWSERS", "2")
    # A pool of its own: sessions other tests keep open would make the shared hosts unequally busy.
    own_pool = []
    monkeypatch.setattr(BrowserHost, "_pool", own_pool)
    request.addfinalizer(lambda: [host.close() for host in own_pool])
    plan = [UP, UP, WAIT, DOWN, UP, UP]

    def trace(env):
        env.reset(seed=5)
        return [env.step(action)[1]["state"] for action in plan]

    with make(counter_task, observation="state") as first, make(counter_task, observation="state") as second:
        assert first.session.host is not second.session.host    # the second did not queue behind the first
        with make(counter_task, observation="state") as third:  # the pool is full: the least busy host
            assert third.session.host in (first.session.host, second.session.host)
        assert trace(first) == trace(second)
    with make(counter_task, observation="state") as later:     # one at a time: never a new browser
        assert later.session.host in (first.session.host, second.session.host)


def test_a_frame_taken_after_each_step_comes_with_the_step_and_is_the_frame_a_later_read_gives(counter_task):
    """A player's session reads a frame after every step: from the second step on, the step brings its frame in
    the same round trip to the page (no separate canvas read), and each is the frame that a session reading
    only after that step gets, across a reset-on-fail too."""
    from sandbox.backends.browser import CANVAS_FRAME

    actions = [UP, DOWN, UP, WAIT, UP]  # DOWN loses: the next attempt's frame comes from the restart
    canvas_reads = []
    with make(counter_task, observation="state") as env:
        env.reset(seed=2)
        evaluate = env.session._page.evaluate
        env.session._page.evaluate = lambda script, *args: (
            canvas_reads.append(len(canvas_reads)) if script == CANVAS_FRAME else None, evaluate(script, *args))[1]
        played = []
        for action in actions:
            _, info = env.step(action)
            played.append((env.render("png"), info["reset"]))
    assert len(canvas_reads) == 2  # after the first step, and after the restart (a restart brings no frame)
    for count, (frame, _) in enumerate(played, start=1):
        with make(counter_task, observation="state") as fresh:
            fresh.reset(seed=2)
            for action in actions[:count]:
                fresh.step(action)
            assert fresh.render("png") == frame, f"the frame after step {count} differs"
    assert [reset for _, reset in played] == [False, True, False, False, False]
    assert len({frame for frame, _ in played}) > 2


def test_a_session_steps_while_another_of_the_same_browser_is_busy(counter_task, request):
    """The sessions of one browser run side by side: a player's step does not queue behind another session's
    long call (a page loading, a restart, a slow step)."""
    import threading

    host = BrowserHost()  # its own browser: other tests' sessions stay out of it
    request.addfinalizer(host.close)
    with make(counter_task, observation="state", host=host) as busy, \
            make(counter_task, observation="state", host=host) as player:
        busy.reset(seed=1)
        player.reset(seed=1)
        page = busy.session._page
        started, finished = threading.Event(), threading.Event()

        def long_call():  # a page busy for seconds of real time (its clock is paused: a loop, not a timer)
            started.set()
            host.call(lambda _browser: page.evaluate("() => { let x = 0; for (let i = 0; i < 4e9; i++) x ^= i; }"))
            finished.set()
        worker = threading.Thread(target=long_call)
        worker.start()
        started.wait()
        time.sleep(0.2)  # the long call is in the page now
        state, _ = player.step(UP)
        stepped_while_busy = not finished.is_set()
        worker.join()
    assert state["score"] == 1
    assert stepped_while_busy, "the step waited for the other session's call"


def test_a_closed_context_closes_once_the_browser_is_quiet(counter_task, request, monkeypatch):
    """Closing a context holds up the browser's other sessions: while several share it, it waits until none of
    them has a call in flight for QUIET_S; it still closes then."""
    import threading

    from sandbox.backends import browser

    monkeypatch.setattr(browser, "QUIET_S", 1.0)  # far longer than the gaps between the steps below
    host = BrowserHost()
    request.addfinalizer(host.close)
    with make(counter_task, observation="state", host=host) as player, \
            make(counter_task, observation="state", host=host) as looking:
        player.reset(seed=1)
        looking.reset(seed=1)
        leaving = make(counter_task, observation="state", host=host)
        leaving.reset(seed=1)
        context = leaving.session._context
        is_open = lambda: host.call(lambda b: context in b.contexts)  # noqa: E731
        playing = threading.Event()

        def play():
            deadline = time.monotonic() + 2.5
            while time.monotonic() < deadline:
                player.step(WAIT) if not player.done else player.reset(seed=1)
                playing.set()
        worker = threading.Thread(target=play)
        worker.start()
        playing.wait()
        leaving.close()
        time.sleep(1.5)
        open_while_playing = is_open()
        worker.join()
        deadline = time.monotonic() + 10
        while is_open() and time.monotonic() < deadline:
            time.sleep(0.1)
        open_after = is_open()
    assert open_while_playing, "the context closed while the other session was stepping"
    assert not open_after, "the context never closed"
