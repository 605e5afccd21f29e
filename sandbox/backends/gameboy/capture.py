"""Start states: capture a GameWorld state file by booting a ROM and playing a list of actions.

A bundle's `gameboy.start_states` entries say how each state was made, so it can be made again:

    {"file": "start.gwstate", "until": {"field": "mode", "eq": 1}, "max_frames": 600, "actions": []}

from power-on, run frame by frame until the condition holds (over the manifest's fields), then apply the
actions (Game Boy buttons, as steps: see `capture_after_actions`), then save. The same function serves a
state captured from any list of actions (a maintainer playing a registered ROM to its start, later).

    python -m sandbox.backends.gameboy.capture snake     # capture a bundle's start states again
"""
import sys
from pathlib import Path

from ...errors import SandboxError
from . import BUTTONS, DEFAULT_PRESS_FRAMES, DEFAULT_RELEASE_FRAMES, FRAME_MS, Machine, frames_for
from .fields import StateSpec, _condition, evaluate


def apply_button_action(machine, action, press_frames, release_frames):
    """One step of Game Boy buttons (press_key, press_keys or wait) on a machine, as a capture plays it."""
    if not isinstance(action, dict) or action.get("type") not in ("press_key", "press_keys", "wait"):
        raise SandboxError(f"a capture action is press_key, press_keys or wait (Game Boy buttons), got {action!r}")
    total = frames_for(action.get("duration_ms", (press_frames + release_frames) * FRAME_MS))
    buttons = [] if action["type"] == "wait" else (
        [action.get("key")] if action["type"] == "press_key" else list(action.get("keys") or []))
    unknown = [b for b in buttons if b not in BUTTONS]
    if unknown:
        raise SandboxError(f"{unknown[0]!r} is not a Game Boy button ({', '.join(BUTTONS)})")
    machine.step(buttons, total, release_frames)


def capture_after_actions(rom, actions=(), *, start_state=None, boot_frames=0, until=None, read_state=None,
                          max_frames=3600, press_frames=DEFAULT_PRESS_FRAMES,
                          release_frames=DEFAULT_RELEASE_FRAMES, pinned_sha256=None, note=""):
    """Boot `rom` (or load `start_state`, a state file of that ROM), run `boot_frames` frames, then, if
    `until(state)` is given, frame by frame until it holds (`read_state(machine)` makes the state), then
    play `actions`; return the state file of that moment."""
    machine = Machine(rom, pinned_sha256=pinned_sha256)
    try:
        if start_state is not None:
            machine.load(start_state, "the start state")
        machine.tick(boot_frames, True)
        if until is not None:
            waited = 0
            while not until(read_state(machine)):
                if waited >= max_frames:
                    raise SandboxError(f"the capture condition did not hold within {max_frames} frames")
                machine.tick(1, True)
                waited += 1
        for action in actions:
            apply_button_action(machine, action, press_frames, release_frames)
        return machine.snapshot(actions=list(actions), note=note)
    finally:
        machine.close()


def recapture_start_states(bundle_dir):
    """Capture again every start state of a bundle that records how it was made; return the files written."""
    import json

    bundle_dir = Path(bundle_dir)
    manifest = json.loads((bundle_dir / "manifest.json").read_text())
    section = manifest["gameboy"]
    spec = StateSpec(section, bundle_dir)
    rom = (bundle_dir / section["rom"]).read_bytes()
    written = []
    for entry in section.get("start_states", []):
        if not isinstance(entry, dict):
            continue
        until = None
        if "until" in entry:
            condition = _condition(entry["until"], spec.names, "until")

            def until(state, condition=condition):
                return evaluate(condition, state)
        blob = capture_after_actions(
            rom, entry.get("actions", []), boot_frames=entry.get("boot_frames", 0), until=until,
            read_state=lambda machine: spec.read(machine.read, machine.screen()),
            max_frames=entry.get("max_frames", 3600), press_frames=section.get("press_frames", DEFAULT_PRESS_FRAMES),
            release_frames=section.get("release_frames", DEFAULT_RELEASE_FRAMES), pinned_sha256=section["rom_sha256"],
            note=f"{manifest['slug']} {manifest['version']}: {entry['file']}")
        (bundle_dir / entry["file"]).write_bytes(blob)
        written.append(entry["file"])
    return written


def main(argv=None):
    from ...registry import GAMES_DIR

    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m sandbox.backends.gameboy.capture <game slug>...", file=sys.stderr)
        return 2
    for slug in argv:
        for name in recapture_start_states(GAMES_DIR / slug):
            print(f"{slug}: captured {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
