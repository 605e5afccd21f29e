"""Command-line use of the sandbox, shared by `python -m sandbox` and `manage.py play_trajectory`."""
import io
import json
import time
from pathlib import Path

from . import registry, run_trajectory
from .errors import SandboxError
from .manifest import Trajectory


def load_trajectory(path):
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SandboxError(f"{path}: cannot read a trajectory: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("seed"), int) or isinstance(data.get("seed"), bool) \
            or not isinstance(data.get("actions"), list):
        raise SandboxError(f"{path}: a trajectory is an object with an integer `seed` and a list `actions`")
    return Trajectory(seed=data["seed"], actions=data["actions"])


def run(task_id, trajectory_path, *, frames_dir=None, gif=None, out=print):
    task = registry.task(task_id)
    trajectory = load_trajectory(trajectory_path)
    want_frames = bool(frames_dir or gif)
    images = []
    if frames_dir:
        Path(frames_dir).mkdir(parents=True, exist_ok=True)

    def on_step(index, action, info, frame):
        if action is not None and info["invalid"]:
            out(f"  step {index}: invalid action: {info['invalid_reason']}")
        if info["reset"]:
            out(f"  step {index}: the game was lost; attempt {info['attempt']} starts")
        if frame is None:
            return
        if frames_dir:
            (Path(frames_dir) / f"{index:03d}.png").write_bytes(frame)
        if gif:
            images.append(frame)

    score, _trace = run_trajectory(task, trajectory, on_step=on_step, frames=want_frames)
    if gif and images:
        write_gif(images, gif, task.step_ms)
    out(f"{task.id} seed={trajectory.seed}: progress={score.progress:.3f} success={score.success} "
        f"best={score.best:g} target={score.target:g} actions={score.actions} attempts={score.attempts} "
        f"invalid={score.invalid} iar={score.iar:.3f} trace_sha256={score.trace_sha256[:16]}")
    return score


def write_gif(png_frames, path, step_ms):
    from PIL import Image

    images = [Image.open(io.BytesIO(png)).convert("P", palette=Image.Palette.ADAPTIVE) for png in png_frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=step_ms, loop=0)


def check(game_slug, *, out=print):
    """Run every task's reference (must reach the target) and null (must not) trajectory."""
    game = registry.game(game_slug)
    failures = []
    for task in game.tasks.values():
        for kind, must_succeed in (("reference", True), ("null", False)):
            score, _ = run_trajectory(task, getattr(task, kind))
            ok = score.success == must_succeed
            out(f"{'ok  ' if ok else 'FAIL'} {task.id} {kind:9s} progress={score.progress:.3f} "
                f"success={score.success} best={score.best:g}/{score.target:g} actions={score.actions} "
                f"attempts={score.attempts} trace={score.trace_sha256[:12]}")
            if not ok:
                failures.append(f"{task.id} {kind}")
    return failures


def calibrate(slugs, *, runs_per_seed=None, sample=False, stored=False, keep=False, out=print):
    """Calibrate games (`all`: every game of the registry), write their calibration.json and print the summary
    table; with `sample`, replay a sample of the stored random runs instead; with `stored`, measure nothing and
    print the stored cards' figures. Returns what keeps them from shipping: the gate's reasons (and the task
    set's, for several games), or the stored runs that did not reproduce (sample)."""
    from . import calibration

    games = registry.games() if list(slugs) == ["all"] else [registry.game(slug) for slug in slugs]
    if sample:
        mismatches = []
        for game in games:
            out(f"{game.slug}: replaying a sample of the stored random runs")
            mismatches += calibration.verify_sample(game, _stored_calibration(game), out=out)
        out("every sampled run reproduced" if not mismatches else "did not reproduce:\n" + "\n".join(mismatches))
        return mismatches
    documents = []
    for game in games:
        if stored:
            documents.append(_stored_calibration(game))
            continue
        began = time.monotonic()
        earlier = calibration.load_calibration(game) if keep else None
        document = calibration.calibrate(game, runs_per_seed=runs_per_seed, keep=earlier, out=out)
        calibration.write_calibration(game, document)
        out(f"{game.slug}: wrote {calibration.card_path(game)} in {time.monotonic() - began:.0f} s")
        documents.append(document)
    out("")
    for line in calibration.summary_table(documents):
        out(line)
    tasks = [task for game in games for task in game.tasks.values()]
    cards = [document["tasks"].get(task.id) for document, game in zip(documents, games) for task in game.tasks.values()]
    problems = [reason for task, card in zip(tasks, cards) for reason in calibration.gate(task, card)]
    if len(games) > 1:
        problems += calibration.gate_task_set([card for card in cards if card])
    if problems:
        out(f"\n{len(problems)} reasons keep these tasks from shipping:\n" + "\n".join(problems))
    return problems


def _stored_calibration(game):
    from . import calibration

    document = calibration.load_calibration(game)
    if document is None:
        raise SandboxError(f"{game.slug}: no {calibration.CARD_FILE}; run `python -m sandbox calibrate {game.slug}` "
                           "first")
    return document
