"""The browser backend: our canvas games in Debian's Chromium, driven by Playwright on a paused clock.

A `BrowserHost` owns one Chromium and drives it with Playwright's async API on an event loop in a thread of
its own; every call is a coroutine handed to that loop. Any thread (a test, a Celery task, a Channels consumer
through `sync_to_async`) may then drive a session. Each session gets a browser context of its own (its pages
in a renderer process of their own); one Chromium serves many, and their calls run side by side: a session's
step does not wait for another's. A process that runs sessions at the same time (the site serving several
players) spreads them over up to GAMEWORLD_BROWSERS hosts, whose Playwright drivers then run in parallel too;
a process running one session at a time only ever starts one.

Each host keeps a warm pool of SPARE_CONTEXTS fresh browser contexts (a blank page of the games' origin on
the paused clock), made when it starts and again after a session takes one, at a quiet moment (no call in
flight), so that a run does not wait for a new context. A spare has never run
anything and a context serves one session only, so nothing of one run reaches the next.
"""
import asyncio
import atexit
import base64
import collections
import inspect
import json
import mimetypes
import os
import threading
import weakref
from concurrent.futures import Future
from urllib.parse import unquote, urlsplit

from playwright.sync_api import Error as PlaywrightError

from ...errors import GameCrashed, GameNotReady, SandboxError
from ...protocol import DRAG_POINTS

ORIGIN = "http://game.gameworld.invalid"
BLANK_PAGE = f"{ORIGIN}/"  # where a spare context waits for its game
EPOCH_S = 1_700_000_000  # the fake clock's start: Date.now() is the same in every run
READY_POLL_MS = 50
SPARE_CONTEXTS = 1
# Closing or making a context holds up the whole browser: it waits for QUIET_S without a call in flight; a
# context's closing at most BACKGROUND_PATIENCE_S (a browser never quiet still closes them).
QUIET_S = 0.05
BACKGROUND_PATIENCE_S = 5
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# Installed before any page script: a seeded generator replaces Math.random (mulberry32, 32-bit state).
SEED_SCRIPT = """(() => {
  let s = %d >>> 0;
  Math.random = () => {
    s = (s + 0x6D2B79F5) >>> 0; let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // `rendering` is false while the sandbox runs game time whose frames nobody will see: a game may skip
  // drawing then (its logic must not depend on drawing). It is true again for the step's last frame.
  let rendering = true;
  Object.defineProperty(window, "__gameworld", {value: Object.freeze({
    seed(n) { s = n >>> 0; },
    get rendering() { return rendering; },
    setRendering(on) { rendering = !!on; },
  })});
})();"""

_STATE = "(window.gameAPI && typeof window.gameAPI.getState === 'function') ? window.gameAPI.getState() : null"
READ_STATE = f"() => {_STATE}"
# Game time moves through the clock controller that Playwright's `clock.pause_at` installed in the page:
# the same in-page `runFor` that `page.clock.run_for` calls, minus its bookkeeping for documents loaded
# later (a new init script on every call, which costs ~20 ms a step and grows the context all run long).
# A run never navigates after its first load, so nothing needs that log.
# Frames are drawn only in the last FRAME_TAIL_MS of a step (at least one animation frame): drawing every
# frame of a canvas in software costs more than the game's logic.
FRAME_TAIL_MS = 20


def _run(tail):
    """JS that runs `ms` of game time, drawing frames only in the last `tail` ms (a JS expression)."""
    return f"""const clock = globalThis.__pwClock.controller, tail = {tail};
  window.__gameworld.setRendering(false);
  try {{ await clock.runFor(ms - tail); }} finally {{ window.__gameworld.setRendering(true); }}
  await clock.runFor(tail);"""


_RUN = _run(f"Math.min(ms, {FRAME_TAIL_MS})")
RUN_FOR = f"async ms => {{ {_RUN} }}"


# One step in one round trip: the action's input events, its game time, the release, then the state.
# Inputs are DOM events dispatched in the page (keyboard events carry `code` and `key`; a click is
# mousedown, mouseup and click at the point), the way the games listen for them. Four CDP round trips a
# step (key down, run, key up, read) cost more than the game itself.
def _step(run):
    return f"""async (action) => {{
  const ms = action.duration_ms;
  const keyOf = (code) => code.startsWith("Key") ? code.slice(3).toLowerCase()
    : code.startsWith("Digit") ? code.slice(5) : code === "Space" ? " " : code;
  const target = document.activeElement || document.body;
  const key = (type, code) => target.dispatchEvent(new KeyboardEvent(type, {{code, key: keyOf(code),
    bubbles: true, cancelable: true, view: window}}));
  const keys = action.type === "press_key" ? [action.key] : action.type === "press_keys" ? action.keys : [];
  keys.forEach((code) => key("keydown", code));
  const mouse = (type, x, y, extra) => (document.elementFromPoint(x, y) || document.body).dispatchEvent(
    new MouseEvent(type, {{clientX: x, clientY: y, bubbles: true, cancelable: true, view: window, button: 0, ...extra}}));
  if (action.type === "left_click") {{
    mouse("mousedown", action.x, action.y, {{buttons: 1}}); mouse("mouseup", action.x, action.y, {{}});
    mouse("click", action.x, action.y, {{}});
  }} else if (action.type === "mouse_move") mouse("mousemove", action.x, action.y, {{}});
  else if (action.type === "drag") {{
    mouse("mousedown", action.x, action.y, {{buttons: 1}});
    for (let k = 1; k <= {DRAG_POINTS}; k++) {{
      mouse("mousemove", Math.round(action.x + (action.to_x - action.x) * k / {DRAG_POINTS}),
            Math.round(action.y + (action.to_y - action.y) * k / {DRAG_POINTS}), {{buttons: 1}});
    }}
    mouse("mouseup", action.to_x, action.to_y, {{}});
  }}
  {run}
  keys.slice().reverse().forEach((code) => key("keyup", code));
  return {_STATE};
}}"""


STEP = _step(_RUN)
RESTART = "seed => { window.__gameworld.seed(seed); window.gameAPI.reset({seed}); }"
# A known run in one round trip (`BrowserSession.run_ahead`): the steps' primitive actions, applied as STEP
# applies them, with reset-on-fail in place: after a terminal state the rest of that step is skipped (an
# action does not land on a finished game) and the game restarts at the next attempt seed, waiting until it
# is actionable as `_await_ready` does. It stops at the end, at an error, or when it runs out of seeds.
# Whether the run goes on after a terminal state (a win, the target, the budget) is the env's call: it may
# stop sooner and leave the rest of the events unread. Each event says which call of the env it answers.
# A run-ahead draws only in the tail of its last action, so that the canvas shows where the run ended (the
# platform rule: logic never depends on drawing, so the states are those of the stepwise path).
_UNSEEN = _run("0")
RUN_AHEAD = f"""async ({{steps, seeds, readyTimeoutMs}}) => {{
  const step = {_step(_UNSEEN)}, drawnStep = {STEP}, runFor = async (ms) => {{ {_UNSEEN} }}, restart = {RESTART};
  let last = steps.length - 1;  // the last step that applies anything draws, as the stepwise path does
  while (last >= 0 && steps[last].length === 0) last--;
  const readState = () => {_STATE};
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const terminal = (state) => isObject(state) && isObject(state.terminal) && !!state.terminal.is_terminal;
  // A turn of the page's event loop between calls, as the round trips of the stepwise path give it.
  const turn = () => new Promise((resolve) => {{
    const channel = new MessageChannel(); channel.port1.onmessage = () => resolve(); channel.port2.postMessage(null);
  }});
  const errors = [], onError = (event) => errors.push(String(event.error || event.message));
  // Playwright's transfer of a returned value costs ~1 ms a state; a JSON string costs next to nothing, and
  // reads back the same where JSON holds the value exactly: no -0, NaN, infinity, undefined, lone
  // surrogate (the regexp also refuses pairs: only ever a slower return), or object other than plain.
  const lossless = (value) => {{
    if (value === null || typeof value === "boolean") return true;
    if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
    if (typeof value === "string") return !/[\\ud800-\\udfff]/.test(value);
    if (typeof value !== "object") return false;
    const proto = Object.getPrototypeOf(value);
    if (Array.isArray(value)) return proto === Array.prototype && value.every(lossless);
    return (proto === Object.prototype || proto === null)
      && Object.entries(value).every(([key, item]) => lossless(key) && lossless(item));
  }};
  const events = [];
  const call = async (event, fn) => {{
    await turn();
    try {{ event.state = await fn(); }} catch (error) {{ errors.push(String(error)); }}
    event.errors = errors.splice(0);
    events.push(event);
    return event.errors.length === 0 && isObject(event.state);
  }};
  const awaitReady = async (event) => {{
    for (event.waited = 0; ; event.waited += {READY_POLL_MS}) {{
      const state = readState();
      const done = state !== null && (!isObject(state) || state.actionable === true);
      if (done || event.waited >= readyTimeoutMs) return state;
      await turn();
      await runFor({READY_POLL_MS});
    }}
  }};
  const run = async () => {{
    let attempt = 0;
    for (let i = 0; i < steps.length; i++) {{
      let state = null;
      for (let j = 0; j < steps[i].length && !terminal(state); j++) {{
        const apply = i === last && j === steps[i].length - 1 ? drawnStep : step;
        if (!await call({{step: i, op: j}}, () => apply(steps[i][j]))) return;
        state = events[events.length - 1].state;
      }}
      if (!terminal(state)) continue;
      if (attempt === seeds.length) return;
      const event = {{restart: seeds[attempt++]}};
      if (!await call(event, () => {{ restart(event.restart); return awaitReady(event); }})) return;
      if (event.state.actionable !== true) return;
    }}
  }};
  window.addEventListener("error", onError);
  try {{ await run(); }} finally {{ window.removeEventListener("error", onError); }}
  return lossless(events) ? JSON.stringify(events) : events;
}}"""
CANVAS_FRAME = "([type, quality]) => document.querySelector('canvas').toDataURL(type, quality)"
FRAME_QUALITY = 0.85
FRAME_TYPES = {"jpeg": "image/jpeg", "png": "image/png"}
# A step and the frame it leaves, in one round trip: for a caller that takes a frame after every step (a
# person playing), half the round trips through the browser thread.
STEP_AND_FRAME = f"""async ([action, type, quality]) => {{
  const state = await ({STEP})(action);
  return [state, ({CANVAS_FRAME})([type, quality])];
}}"""


def chromium_path():
    """The browser the games run in: Debian's headless shell by default (the old headless mode, which Playwright
    itself uses headless: no browser UI to drive, so a run takes well under half the CPU of the full browser's)."""
    return os.environ.get("GAMEWORLD_CHROMIUM", "/usr/bin/chromium-headless-shell")


def browsers_per_process():
    raw = os.environ.get("GAMEWORLD_BROWSERS", "")
    default = min(2, os.cpu_count() or 1)
    try:
        value = int(raw) if raw else default
    except ValueError:
        raise ValueError(f"GAMEWORLD_BROWSERS={raw!r}: expected a whole number of browsers") from None
    if value < 1:
        raise ValueError(f"GAMEWORLD_BROWSERS={raw!r}: at least 1")
    return value


class BrowserHost:
    """One Chromium process, driven by Playwright's async API on an event loop in a thread of its own.

    Every call is a coroutine on that loop, so the sessions of one browser take turns only while Python runs:
    while one session's page runs its step (in a renderer process of its own), another's call goes ahead. A
    player's step never waits for another session's page to load, step, restart or close."""

    _pool = []
    _pool_pid = None
    _pool_lock = threading.Lock()

    @classmethod
    def shared(cls):
        """The first host of this process (started on first use)."""
        with cls._pool_lock:
            return cls._live_pool()[0]

    @classmethod
    def for_session(cls):
        """The host with the fewest open sessions; a new one while all are busy and the pool is not full."""
        with cls._pool_lock:
            pool = cls._live_pool()
            least = min(pool, key=lambda host: len(host.sessions))
            if len(least.sessions) and len(pool) < browsers_per_process():
                least = cls()
                pool.append(least)
            return least

    @classmethod
    def _live_pool(cls):
        """This process's live hosts, at least one. Rebuilt after a fork (threads and browser connections do
        not survive one); a host whose thread died is dropped."""
        if cls._pool_pid != os.getpid():
            cls._pool, cls._pool_pid = [], os.getpid()
        cls._pool[:] = [host for host in cls._pool if host.alive]
        if not cls._pool:
            cls._pool.append(cls())
        return cls._pool

    def __init__(self, executable=None):
        self.sessions = weakref.WeakSet()  # sessions assigned to this host and not closed
        self._spares = collections.deque()  # contexts made ahead: touched on the loop only
        self._background_tasks = set()  # closing and making contexts (`_in_background`), while they run
        self._filling = None  # the background task filling the pool, while it runs
        self._making = None  # the spare it is making, once it is
        self.executable = executable or chromium_path()
        self._loop = asyncio.new_event_loop()
        self._started = Future()
        self._thread = threading.Thread(target=self._serve, name="gameworld-browser", daemon=True)
        self._thread.start()
        self._started.result(timeout=60)
        atexit.register(self.close)  # a host may be making a spare context: the interpreter must not end under it

    @property
    def alive(self):
        return self._thread.is_alive() and not self._loop.is_closed()

    def call(self, fn, *args):
        """`fn(browser, *args)` on the loop (a coroutine function, or a function returning an awaitable);
        waits for its result. Never from the loop itself: it would wait for itself."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("BrowserHost.call on the host's own loop: await the coroutine instead")
        try:
            return asyncio.run_coroutine_threadsafe(self._run(fn, args), self._loop).result()
        except PlaywrightError as exc:  # a browser that crashed or hung: the sandbox's error, retryable
            raise GameCrashed(f"the browser failed: {exc.message}") from exc

    def post(self, fn, *args):
        """Queue background work without waiting for it (its errors are dropped): see `_in_background`."""
        self._loop.call_soon_threadsafe(self._start_background, fn, args)

    def close(self):
        if self.alive:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=30)

    def warm(self):
        """Fill the pool of spare contexts now (a bench's or test's start; an idle host refills it itself)."""
        self.call(self._fill_spares)

    async def take_context(self):
        """A fresh context and its blank page, from the pool if it has one."""
        if not self._spares and self._making is not None:
            await asyncio.wait([self._making])  # a spare on its way: take it rather than make a second
        return self._spares.popleft() if self._spares else await FreshContext.make(self.browser)

    def _refill(self):
        if self._filling is None or self._filling.done():  # one at a time
            self._filling = self._start_background(self._fill_spares, (), spare=True)

    def _start_background(self, fn, args, spare=False):
        task = self._loop.create_task(self._in_background(fn, args, spare))
        self._background_tasks.add(task)
        task.add_done_callback(lambda done: self._background_tasks.discard(done) or done.cancelled()
                               or done.exception())
        return task

    async def _fill_spares(self, _browser=None):
        while len(self._spares) < SPARE_CONTEXTS and self.browser.is_connected():
            self._making = self._loop.create_task(FreshContext.make(self.browser))
            try:
                self._spares.append(await self._making)
            finally:
                self._making = None

    async def _in_background(self, fn, args, spare):
        """Work nobody waits for. Making or closing a context holds up the whole browser for tens to hundreds
        of ms, so it waits until no call is in flight (`_until_quiet`): a spare for as long as it takes (a run
        makes its own context when there is none), closing a context while several sessions share the browser
        (people playing) for at most BACKGROUND_PATIENCE_S."""
        if spare:
            await self._until_quiet(patience=None)
        elif len(self.sessions) > 1:
            await self._until_quiet(patience=BACKGROUND_PATIENCE_S)
        return await self._invoke(fn, args)

    async def _until_quiet(self, patience):
        """Until no call has been in flight for QUIET_S, or `patience` seconds (None: no limit) have passed."""
        deadline = None if patience is None else self._loop.time() + patience
        while True:
            left = None if deadline is None else deadline - self._loop.time()
            if left is not None and left <= 0:
                return
            if self._in_flight:
                try:
                    await asyncio.wait_for(self._quiet.wait(), left)
                except asyncio.TimeoutError:
                    return
            elif (idle := self._loop.time() - self._quiet_since) >= QUIET_S:
                return
            else:
                await asyncio.sleep(QUIET_S - idle)

    async def _run(self, fn, args):
        self._in_flight += 1
        self._quiet.clear()
        try:
            return await self._invoke(fn, args)
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._quiet_since = self._loop.time()
                self._quiet.set()

    async def _invoke(self, fn, args):
        if not self.browser.is_connected():
            async with self._relaunching:
                if not self.browser.is_connected():  # another call may have relaunched it meanwhile
                    self._spares.clear()
                    self.browser = await self._launch()
        result = fn(self.browser, *args)
        return await result if inspect.isawaitable(result) else result

    def _serve(self):
        from playwright.async_api import async_playwright

        asyncio.set_event_loop(self._loop)
        try:
            self._playwright = self._loop.run_until_complete(async_playwright().start())
            self.browser = self._loop.run_until_complete(self._launch())
            self._relaunching, self._quiet = asyncio.Lock(), asyncio.Event()
            self._quiet.set()
            self._in_flight, self._quiet_since = 0, 0.0  # calls a caller waits for, running now; since when none
        except BaseException as exc:  # reported to the thread that asked for the host
            self._started.set_exception(exc)
            self._loop.close()
            return
        self._started.set_result(True)
        self._refill()
        try:
            self._loop.run_forever()
        finally:
            self._loop.run_until_complete(self._shut_down())
            self._loop.close()

    async def _shut_down(self):
        background = list(self._background_tasks)  # Playwright's own tasks stay: closing the browser needs them
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        await self.browser.close()
        await self._playwright.stop()

    async def _launch(self):
        if not os.path.exists(self.executable):
            raise FileNotFoundError(f"Chromium not found at {self.executable}: install Debian's "
                                    "chromium-headless-shell or set GAMEWORLD_CHROMIUM")
        return await self._playwright.chromium.launch(executable_path=self.executable, args=CHROMIUM_ARGS,
                                                      headless=True)


class FreshContext:
    """A new browser context with a blank page of the games' origin on the paused clock, not yet given a game
    or a seed. The page is on the origin already so that loading the game stays in its renderer process
    (a first load from about:blank starts another, which costs as much again). The request and error logs
    are its own: the session that takes it reads them."""

    def __init__(self, context, page):
        self.context, self.page = context, page
        self.blocked_requests = []
        self.errors = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @classmethod
    async def make(cls, browser):
        context = await browser.new_context(device_scale_factor=1, service_workers="block", accept_downloads=False)
        try:
            fresh = cls(context, await context.new_page())
            # pause_at alone installs the fake clock already stopped. An install() first would log the real
            # time between the two calls, and Playwright replays that gap into performance.now() and the rAF
            # timestamps of every new document: the runs would drift by a few ms.
            await fresh.page.clock.pause_at(EPOCH_S)
            # The session's own route, added later, takes every request from then on.
            await context.route(BLANK_PAGE, lambda route: route.fulfill(
                status=200, body="<!doctype html>", headers={"content-type": "text/html"}))
            await fresh.page.goto(BLANK_PAGE, wait_until="load")
        except BaseException:
            await context.close()
            raise
        return fresh


class BrowserSession:
    """One game in one browser context: open at a seed, restart, apply primitive actions, read state."""

    def __init__(self, game, *, host=None, ready_timeout_ms=10_000, load_timeout_s=20):
        self.game = game
        self.host = host or BrowserHost.for_session()
        self.host.sessions.add(self)
        self.ready_timeout_ms = ready_timeout_ms
        self.load_timeout_s = load_timeout_s
        self.blocked_requests = []
        self._context = self._page = None
        self._errors = []
        # Once a caller asks for a frame after a step, each step captures its frame as it runs (`_frame_ahead`,
        # the frame's format and data URL, or None when the page changed since).
        self._frames_after_steps = None
        self._frame_ahead = None

    # Public methods run on the caller's thread and wait for their coroutine on the host's loop.
    def open(self, seed):
        return self.host.call(self._open, seed)

    def restart(self, seed):
        return self.host.call(self._restart, seed)

    def apply(self, action):
        return self.host.call(self._apply, action)

    def state(self):
        return self.host.call(lambda _browser: self._read_state())

    def run_ahead(self, steps, restart_seeds):
        """Run a known stretch of a run in one round trip (see RUN_AHEAD). `steps` lists each step's primitive
        actions; `restart_seeds` the seeds of the attempts after the first, in order. Returns the events in
        order, each `(call, outcome)`: call is `("apply", step_index, action_index)` or `("restart", seed)`,
        outcome the state that call returns or the error it raises (not raised here: the env may stop before
        it)."""
        return self.host.call(self._run_ahead, steps, restart_seeds)

    def frame(self, fmt="jpeg"):
        mime = FRAME_TYPES[fmt]
        # The frame the last step captured is here already (the caller drives this session one call at a
        # time, so the step that wrote `_frame_ahead` has returned before this reads it).
        ahead, self._frame_ahead = self._frame_ahead, None
        data_url = ahead[1] if ahead is not None and ahead[0] == mime else self.host.call(self._frame, mime)
        return base64.b64decode(data_url.split(",", 1)[1])

    def close(self):
        if self._context is not None:  # nobody waits for the context to go: it is never used again
            self.host.post(self._close)
        self.host.sessions.discard(self)

    # Below: coroutines on the host's loop.
    async def _open(self, _browser, seed):
        await self._close()
        self._frame_ahead = None
        fresh = await self.host.take_context()
        self._context, self._page = fresh.context, fresh.page
        self.blocked_requests, self._errors = fresh.blocked_requests, fresh.errors
        self._context.set_default_timeout(self.load_timeout_s * 1000)
        await self._context.route("**/*", bundle_router(self.game.bundle_dir, self.blocked_requests))
        await self._context.add_init_script(SEED_SCRIPT % seed)  # runs in the game's document, the first loaded
        await self._page.set_viewport_size(self.game.viewport)
        await self._page.goto(f"{ORIGIN}/{self.game.entry}", wait_until="load")
        self.host._refill()  # the spare this took: made again at the next quiet moment
        return await self._await_ready()

    async def _restart(self, _browser, seed):
        self._frame_ahead = None
        await self._page.evaluate(RESTART, seed)
        return await self._await_ready()

    async def _apply(self, _browser, action):
        self._frame_ahead = None
        if self._frames_after_steps is None:
            return self._checked_state(await self._page.evaluate(STEP, action))
        state, data_url = await self._page.evaluate(STEP_AND_FRAME, [action, self._frames_after_steps,
                                                                     FRAME_QUALITY])
        self._frame_ahead = (self._frames_after_steps, data_url)
        return self._checked_state(state)

    async def _run_ahead(self, _browser, steps, restart_seeds):
        self._frame_ahead = None
        raw = await self._page.evaluate(RUN_AHEAD, {"steps": steps, "seeds": restart_seeds,
                                                    "readyTimeoutMs": self.ready_timeout_ms})
        if isinstance(raw, str):  # the fast return: JSON that holds every value exactly
            raw = json.loads(raw)
        self._errors.clear()  # the page's errors are in the events, at the call they happened in
        return [(("restart", event["restart"]) if "restart" in event else ("apply", event["step"], event["op"]),
                 self._outcome(event)) for event in raw]

    def _outcome(self, event):
        if event["errors"]:
            return GameCrashed(f"{self.game.slug}: the page raised: {event['errors'][0]}")
        restart = "restart" in event
        try:
            state = self._checked_state(event.get("state"), allow_missing=restart)
        except SandboxError as exc:
            return exc
        if restart and (state is None or state.get("actionable") is not True):
            return self._not_ready(state, event["waited"])
        return state

    async def _await_ready(self):
        waited = 0
        while True:
            state = await self._read_state(allow_missing=True)
            if state is not None and state.get("actionable") is True:
                return state
            if waited >= self.ready_timeout_ms:
                raise self._not_ready(state, waited)
            await self._page.evaluate(RUN_FOR, READY_POLL_MS)
            waited += READY_POLL_MS

    def _not_ready(self, state, waited):
        status = "window.gameAPI is missing" if state is None else f"status {state.get('status')!r}"
        return GameNotReady(f"{self.game.slug}: not actionable after {waited} ms of game time ({status})")

    async def _read_state(self, allow_missing=False):
        return self._checked_state(await self._page.evaluate(READ_STATE), allow_missing)

    def _checked_state(self, state, allow_missing=False):
        self._raise_page_errors()
        if state is None and not allow_missing:
            raise GameCrashed(f"{self.game.slug}: window.gameAPI.getState is missing")
        if state is not None and not isinstance(state, dict):
            raise GameCrashed(f"{self.game.slug}: getState() returned {type(state).__name__}, not an object")
        return state

    def _raise_page_errors(self):
        if self._errors:
            first = self._errors[0]
            self._errors.clear()  # in place: the page's error handler appends to this list
            raise GameCrashed(f"{self.game.slug}: the page raised: {first}")

    async def _frame(self, _browser, mime):
        """The canvas now as a data URL; from now on each step captures its frame as it runs."""
        self._frames_after_steps = mime
        return await self._page.evaluate(CANVAS_FRAME, [mime, FRAME_QUALITY])

    async def _close(self, _browser=None):
        context, self._context, self._page = self._context, None, None  # before any await: a later open
        if context is not None:                                         # on this session must not see it
            await context.close()


def bundle_router(bundle_dir, blocked):
    """A Playwright route handler: serve the game's own bundle, block (and list) every other request."""
    root = bundle_dir.resolve()

    async def route_request(route):
        url = route.request.url
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN:
            blocked.append(url)
            return await route.abort("blockedbyclient")
        path = (root / unquote(parts.path).lstrip("/")).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            return await route.fulfill(status=404, body="not in this game's bundle")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        await route.fulfill(status=200, body=path.read_bytes(), headers={"content-type": content_type})
    return route_request
