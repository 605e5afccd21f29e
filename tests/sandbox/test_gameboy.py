"""The Game Boy backend: ROM and state checks, steps in frames, paused time, seeds, frames, RAM and screen
fields, snapshots, one thread at a time, and a real-time clock that does not follow the wall clock."""
import io
import json
import shutil
import subprocess
import threading
import time

import pytest
from PIL import Image

from sandbox import ManifestError, RomError, StateError, load_manifest, make, registry
from sandbox.backends.gameboy import (FRAME_MS, GameBoySession, Machine, frames_for,
                                                pin_rtc_save_time)
from sandbox.backends.gameboy.capture import capture_after_actions
from sandbox.backends.gameboy.fields import RamField, SpecProblem, StateSpec
from sandbox.backends.gameboy.rom import global_checksum, header_checksum, inspect_rom, sha256
from sandbox.backends.gameboy.state import pack_state, read_header
from sandbox.registry import GAMES_DIR, Registry

WAIT = {"type": "wait"}
UP = {"type": "press_key", "key": "up"}
RTC_SOURCE = __import__("pathlib").Path(__file__).with_name("gameboy_rtc.s")


def snake_rom():
    return (GAMES_DIR / "snake" / "snake.gb").read_bytes()


@pytest.fixture
def bundle(tmp_path):
    """copy(slug) -> (registry over a writable copy of that bundle, its folder)."""
    def copy(slug):
        shutil.copytree(GAMES_DIR / slug, tmp_path / slug, ignore=shutil.ignore_patterns("src"))
        return Registry(tmp_path), tmp_path / slug
    return copy


def edit_manifest(folder, change):
    path = folder / "manifest.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def open_first_task(games, slug, seed=1):
    task = next(iter(games.game(slug).tasks.values()))
    env = make(task, observation="state")
    env.reset(seed=seed)
    return env


def reheadered(rom, title):
    """A valid ROM that differs from `rom`: another title, both checksums fixed."""
    rom = bytearray(rom)
    rom[0x134:0x134 + len(title)] = title
    rom[0x14D] = header_checksum(rom)
    total = global_checksum(rom)
    rom[0x14E], rom[0x14F] = total >> 8, total & 0xFF
    return bytes(rom)


# ROM files.

def test_the_homebrew_roms_pass_the_header_checks():
    for slug in ("snake", "gemmaze"):
        game = registry.game(slug)
        rom = (game.bundle_dir / game.manifest["gameboy"]["rom"]).read_bytes()
        info = inspect_rom(rom)
        assert info.size == 32768 and info.cartridge_name == "ROM only" and not info.has_rtc
        assert info.sha256 == game.manifest["gameboy"]["rom_sha256"]


@pytest.mark.parametrize("damage, message", [
    (lambda rom: rom[:0x100], "too small to hold the cartridge header"),
    (lambda rom: b"\0" * 32768, "lacks the logo"),
    (lambda rom: rom[:0x134] + b"X" + rom[0x135:], "header checksum"),
    (lambda rom: rom[:16384], "wrong size: its header declares 32768 bytes"),
    (lambda rom: rom + rom, "wrong size"),
    (lambda rom: rom[:0x2000] + bytes([rom[0x2000] ^ 0xFF]) + rom[0x2001:], "corrupt: its global checksum"),
])
def test_bad_roms_are_refused_with_the_reason(damage, message):
    with pytest.raises(RomError, match=message):
        inspect_rom(damage(snake_rom()), "upload.gb")


def test_an_unsupported_cartridge_type_is_refused():
    rom = bytearray(snake_rom())
    rom[0x147] = 0xFC  # a pocket camera
    rom[0x14D] = header_checksum(rom)
    total = global_checksum(rom)
    rom[0x14E], rom[0x14F] = total >> 8, total & 0xFF
    with pytest.raises(RomError, match="cartridge type 0xFC"):
        inspect_rom(bytes(rom))


# The bundle's ROM and states, checked before anything runs.

def test_a_corrupt_rom_in_a_bundle_is_refused(bundle):
    games, folder = bundle("snake")
    rom = bytearray((folder / "snake.gb").read_bytes())
    rom[0x3000] ^= 0x55
    (folder / "snake.gb").write_bytes(bytes(rom))
    with pytest.raises(RomError, match="snake.gb has sha256 .* but the manifest pins"):
        open_first_task(games, "snake")


def test_a_rom_whose_checksum_does_not_match_its_state_is_refused(bundle):
    """A sound ROM, pinned in the manifest, but not the ROM the start state was saved from."""
    games, folder = bundle("snake")
    other = reheadered((folder / "snake.gb").read_bytes(), b"SNAKE2")
    (folder / "snake.gb").write_bytes(other)
    edit_manifest(folder, lambda d: d["gameboy"].update(rom_sha256=sha256(other)))
    with pytest.raises(StateError, match=r"start.gwstate was saved from the ROM with sha256 [0-9a-f]{64}, not "
                                         r"from this ROM \(" + sha256(other)):
        open_first_task(games, "snake")


def test_a_state_from_another_rom_is_refused(bundle):
    games, folder = bundle("snake")
    shutil.copy(GAMES_DIR / "gemmaze" / "start.gwstate", folder / "start.gwstate")
    gemmaze_sha = registry.game("gemmaze").manifest["gameboy"]["rom_sha256"]
    with pytest.raises(StateError, match=f"saved from the ROM with sha256 {gemmaze_sha}.*refused"):
        open_first_task(games, "snake")


def test_a_raw_emulator_state_is_refused(bundle):
    games, folder = bundle("snake")
    machine = Machine(snake_rom())
    raw = io.BytesIO()
    machine.pyboy.save_state(raw)
    machine.close()
    (folder / "start.gwstate").write_bytes(raw.getvalue())
    with pytest.raises(StateError, match="not a GameWorld Game Boy state"):
        open_first_task(games, "snake")


def test_a_state_from_another_emulator_version_is_refused():
    blob = pack_state(b"\0" * 10, rom_sha256=sha256(snake_rom()))
    blob = blob.replace(b'"pyboy":"2.8.1"', b'"pyboy":"2.7.0"')
    machine = Machine(snake_rom())
    try:
        with pytest.raises(StateError, match="saved by PyBoy 2.7.0"):
            machine.load(blob)
    finally:
        machine.close()


def test_a_missing_rom_is_named(bundle):
    games, folder = bundle("snake")
    (folder / "snake.gb").unlink()
    with pytest.raises(RomError, match="snake.gb is missing"):
        open_first_task(games, "snake")


# Steps, time and seeds.

def test_a_step_holds_the_button_then_releases_and_time_moves_only_in_steps():
    assert frames_for(318) == 19 and frames_for(1000) == 60 and frames_for(1) == 1
    with make("snake/apples-10", observation="state") as env:
        state, _ = env.reset(seed=1)
        assert state["ticks"] == 0 and state["direction"] == "right"
        state, _ = env.step(WAIT)
        assert state["ticks"] == 19
        state, _ = env.step(UP)
        assert state["ticks"] == 38 and state["direction"] == "up"
        state, _ = env.step({"type": "wait", "duration_ms": 500})
        assert state["ticks"] == 68
        before, frame = env.session.state(), env.render("png")
        time.sleep(0.3)  # nothing moves between steps, however long the pause
        assert env.session.state() == before and env.render("png") == frame
        state, info = env.step({"type": "left_click", "x": 3, "y": 3})
        assert info["invalid"] and "pointer" in info["invalid_reason"] and state == before


def test_the_press_lasts_press_frames(bundle):
    """With press_frames 1 the D-pad is down for a single frame: still one turn, and the step is 15 frames."""
    games, folder = bundle("snake")

    def change(data):
        data["gameboy"].update(press_frames=1)
        data["step_ms"] = 251
        for task in data["tasks"]:
            task["step_ms"] = 251
    edit_manifest(folder, change)
    with make(games.task("snake/apples-3"), observation="state") as env:
        env.reset(seed=1)
        state, _ = env.step(UP)
        assert state["ticks"] == 15 and state["direction"] == "up"


def test_seeds_choose_the_game_deterministically():
    def apple(seed):
        with make("snake/apples-3", observation="state") as env:
            state, _ = env.reset(seed=seed)
            return state["apple_x"], state["apple_y"]
    assert apple(1) == apple(1)
    assert len({apple(seed) for seed in (1, 2, 3, 4)}) > 1


def test_restart_gives_the_same_state_as_open():
    with make("gemmaze/escape-1", observation="state") as env:
        first, _ = env.reset(seed=5)
        env.step({"type": "press_key", "key": "right"})
        assert env.session.restart(5) == first


# Frames and fields.

def test_frames_are_160x144_and_scale_crisply():
    with make("snake/apples-3", observation="frame") as env:
        jpeg, _ = env.reset(seed=1)
        assert Image.open(io.BytesIO(jpeg)).size == (160, 144)
        png = env.render("png")
        big = Image.open(io.BytesIO(env.render("png", scale=4))).convert("RGB")
        assert big.size == (640, 576)
        small = Image.open(io.BytesIO(png)).convert("RGB")
        for x, y in ((0, 0), (80, 72), (159, 143), (37, 91)):
            block = {big.getpixel((4 * x + dx, 4 * y + dy)) for dx in range(4) for dy in range(4)}
            assert block == {small.getpixel((x, y))}  # nearest-neighbour: no blurred edges
        with pytest.raises(ValueError):
            env.render("png", scale=20)


def test_ram_fields_decode_size_sign_bcd_endianness_mask_and_map():
    assert RamField("a", 0, 2).decode([0x34, 0x12]) == 0x1234
    assert RamField("a", 0, 2, big_endian=True).decode([0x12, 0x34]) == 0x1234
    assert RamField("a", 0, 1, signed=True).decode([0xFE]) == -2
    assert RamField("a", 0, 2, signed=True).decode([0x00, 0x80]) == -32768
    assert RamField("a", 0, 3, bcd=True, big_endian=True).decode([0x01, 0x23, 0x45]) == 12345
    assert RamField("a", 0, 2, bcd=True).decode([0x99, 0x09]) == 999
    assert RamField("a", 0, 1, mask=0x0F).decode([0xAB]) == 0x0B
    assert RamField("a", 0, 1, mapping={"1": "down"}).decode([1]) == "down"
    assert RamField("a", 0, 1, mapping={"1": "down"}).decode([7]) == 7


@pytest.mark.parametrize("section, where", [
    ({"fields": {"x": {"address": "0xC000"}}, "actionable": {"field": "x", "eq": 1}}, "fields"),
    ({"fields": {"score": {"address": "C000"}}, "actionable": {"field": "score", "eq": 1}}, "fields.score.address"),
    ({"fields": {"score": {"address": 0xC000, "size": 5}}, "actionable": {"field": "score", "eq": 1}},
     "fields.score.size"),
    ({"fields": {"score": {"address": 0xC000}}, "actionable": {"field": "lives", "eq": 1}}, "actionable.field"),
    ({"fields": {"score": {"address": 0xC000}}, "actionable": {"field": "score", "like": 1}}, "actionable"),
    ({"fields": {"score": {"screen": {"x": 150, "y": 0, "width": 20, "height": 8}, "reference": "r.png",
                           "threshold": 4}}, "actionable": {"field": "score", "eq": True}}, "fields.score.screen"),
])
def test_field_declarations_are_checked(section, where, tmp_path):
    with pytest.raises(SpecProblem) as caught:
        StateSpec(section, tmp_path)
    assert caught.value.where == where


def test_the_game_over_banner_is_a_screen_match():
    game = registry.game("snake")
    task = next(iter(game.tasks.values()))
    with make(task, observation="state") as env:
        state, _ = env.reset(seed=game.fail_trajectory.seed)
        assert state["game_over_banner"] is False
        for action in game.fail_trajectory.actions:
            _, info = env.step(action)
            if info["reset"]:
                break
        lost = env.trace[-2]["state"]
        assert lost["terminal"]["outcome"] == "lose" and lost["game_over_banner"] is True
        assert env.trace[-1]["state"]["game_over_banner"] is False  # the next attempt


# Manifests.

@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(keys=["up", "ArrowUp"]), "keys"),
    (lambda d: d.update(viewport={"width": 320, "height": 288}), "viewport"),
    (lambda d: d["tasks"][0].update(step_ms=200), "tasks[0].step_ms"),
    (lambda d: d["state_fields"].update(lives="Lives left."), "state_fields.lives"),
    (lambda d: d["gameboy"]["fields"]["score"].update(address="0x1C000"), "gameboy"),
    (lambda d: d["gameboy"].update(rom="../breakout/game.js"), "gameboy.rom"),
    (lambda d: d.pop("gameboy"), "(top level)"),
])
def test_gameboy_manifest_errors_are_named(bundle, change, field):
    _, folder = bundle("snake")
    edit_manifest(folder, change)
    with pytest.raises(ManifestError) as caught:
        load_manifest(folder)
    assert caught.value.field.startswith(field), str(caught.value)


# Snapshots: a state after a list of actions, loadable as a start state.

def test_a_state_captured_after_actions_replays_like_playing_them():
    actions = [UP, WAIT, {"type": "press_key", "key": "left"}]
    game = registry.game("snake")
    start = (game.bundle_dir / "start.gwstate").read_bytes()
    with make("snake/apples-10", observation="state") as env:
        env.reset(seed=1)
        for action in actions:
            played, _ = env.step(action)
    # the same moment, captured by replaying the actions from the seeded start
    with make("snake/apples-10", observation="state") as env:
        env.reset(seed=1)
        seeded = env.session.snapshot(note="seeded")
    blob = capture_after_actions(snake_rom(), actions, start_state=seeded)
    header, _ = read_header(blob)
    assert header["rom_sha256"] == sha256(snake_rom()) and header["actions"] == actions
    machine = Machine(snake_rom())
    try:
        machine.load(blob)
        assert bytes(machine.read(0xC000, 16)) == bytes(_ram_of(played))
    finally:
        machine.close()
    assert read_header(start)[0]["rom_sha256"] == sha256(snake_rom())


def _ram_of(state):
    """The first 16 bytes of snake's GameWorld block, rebuilt from a state (fields at 0xC000-0xC00C)."""
    directions = ["right", "down", "left", "up"]
    causes = ["none", "wall", "itself"]
    ram = bytearray(16)
    ram[0] = state["mode"]
    ram[1] = state["length"]
    ram[2:4] = state["score"].to_bytes(2, "little")
    ram[4], ram[5], ram[6], ram[7] = state["head_x"], state["head_y"], state["apple_x"], state["apple_y"]
    ram[8] = directions.index(state["direction"])
    ram[9] = state["speed"]
    ram[10:12] = state["ticks"].to_bytes(2, "little")
    ram[12] = causes.index(state["cause"])
    return ram


def test_load_snapshot_returns_to_a_moment():
    with make("gemmaze/escape-2", observation="state") as env:
        env.reset(seed=2)
        blob = env.session.snapshot()
        after, _ = env.step({"type": "press_key", "key": "down"})
        back = env.session.load_snapshot(blob)
        assert back["ticks"] == 0
        assert env.session.apply({"type": "press_key", "key": "down", "duration_ms": 318}) == after


# One thread at a time.

def test_threads_take_turns_on_one_session():
    game = registry.game("snake")
    session = GameBoySession(game)
    session.open(1)
    errors = []

    def drive():
        try:
            for _ in range(5):
                session.apply({"type": "wait", "duration_ms": 50})
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=drive) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert not errors
        assert session.state()["ticks"] == 4 * 5 * frames_for(50)
    finally:
        session.close()


# The cartridge real-time clock.

@pytest.fixture(scope="module")
def rtc_rom(tmp_path_factory):
    if shutil.which("sdasgb") is None:
        pytest.skip("sdcc (sdasgb, sdldgb, makebin) is not installed")
    folder = tmp_path_factory.mktemp("rtc")
    shutil.copy(RTC_SOURCE, folder / "rtc.s")
    for command in (["sdasgb", "-plosgff", "-o", "rtc.rel", "rtc.s"], ["sdldgb", "-n", "-i", "rtc.ihx", "rtc.rel"],
                    ["makebin", "-Z", "-yt", "0x10", "-ya", "1", "-yn", "RTCTEST", "rtc.ihx", "rtc.gb"]):
        subprocess.run(command, cwd=folder, check=True, capture_output=True)
    return (folder / "rtc.gb").read_bytes()


def test_the_real_time_clock_does_not_follow_the_wall_clock(rtc_rom):
    assert inspect_rom(rtc_rom).has_rtc
    machine = Machine(rtc_rom)
    machine.tick(90, False)
    blob = machine.snapshot()
    machine.close()

    def clock_after_loading(pause):
        time.sleep(pause)
        machine = Machine(rtc_rom)
        try:
            machine.load(blob)
            readings = []
            for _ in range(4):
                machine.tick(30, False)
                readings.append(bytes(machine.read(0xC000, 4)))
            return readings
        finally:
            machine.close()
    assert clock_after_loading(0) == clock_after_loading(1.2)


def test_pinning_finds_the_save_time():
    raw = bytearray(100)
    now = time.time()
    __import__("struct").pack_into("<d", raw, 40, now)
    pinned = pin_rtc_save_time(bytes(raw), now - 0.1, now + 0.1)
    assert __import__("struct").unpack_from("<d", pinned, 40)[0] > 1e299
    with pytest.raises(StateError, match="real-time clock"):
        pin_rtc_save_time(bytes(100), now, now)


def test_frame_duration():
    assert round(FRAME_MS, 3) == 16.743  # 70224 clocks at 4.194304 MHz


def test_a_game_that_never_becomes_actionable_is_an_error_not_a_hang(bundle):
    from sandbox import GameNotReady

    games, folder = bundle("snake")
    edit_manifest(folder, lambda d: d["gameboy"].update(actionable={"field": "mode", "eq": 99},
                                                        ready_timeout_frames=30))
    with pytest.raises(GameNotReady, match="not actionable after 30 frames"):
        open_first_task(games, "snake")


def test_conditions_combine():
    from sandbox.backends.gameboy.fields import _condition, evaluate

    names = ["mode", "lives", "dir"]
    values = {"mode": 2, "lives": 0, "dir": "up"}
    assert evaluate(_condition({"all": [{"field": "mode", "eq": 2}, {"field": "lives", "le": 0}]}, names, "c"), values)
    assert evaluate(_condition({"any": [{"field": "mode", "eq": 3}, {"field": "dir", "in": ["up"]}]}, names, "c"), values)
    assert evaluate(_condition({"not": {"field": "dir", "not_in": ["up", "down"]}}, names, "c"), values)
    assert not evaluate(_condition({"field": "dir", "gt": 3}, names, "c"), values)  # a name is not a number
