"""Registered Game Boy ROMs: a maintainer's own legal copy, stored privately (never served), pinned by sha256,
with the declarations (RAM fields, tasks) that make it a game bundle. Keyword-only arguments."""
import hashlib
import json
import os
import tempfile
from pathlib import Path

from django.conf import settings

from sandbox import RomError, SandboxError, load_manifest, run_trajectory

ROM_UPLOAD_MAX_BYTES = 8 * 1024 * 1024


def rom_storage_dir():
    """settings.DATA_DIR/roms: outside the static root (and there is no media root); no URL serves it."""
    return settings.DATA_DIR / "roms"


def inspect_rom_upload(*, data, name="the ROM"):
    """The header facts of an uploaded ROM, or a RomError saying why it is not a usable Game Boy ROM."""
    from sandbox.backends.gameboy.rom import inspect_rom

    if len(data) > ROM_UPLOAD_MAX_BYTES:
        raise RomError(f"{name} is {len(data)} bytes, larger than any Game Boy cartridge (8 MiB)")
    return inspect_rom(data, name)


def store_rom_file(*, data):
    """Write a checked ROM to DATA_DIR/roms/<sha256>.gb (readable by the site's user only); return its info."""
    info = inspect_rom_upload(data=data)
    folder = rom_storage_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{info.sha256}.gb"
    if not path.is_file() or path.read_bytes() != data:
        temporary = path.with_suffix(".part")
        temporary.write_bytes(data)
        os.chmod(temporary, 0o600)
        temporary.replace(path)
    return info


def registered_rom_manifest(*, rom):
    """The game manifest a registered ROM's declarations make (validated by the sandbox like any bundle)."""
    from sandbox.backends.gameboy import FRAME_MS

    step_ms = round((rom.press_frames + rom.release_frames) * FRAME_MS)
    rules = rom.rules if isinstance(rom.rules, dict) else {}
    gameboy = {"rom": "rom.gb", "rom_sha256": rom.sha256, "start_states": ["start.gwstate"],
               "press_frames": rom.press_frames, "release_frames": rom.release_frames,
               "fields": rom.fields, **{k: v for k, v in rules.items() if k in ("status", "actionable", "terminal")}}
    if rom.seed:
        gameboy["seed"] = rom.seed
    defaults = {"version": 1, "start": 0, "max_actions": 100, "step_ms": step_ms, "seeds": [1],
                "reference": {"seed": 1, "actions": []}, "null": {"seed": 1, "actions": []}}
    tasks = [{**defaults, **task} if isinstance(task, dict) else task for task in (rom.tasks or [])]
    return {"slug": rom.slug, "title": rom.title, "version": rom.version, "description": rom.description,
            "genre": rom.genre, "level": rom.level, "backend": "gameboy", "viewport": {"width": 160, "height": 144},
            "keys": rom.keys, "pointer": False, "step_ms": step_ms, "semantic_actions": rom.semantic_actions or [],
            "state_fields": rom.state_fields, "gameboy": gameboy, "tests": {"fail": None}, "tasks": tasks}


def write_rom_bundle(*, rom, folder=None, rom_bytes=None):
    """Write the private bundle of a registered ROM (manifest, ROM, start state) and load it: a GameSpec.

    The default folder is DATA_DIR/roms/bundles/<slug>/. Raises ManifestError naming the declaration at fault.
    """
    folder = Path(folder) if folder else rom_storage_dir() / "bundles" / rom.slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps(registered_rom_manifest(rom=rom), indent=2))
    data = rom_bytes if rom_bytes is not None else rom.rom_path.read_bytes()
    (folder / "rom.gb").write_bytes(data)
    state = folder / "start.gwstate"
    if rom.start_state:
        state.write_bytes(bytes(rom.start_state))
    elif state.exists():
        state.unlink()
    return load_manifest(folder)


def validate_rom_declarations(*, rom, rom_bytes):
    """Check a registered ROM's declarations as a manifest, in a scratch folder; ManifestError if wrong."""
    with tempfile.TemporaryDirectory(prefix="gameworld-rom-") as scratch:
        return write_rom_bundle(rom=rom, folder=Path(scratch) / rom.slug, rom_bytes=rom_bytes).slug


def capture_rom_start_state(*, rom):
    """Boot the ROM, run `boot_frames` frames and the start actions, and store the state as its start state."""
    from sandbox.backends.gameboy.capture import capture_after_actions
    from sandbox.backends.gameboy.state import read_header

    blob = capture_after_actions(rom.rom_path.read_bytes(), rom.start_actions or [], boot_frames=rom.boot_frames,
                                 press_frames=rom.press_frames, release_frames=rom.release_frames,
                                 pinned_sha256=rom.sha256, note=f"registered ROM {rom.slug}")
    type(rom).objects.filter(pk=rom.pk).update(start_state=blob, start_state_sha256=hashlib.sha256(blob).hexdigest())
    rom.start_state = blob
    return read_header(blob)[0]


def check_rom_tasks(*, rom):
    """Run every declared task's reference (must reach its target) and null (must not): one line each."""
    if not rom.start_state:
        return ["no start state yet: capture one first"]
    try:
        game = write_rom_bundle(rom=rom)
    except SandboxError as exc:
        return [f"the declarations are refused: {exc}"]
    lines = []
    for task in game.tasks.values():
        for kind, must in (("reference", True), ("null", False)):
            try:
                score, _ = run_trajectory(task, getattr(task, kind))
            except SandboxError as exc:
                lines.append(f"FAIL {task.id} {kind}: {exc}")
                continue
            verdict = "ok" if score.success == must else "FAIL"
            lines.append(f"{verdict} {task.id} {kind}: best {score.best:g} of {score.target:g} in {score.actions} "
                         f"actions, {score.attempts} attempt(s)")
    return lines or ["no tasks declared"]
