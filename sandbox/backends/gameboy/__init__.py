"""The Game Boy backend: PyBoy 2.8.1, headless, behind the same session protocol as the browser backend.

    session = GameBoySession(game_spec)
    state = session.open(seed)          # load the start state, write the seed, wait until actionable
    state = session.apply({"type": "press_key", "key": "a", "duration_ms": 318})
    png = session.frame("png", scale=4) # 160x144, or scaled up with nearest-neighbour for people
    blob = session.snapshot()           # a GameWorld state file of this very moment
    session.close()

The rules it keeps (docs/architecture.md, "The sandbox"):
- Headless (`window="null"`), sound not emulated, unlimited emulation speed: game time is emulated frames
  and moves only inside open/restart (the readiness gate) and apply. Nothing ticks between calls.
- A step of T = round(duration_ms / frame) frames (a frame is 70224 clocks at 4.194304 MHz, ~16.74 ms)
  holds the action's buttons for all but the last `release_frames` frames (at least one frame) and then
  releases them. The default step (the task's `step_ms`) is exactly `press_frames` + `release_frames`
  frames (manifest `gameboy.press_frames`/`release_frames`, defaults 5 and 14). `wait` holds nothing (and a
  wait shorter than half a frame runs none).
  Only the last frame of a step is rendered (the screen is a function of the emulated machine, so this
  changes no RAM).
- The ROM must have the sha256 the manifest pins, and its header must be sound (rom.py); every start
  state names the ROM it was saved from, checked before loading (state.py).
- Seeds: the start state is `start_states[seed % n]`; then, if the manifest declares `seed`, the seed is
  written little-endian into RAM at `seed.address` (`seed.size` bytes) and 1 into `seed.flag`; a game
  made for the platform waits for that flag and seeds its generator from those bytes. Attempts after a
  loss use the seeds the env derives from the run's seed.
- The real-time clock of MBC3 cartridges: PyBoy advances it by the wall time between saving and loading
  a state. States saved here carry a save time far in the future, so loading adds nothing; while running,
  the clock follows emulated cycles only. So a run never depends on when or how fast it runs.
- One PyBoy instance must be used from one thread at a time: every public method holds the session's
  lock, so any thread may drive a session, one call at a time.
"""
import io
import struct
import threading
import time
import warnings
from pathlib import Path

from ...errors import GameCrashed, GameNotReady, RomError, SandboxError, StateError
from .fields import SpecProblem, StateSpec, parse_address
from .rom import check_pinned, inspect_rom
from .state import pack_state, unpack_state

CLOCK_HZ = 4_194_304
FRAME_CLOCKS = 70_224
FRAME_MS = 1000 * FRAME_CLOCKS / CLOCK_HZ  # ~16.742 ms
BUTTONS = ("a", "b", "start", "select", "up", "down", "left", "right")
DEFAULT_PRESS_FRAMES = 5
DEFAULT_RELEASE_FRAMES = 14
DEFAULT_READY_TIMEOUT_FRAMES = 600
# The palette frames are drawn with (light to dark): the screen fields' reference captures use it too.
PALETTE = (0xE0F8D0, 0x88C070, 0x346856, 0x081820)
FAR_FUTURE = 1e300  # an RTC save time: loading computes max(0, now - saved) = 0 seconds elapsed
MAX_SCALE = 8
# PyBoy prints its INFO lines (the most important of its levels: "No RTC file found") to stdout; above them
# all, nothing is printed (emulator failures still raise).
QUIET = 5


def frames_for(duration_ms):
    """The number of emulated frames a step of `duration_ms` lasts (at least one)."""
    return max(1, round(duration_ms / FRAME_MS))


def _pyboy_class():
    with warnings.catch_warnings():  # PyBoy's SDL2 import warns about its bundled binaries; no window is used
        warnings.simplefilter("ignore")
        from pyboy import PyBoy
    return PyBoy


class Machine:
    """One PyBoy instance running one checked ROM. Not thread-safe by itself: sessions hold a lock."""

    def __init__(self, rom, *, name="the ROM", pinned_sha256=None):
        self.rom = bytes(rom)
        self.name = name
        self.info = check_pinned(self.rom, pinned_sha256, name) if pinned_sha256 else inspect_rom(self.rom, name)
        self.frames = 0  # emulated frames since power-on or since the loaded state was saved at power-on + n
        self._pyboy = _pyboy_class()(io.BytesIO(self.rom), window="null", sound_emulated=False, sound_volume=0,
                                     color_palette=PALETTE, log_level=QUIET)
        self._pyboy.set_emulation_speed(0)

    @property
    def pyboy(self):
        return self._pyboy

    def load(self, blob, name="the state"):
        header, raw = unpack_state(blob, rom_sha256=self.info.sha256, name=name)
        try:
            self._pyboy.load_state(io.BytesIO(raw))
        except Exception as exc:  # a damaged state that passed the header checks
            raise StateError(f"{name}: PyBoy could not load it ({exc})") from None
        self.frames = int(header.get("frames", 0))
        return header

    def snapshot(self, **meta):
        """The machine's state now, as a GameWorld state file for this ROM."""
        buffer = io.BytesIO()
        before = time.time()
        self._pyboy.save_state(buffer)
        after = time.time()
        raw = buffer.getvalue()
        if self.info.has_rtc:
            raw = pin_rtc_save_time(raw, before, after)
        return pack_state(raw, rom_sha256=self.info.sha256, rom_title=self.info.title, frames=self.frames, **meta)

    def tick(self, frames, render):
        if frames > 0:
            if not self._pyboy.tick(frames, render):
                raise GameCrashed(f"{self.name}: the emulator stopped")
            self.frames += frames

    def step(self, buttons, total_frames, release_frames):
        """Hold `buttons` for all but the last `release_frames` frames (at least one), release, run the rest."""
        if not buttons:
            self.tick(total_frames, True)
            return
        hold = min(total_frames, max(1, total_frames - release_frames))
        rest = total_frames - hold
        for button in buttons:
            self._pyboy.button_press(button)
        self.tick(hold, rest == 0)
        for button in buttons:
            self._pyboy.button_release(button)
        self.tick(rest, True)

    def read(self, address, size):
        memory = self._pyboy.memory
        if size == 1:
            return (memory[address],)
        return memory[address:address + size]

    def write(self, address, data):
        for offset, byte in enumerate(data):
            self._pyboy.memory[address + offset] = byte

    def screen(self):
        """The current frame as a (144, 160, 4) RGBA array (a view: copy it to keep it)."""
        return self._pyboy.screen.ndarray

    def image(self, fmt="png", scale=1):
        if fmt not in ("png", "jpeg"):
            raise ValueError(f"frame format is png or jpeg, not {fmt!r}")
        if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= MAX_SCALE:
            raise ValueError(f"scale is an integer from 1 to {MAX_SCALE}, got {scale!r}")
        from PIL import Image

        image = self._pyboy.screen.image.convert("RGB")
        if scale != 1:
            image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
        out = io.BytesIO()
        if fmt == "png":
            image.save(out, "PNG")
        else:
            image.save(out, "JPEG", quality=90)
        return out.getvalue()

    def close(self):
        if self._pyboy is not None:
            self._pyboy.stop(save=False)
            self._pyboy = None


def pin_rtc_save_time(raw, before, after):
    """Rewrite the wall-clock times PyBoy stores in an RTC cartridge's state so that loading it later adds
    no elapsed time: the doubles written between `before` and `after` (the save call) become FAR_FUTURE."""
    raw = bytearray(raw)
    found = 0
    low, high = before - 1.0, after + 1.0
    for offset in range(len(raw) - 7):
        (value,) = struct.unpack_from("<d", raw, offset)
        if low <= value <= high:
            struct.pack_into("<d", raw, offset, FAR_FUTURE)
            found += 1
    if not found:
        raise StateError("could not find the real-time clock's save time in the state: the RTC would drift")
    return bytes(raw)


class GameBoySession:
    """One Game Boy game: open at a seed, restart, apply primitive actions, read state, frames, snapshots."""

    scales_frames = True  # frame(fmt, scale=n): nearest-neighbour enlargement for people

    def __init__(self, game, *, rom_path=None, **_options):
        self.game = game
        section = game.manifest.get("gameboy")
        if not isinstance(section, dict):
            raise SandboxError(f"{game.slug}: the manifest has no `gameboy` section")
        self.section = section
        bundle_dir = Path(game.bundle_dir)
        try:
            self.spec = StateSpec(section, bundle_dir)
        except SpecProblem as exc:
            raise SandboxError(f"{game.slug}: gameboy.{exc}") from None
        self.press_frames = section.get("press_frames", DEFAULT_PRESS_FRAMES)
        self.release_frames = section.get("release_frames", DEFAULT_RELEASE_FRAMES)
        self.ready_timeout_frames = section.get("ready_timeout_frames", DEFAULT_READY_TIMEOUT_FRAMES)
        seed = section.get("seed")
        self.seed_address = parse_address(seed["address"], "seed.address") if seed else None
        self.seed_size = seed.get("size", 2) if seed else 0
        self.seed_flag = parse_address(seed["flag"], "seed.flag") if seed and "flag" in seed else None
        self.rom_path = Path(rom_path) if rom_path else bundle_dir / section["rom"]
        self._state_paths = [bundle_dir / p for p in _state_list(section)]
        self._lock = threading.RLock()
        self._machine = None
        self._states = None

    # The session protocol.
    def open(self, seed):
        with self._lock:
            if self._machine is None:
                self._start_machine()
            return self._start(seed)

    def restart(self, seed):
        with self._lock:
            if self._machine is None:
                raise SandboxError(f"{self.game.slug}: restart() before open()")
            return self._start(seed)

    def apply(self, action):
        with self._lock:
            machine = self._require()
            kind = action["type"]
            total = frames_for(action["duration_ms"])
            if kind == "wait":  # a wait may be shorter than a frame (then nothing moves)
                machine.step((), round(action["duration_ms"] / FRAME_MS), self.release_frames)
            elif kind in ("press_key", "press_keys"):
                buttons = [action["key"]] if kind == "press_key" else list(action["keys"])
                unknown = [b for b in buttons if b not in BUTTONS]
                if unknown:
                    raise SandboxError(f"{self.game.slug}: {unknown[0]!r} is not a Game Boy button")
                machine.step(buttons, total, self.release_frames)
            else:
                raise SandboxError(f"{self.game.slug}: a Game Boy has no pointer ({kind})")
            return self._read()

    def state(self):
        with self._lock:
            return self._read()

    def frame(self, fmt="jpeg", scale=1):
        with self._lock:
            return self._require().image(fmt, scale)

    def close(self):
        with self._lock:
            if self._machine is not None:
                self._machine.close()
                self._machine = None

    # Beyond the protocol: start states and RAM, for capture tools, solvers and tests.
    def snapshot(self, **meta):
        """A GameWorld state file of the game as it is now (load it as a start state)."""
        with self._lock:
            return self._require().snapshot(game=self.game.slug, **meta)

    def load_snapshot(self, blob):
        """Return to a snapshot of this session's ROM (a solver's look-ahead); returns the state."""
        with self._lock:
            self._require().load(blob, "the snapshot")
            return self._read()

    def memory(self, address, size=1):
        with self._lock:
            return bytes(self._require().read(address, size))

    @property
    def machine(self):
        return self._require()

    # Below: with the lock held.
    def _start_machine(self):
        if not self.rom_path.is_file():
            raise RomError(f"{self.game.slug}: the ROM {self.rom_path.name} is missing (homebrew ROMs are built "
                           "from source by bin/setup)")
        machine = Machine(self.rom_path.read_bytes(), name=f"{self.game.slug}: {self.rom_path.name}",
                          pinned_sha256=self.section["rom_sha256"])
        try:
            clock_mapped = [f.name for f in self.spec.ram if 0xA000 <= f.address < 0xC000]
            if machine.info.has_rtc and clock_mapped:
                # PyBoy counts wall time when cartridge RAM is read while the clock is mapped there.
                raise SandboxError(f"{self.game.slug}: field {clock_mapped[0]!r} is in cartridge RAM "
                                   "(0xA000-0xBFFF) of a cartridge with a real-time clock; reading it could "
                                   "advance the clock by wall time: copy it to work RAM or leave it out")
            states = []
            for path in self._state_paths:
                if not path.is_file():
                    raise StateError(f"{self.game.slug}: the start state {path.name} is missing")
                blob = path.read_bytes()
                unpack_state(blob, rom_sha256=machine.info.sha256, name=f"{self.game.slug}: {path.name}")
                states.append((path.name, blob))
        except BaseException:
            machine.close()
            raise
        self._machine, self._states = machine, states

    def _start(self, seed):
        machine = self._machine
        name, blob = self._states[seed % len(self._states)]
        machine.load(blob, f"{self.game.slug}: {name}")
        if self.seed_address is not None:
            value = seed % (1 << (8 * self.seed_size))
            machine.write(self.seed_address, value.to_bytes(self.seed_size, "little"))
            if self.seed_flag is not None:
                machine.write(self.seed_flag, b"\x01")
        return self._await_ready()

    def _await_ready(self):
        waited = 0
        while True:
            state = self._read()
            if state["actionable"]:
                return state
            if waited >= self.ready_timeout_frames:
                raise GameNotReady(f"{self.game.slug}: not actionable after {waited} frames "
                                   f"(status {state['status']!r})")
            self._machine.tick(1, True)
            waited += 1

    def _read(self):
        machine = self._require()
        screen = machine.screen() if self.spec.needs_screen else None
        return self.spec.read(machine.read, screen)

    def _require(self):
        if self._machine is None:
            raise SandboxError(f"{self.game.slug}: the session is not open")
        return self._machine


def _state_list(section):
    states = section.get("start_states") or []
    return [entry["file"] if isinstance(entry, dict) else entry for entry in states]
