"""The progress display: drawn on a terminal, quiet (or plain lines) otherwise."""
import io
from types import SimpleNamespace

from gameworld_client.progress import RunProgress, VerificationProgress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def env(task, seed):
    return SimpleNamespace(task={"task": task}, seed_used=seed)


def test_the_run_bar_shows_runs_steps_the_current_task_and_the_mean_progress():
    screen = Terminal()
    progress = RunProgress(3, file=screen)
    for step in (1, 2):
        progress.on_step(env("breakout/rally-5@2", 1), {"step": step})
    progress.on_run({"task": "breakout/rally-5@2", "seed": 1, "claimed": {"progress": 1.0, "success": True}})
    progress.on_step(env("runner/clear-6@1", 2), {"step": 1})
    progress.on_run({"task": "runner/clear-6@1", "seed": 2, "claimed": {"progress": 0.0, "success": False}})
    progress.on_step(env("snake/apples-3@2", 1), {"step": 1})
    progress.close()
    drawn = screen.getvalue()
    assert "runs:   0%" in drawn and "0/3" in drawn
    assert "breakout/rally-5@2 seed 1 step 2, 2 steps, mean progress -" in drawn
    assert "1/3" in drawn and "mean progress 1.000" in drawn
    assert "2/3" in drawn and "snake/apples-3@2 seed 1 step 1, 4 steps, mean progress 0.500" in drawn


def test_a_sealed_run_is_named_by_its_episode_number():
    screen = Terminal()
    progress = RunProgress(1, file=screen)
    progress.on_run({"task": "breakout/rally-5@2", "episode_number": 2, "claimed": {"progress": 0.5, "success": False}})
    progress.close()
    assert "breakout/rally-5@2 episode 2 done" in screen.getvalue()


def test_nothing_is_drawn_when_the_output_is_not_a_terminal(capsys):
    log = io.StringIO()
    progress = RunProgress(2, file=log)
    progress.on_step(env("breakout/rally-5@2", 1), {"step": 1})
    progress.on_run({"task": "breakout/rally-5@2", "seed": 1, "claimed": {"progress": 1.0, "success": True}})
    progress.close()
    verification = VerificationProgress(file=log)
    for status, done in (("queued", 0), ("verifying", 0), ("verifying", 0), ("verifying", 2), ("verified", 2)):
        verification({"status": status, "runs_done": done, "runs_total": 2})
    verification.close()
    assert log.getvalue() == ""
    assert capsys.readouterr().out.splitlines() == [  # one plain line per change, for logs
        "queued: 0 of 2 runs verified", "verifying 0 of 2 runs", "verifying 2 of 2 runs", "verified 2 of 2 runs"]


def test_the_verification_bar_counts_the_runs_verified(capsys):
    screen = Terminal()
    verification = VerificationProgress(file=screen)
    verification({"status": "queued", "runs_done": 0, "runs_total": 5})
    verification({"status": "verifying", "runs_done": 3, "runs_total": 5})
    verification({"status": "verified", "runs_done": 5, "runs_total": 5})
    verification.close()
    drawn = screen.getvalue()
    assert "queued: 0/5 runs verified" in drawn and "verifying: 3/5 runs verified" in drawn
    assert "verified: 5/5 runs verified" in drawn
    assert capsys.readouterr().out == ""  # the bar replaces the lines
