"""Raw PyBoy vs the sandbox protocol: the same Game Boy input sequence stepped both ways, in one run.

The raw loop is what a bare PyBoy harness does: load the start state, write the seed, tick until the game
is ready, then per action press the button, tick `press_frames`, release, tick `release_frames`
rendering the last frame. The protocol loop is the sandbox: `make(task)`, `env.reset(seed)`,
`env.step(action)` (action checks, the session's step, the state read from RAM, the trace, the oracle).
The input sequence is a task's reference trajectory (it never loses, so neither loop resets), run for
`--rounds` rounds each, interleaved; only steps are timed, and each side's rate is taken from its median
round (the machine is shared: a round that another process slowed down does not count). Both loops must
end in the same RAM.

    .venv/bin/python bench/gameboy_speed.py [--task gemmaze/escape-2] [--rounds 30]
Last line: ratio=<protocol/raw> raw_steps_per_s=.. protocol_steps_per_s=..
"""
import argparse
import dataclasses
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import make, registry  # noqa: E402
from sandbox.backends.gameboy import PALETTE, QUIET, _pyboy_class, frames_for  # noqa: E402
from sandbox.backends.gameboy.fields import parse_address  # noqa: E402
from sandbox.backends.gameboy.state import unpack_state  # noqa: E402


def buttons_of(task, action):
    primitive = task.game.action_space.resolve(action, task.step_ms)
    if primitive["type"] == "press_key":
        return [primitive["key"]], primitive["duration_ms"]
    if primitive["type"] == "press_keys":
        return primitive["keys"], primitive["duration_ms"]
    return [], primitive["duration_ms"]


class RawPlayer:
    """PyBoy with nothing around it: the same ROM, start state, seed and frames as the sandbox."""

    def __init__(self, task):
        game = task.game
        self.section = section = game.manifest["gameboy"]
        rom = (game.bundle_dir / section["rom"]).read_bytes()
        entry = section["start_states"][0]
        blob = (game.bundle_dir / (entry["file"] if isinstance(entry, dict) else entry)).read_bytes()
        _, self.state = unpack_state(blob, rom_sha256=section["rom_sha256"])
        self.pyboy = _pyboy_class()(io.BytesIO(rom), window="null", sound_emulated=False, sound_volume=0,
                                    color_palette=PALETTE, log_level=QUIET)
        self.pyboy.set_emulation_speed(0)
        self.release = section.get("release_frames", 14)
        self.mode = parse_address(section["fields"]["mode"]["address"], "mode")
        self.ready = section["actionable"]["eq"]

    def reset(self, seed):
        pyboy = self.pyboy
        pyboy.load_state(io.BytesIO(self.state))
        seed_spec = self.section["seed"]
        address, flag = parse_address(seed_spec["address"], "seed"), parse_address(seed_spec["flag"], "flag")
        pyboy.memory[address], pyboy.memory[address + 1] = seed & 0xFF, seed >> 8 & 0xFF
        pyboy.memory[flag] = 1
        while pyboy.memory[self.mode] != self.ready:
            pyboy.tick(1, True)

    def step(self, buttons, duration_ms):
        pyboy, total = self.pyboy, frames_for(duration_ms)
        hold = max(1, total - self.release) if buttons else 0
        for button in buttons:
            pyboy.button_press(button)
        if hold:
            pyboy.tick(hold, total == hold)
        for button in buttons:
            pyboy.button_release(button)
        if total > hold:
            pyboy.tick(total - hold, True)

    def ram(self):
        return bytes(self.pyboy.memory[0xC000:0xC100])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="gemmaze/escape-2")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    task = registry.task(args.task)
    # The run must not end at the target: the same number of steps both ways.
    task = dataclasses.replace(task, target=10 ** 9, max_actions=1000)
    actions = task.reference.actions
    seed = task.reference.seed
    inputs = [buttons_of(task, action) for action in actions]

    raw = RawPlayer(task)
    raw_s, protocol_s = [], []
    with make(task, observation="state") as env:
        for _ in range(args.rounds):
            raw.reset(seed)
            started = time.perf_counter()
            for buttons, duration in inputs:
                raw.step(buttons, duration)
            raw_s.append(time.perf_counter() - started)

            env.reset(seed=seed)
            started = time.perf_counter()
            for action in actions:
                env.step(action)
            protocol_s.append(time.perf_counter() - started)
            if env.session.memory(0xC000, 0x100) != raw.ram():
                raise SystemExit("the raw loop and the protocol ended in different RAM: not the same inputs")
        score = env.score()
    steps = len(actions)
    raw_rate, protocol_rate = steps / statistics.median(raw_s), steps / statistics.median(protocol_s)
    print(f"{args.task} seed {seed}: {steps} actions x {args.rounds} rounds each way, {frames_for(task.step_ms)} "
          f"frames a step; both end in the same RAM (best {task.score_field} {score.best:g}, "
          f"attempts {score.attempts})")
    print(f"raw PyBoy: {sum(raw_s):.3f} s in all, median round {statistics.median(raw_s) * 1000:.1f} ms; "
          f"sandbox protocol: {sum(protocol_s):.3f} s, median round {statistics.median(protocol_s) * 1000:.1f} ms")
    print(f"ratio={protocol_rate / raw_rate:.3f} raw_steps_per_s={raw_rate:.1f} protocol_steps_per_s={protocol_rate:.1f}")


if __name__ == "__main__":
    main()
