"""The hosted Gym env of gameworld_client against the real site (Daphne) and a worker: the same trace as the
local env, a dropped connection resumed, and a submission verified by the worker's replay with no upload."""
import socket

import pytest

from sandbox import registry
from submissions.models import ApiToken, Run, Submission
from tests.factories import as_semantic, load_games, make_user

AGENT = {"name": "hosted-test", "model": "scripted", "interface": "generalist"}
TASK = "breakout/rally-5@2"


def token_for(name):
    return ApiToken.issue(user=make_user(name), name="test")[1]


@pytest.mark.slow
@pytest.mark.real_broker
@pytest.mark.django_db(transaction=True)
def test_remote_env_matches_the_local_env_resumes_and_verifies_on_a_worker(site_url, celery_worker_process):
    from gameworld_client import GameWorldEnv, HostedError, wait
    from gameworld_client import HostedEvaluation as Hosted

    load_games()
    key = token_for("hosted-ben")
    # The task's reference as Gym actions (indices of breakout's semantic actions), one out of range third.
    names = ["move_left", "move_right", "launch", "wait"]
    reference = [{"name": names.index(a["name"])} for a in
                 as_semantic(registry.task(TASK).reference.actions, registry.game("breakout"))]
    gym_plan = [*reference[:2], {"name": 7}, *reference[2:]]

    local = GameWorldEnv(TASK.split("@")[0], interface="generalist")
    _, info = local.reset(seed=1)
    local_infos = [local.step(action)[-1] for action in gym_plan]
    local_record = local.run_record()
    local.close()
    assert local_infos[2]["invalid"] and local_record["actions"][2] == {"type": "invalid", "raw": '{"name": 7}'}
    assert local_infos[-1]["success"]

    with pytest.raises(HostedError, match="API token"):
        Hosted(site_url, "gw_not-a-key", agent=AGENT)
    hosted = Hosted(site_url, key, agent=AGENT, task_set="core-v15")
    env = hosted.env(TASK)
    observation, info = env.reset(seed=1)
    assert observation["frame"].shape == (360, 480, 3) and "state" not in info  # no game state over the wire
    remote_infos = [env.step(gym_plan[0])[-1]]
    hosted.close()  # the connection drops mid-episode

    again = Hosted(site_url, key, evaluation=hosted.id)
    env = again.env(TASK)
    observation, info = env.reset(seed=1)
    assert info["resumed"] and info["step"] == 1 and env.recorded_actions == local_record["actions"][:1]
    remote_infos.append(env.step(gym_plan[1])[-1])
    dropped = again._sock
    dropped.socket.shutdown(socket.SHUT_RDWR)  # the network drops under the client: the next step reconnects
    remote_infos += [env.step(action)[-1] for action in gym_plan[2:]]
    assert again._sock is not dropped and env.recorded_actions == local_record["actions"]
    assert remote_infos[-1]["trace_sha256"] == local_infos[-1]["trace_sha256"]
    assert env.run_record() == local_record
    submitted = again.submit()
    final = wait(submitted["status_url"], interval=0.2, timeout=180)
    again.close()
    assert final["status"] == "verified" and final["mismatches"] == 0
    run = Run.objects.get(submission_id=submitted["submission"])
    assert run.trace_sha256 == local_infos[-1]["trace_sha256"] and run.success


@pytest.mark.slow
@pytest.mark.real_broker
@pytest.mark.django_db(transaction=True)
def test_the_pages_hosted_command_plays_submits_and_reports_the_verdict(site_url, celery_worker_process):
    """The command the Evaluate page shows, as a user runs it: the random agent, hosted, one task."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    load_games()
    key = token_for("hosted-cli")
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GAMEWORLD_", "DJANGO_"))}
    env.update(PYTHONPATH=str(root), GAMEWORLD_SITE=site_url, GAMEWORLD_TOKEN=key)
    result = subprocess.run([sys.executable, "-m", "gameworld_client", "run", "--hosted", "--agent", "random",
                             "--interface", "generalist", "--tasks", "breakout/rally-5", "--interval", "0.2",
                             "--timeout", "180"], env=env, cwd="/", capture_output=True, text=True, timeout=400)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "hosted evaluation " in out and "breakout/rally-5@2 seed 1: progress" in out
    assert "verified: 1 runs, no mismatches" in out
    submission = Submission.objects.get()
    assert submission.agent_name == "Random (generalist)" and submission.interface == "generalist"
    assert submission.runs.get().status == "verified"
