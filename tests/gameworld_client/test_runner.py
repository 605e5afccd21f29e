"""The chat-model runner against a fake OpenAI-compatible endpoint: tools, one action per reply, invalid
replies charged and recorded, retries (by the openai client) that cost nothing, the JSONL log, and a
submission that verifies."""
import json
import re
import time

import pytest

from gameworld_client import write_submission
from gameworld_client.agents import run_tasks
from gameworld_client.chat import ChatAgent, ChatError, ChatModel, parse_reply, tools_for
from gameworld_client.env import GameWorldEnv
from sandbox import Trajectory, registry, run_trajectory
from tests.factories import as_semantic
from tests.gameworld_client.fake_chat import FakeChat, text, tool_call
from tests.gameworld_client.terminal import run_on_a_terminal

BREAKOUT = {"keys": ["ArrowLeft", "ArrowRight", "Space"], "pointer": False,
            "viewport": {"width": 480, "height": 360}, "step_ms_range": [50, 2000],
            "semantic": [{"name": "move_left", "description": "left"}, {"name": "launch", "description": "serve"}]}
# The names of breakout/rally-5's reference as semantic actions: a model that plays it reaches the target.
RALLY = [a["name"] for a in
         as_semantic(registry.task("breakout/rally-5@2").reference.actions, registry.game("breakout"))]
MINES = {"keys": ["KeyF"], "pointer": True, "viewport": {"width": 288, "height": 336}, "step_ms_range": [50, 2000],
         "semantic": [{"name": "reveal", "description": "open a cell",
                       "args": {"col": {"min": 0, "max": 8}, "row": {"min": 0, "max": 8}}}]}


def model(fake, **options):
    return ChatModel(base_url=fake.base_url, model="fake-vlm", api_key=fake.key, **options)


# Replies: exactly one action each.

@pytest.mark.parametrize("reply, want", [
    (tool_call("launch"), {"type": "semantic", "name": "launch"}),
    (text('I will serve: {"type": "semantic", "name": "launch"}'), {"type": "semantic", "name": "launch"}),
    (text("Serving now: launch()"), {"type": "semantic", "name": "launch"}),
])
def test_a_reply_with_one_action_is_read(reply, want):
    assert parse_reply(reply, BREAKOUT, "generalist", 200) == (want, None)


@pytest.mark.parametrize("reply, problem", [
    (text("Hmm, the ball is on the paddle."), "the reply names no action"),
    (text("launch() or move_left()? launch() then move_left()"), "the reply names 2 different actions"),
    ({"content": None, "tool_calls": tool_call("launch")["tool_calls"] + tool_call("move_left")["tool_calls"]},
     "2 tool calls in one reply"),
    ({"content": None, "tool_calls": [{"id": "c", "type": "function",
                                       "function": {"name": "launch", "arguments": "{oops"}}]}, "are not JSON"),
    (tool_call("jump"), "unknown semantic action 'jump'"),
    (text('{"type": "press_key", "key": "Space"}'), "a 'press_key' action in a generalist submission"),
])
def test_a_reply_without_exactly_one_valid_action_is_invalid(reply, problem):
    action, why = parse_reply(reply, BREAKOUT, "generalist", 200)
    assert action is None and problem in why


def test_computer_use_tools_and_bounds():
    names = [t["function"]["name"] for t in tools_for(MINES, "cua")]
    assert names == ["press_key", "press_keys", "left_click", "mouse_move", "drag", "wait"]
    assert parse_reply(tool_call("left_click", {"x": 40, "y": 300}), MINES, "cua", 200) == (
        {"type": "left_click", "x": 40, "y": 300}, None)
    assert "y must be an integer from 0 to 335" in parse_reply(tool_call("left_click", {"x": 4, "y": 336}),
                                                                MINES, "cua", 200)[1]
    assert parse_reply(text("press_key(key=KeyF)"), MINES, "cua", 200)[0] == {"type": "press_key", "key": "KeyF"}
    reveal = tools_for(MINES, "generalist")[0]["function"]
    assert reveal["parameters"]["properties"]["col"] == {"type": "integer", "minimum": 0, "maximum": 8}
    assert "col must be an integer from 0 to 8" in parse_reply(tool_call("reveal", {"col": 9, "row": 0}),
                                                               MINES, "generalist", 200)[1]


def test_transient_errors_are_retried_by_the_openai_client_and_hard_errors_are_not():
    with FakeChat([("http", 429, {"Retry-After": "0"}), ("http", 500), ("sleep", 1.5), text("ok")]) as fake:
        started = time.perf_counter()
        reply, latency_ms, errors = model(fake, timeout=0.5).complete([{"role": "user", "content": "hi"}])
        elapsed_ms = (time.perf_counter() - started) * 1000
        assert [r["retry_count"] for r in fake.requests] == ["0", "1", "2", "3"]  # the openai client's own retries
    assert reply["choices"][0]["message"]["content"] == "ok"
    # The latency is the request that answered: not the timeout (0.5 s) nor the backoff (> 1 s) before it.
    assert 0 <= latency_ms < elapsed_ms - 1500
    assert errors[:2] == ["HTTP 429", "HTTP 500"] and "timed out after 0.5 s" in errors[2] and len(errors) == 3
    with FakeChat([], key="other") as fake:
        with pytest.raises(ChatError, match="HTTP 401"):
            ChatModel(base_url=fake.base_url, model="m", api_key="sk-wrong").complete([])
        assert len(fake.requests) == 1  # not retried
    with FakeChat([("http", 503)] * 3) as fake:
        with pytest.raises(ChatError, match="kept failing after 3 attempts: HTTP 503; HTTP 503; HTTP 503"):
            model(fake, max_retries=2).complete([])


def test_the_endpoint_key_and_model_come_from_the_environment(monkeypatch):
    with FakeChat([text("ok")], key="sk-from-env") as fake:
        monkeypatch.setenv("GAMEWORLD_CHAT_BASE_URL", fake.base_url)
        monkeypatch.setenv("GAMEWORLD_CHAT_MODEL", "env-vlm")
        monkeypatch.setenv("GAMEWORLD_CHAT_API_KEY", "sk-from-env")
        ChatModel().complete([{"role": "user", "content": "hi"}])
        [request] = fake.requests
    assert request["auth"] == "Bearer sk-from-env" and request["body"]["model"] == "env-vlm"
    monkeypatch.delenv("GAMEWORLD_CHAT_MODEL")
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    with pytest.raises(ChatError, match="no model name: pass model or set GAMEWORLD_CHAT_MODEL"):
        ChatModel()


# A whole task through the sandbox.

@pytest.mark.django_db
def test_the_runner_completes_a_task_records_the_invalid_reply_and_verifies(tmp_path):
    script = [("http", 429, {"Retry-After": "0"}), ("http", 500), text("I am not sure what to do."),
              tool_call(RALLY[0]), ("sleep", 1.5), tool_call(RALLY[1]),
              {"content": None, "tool_calls": tool_call("move_left")["tool_calls"] + tool_call("wait")["tool_calls"]},
              *map(tool_call, RALLY[2:])]
    log = tmp_path / "steps.jsonl"
    with FakeChat(script) as fake:
        agent = ChatAgent(model(fake, timeout=0.5), interface="generalist", memory_rounds=2, log=log)
        runs = run_tasks(agent, lambda task: GameWorldEnv(task, interface="generalist"), ["breakout/rally-5"])
        requests = [r["body"] for r in fake.requests]
    [run] = runs
    actions = run["actions"]
    assert actions[0] == {"type": "invalid", "raw": "I am not sure what to do."}
    assert actions[3]["type"] == "invalid" and actions[3]["raw"].startswith("move_left({})\nwait({})")
    assert [a.get("name") for a in actions] == [None, RALLY[0], RALLY[1], None, *RALLY[2:]]
    assert run["seed"] == 1 and run["claimed"] == {"progress": 1.0, "success": True}  # 2 invalid steps besides

    # What the model was sent: tools, the instruction, the frame, and its memory of earlier rounds.
    first, after_double = requests[0], requests[7]  # 429, 500, steps 1-2, step 3 timed out and again, 4, 5
    assert [t["function"]["name"] for t in first["tools"]] == ["move_left", "move_right", "launch", "wait"]
    assert "Return the ball 5 times" in first["messages"][0]["content"] or "brick" in first["messages"][0]["content"]
    image = first["messages"][-1]["content"][1]["image_url"]["url"]
    assert image.startswith("data:image/jpeg;base64,/9j/")
    assert len(after_double["messages"]) == 1 + 2 * 2 + 1  # system, two remembered rounds, the current one
    assert "invalid" in after_double["messages"][-2]["content"]  # the round before: the reply with two actions

    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["step"] for line in lines] == list(range(1, len(RALLY) + 3))
    assert lines[0]["retries"] == 2 and lines[0]["errors"] == ["HTTP 429", "HTTP 500"]
    assert lines[0]["valid"] is False and lines[0]["result"]["invalid"] is True
    assert lines[2]["retries"] == 1 and lines[1]["retries"] == 0  # the timeout was retried at step 3
    assert "timed out" in lines[2]["errors"][0]
    assert lines[1]["usage"]["prompt_tokens"] > 0 and lines[1]["usage"]["completion_tokens"] == 12
    assert "sha256=" in lines[0]["request"]["messages"][-1]["content"][1]["image_url"]["url"]
    assert lines[-1]["result"]["success"] is True and agent.invalid == 2 and agent.retries == 3

    path = tmp_path / "results.json"
    write_submission(path, agent={"name": "fake-runner", "model": "fake-vlm", "interface": "generalist",
                                  "memory_rounds": 2}, task_set="core-v15", runs=runs)
    run_row = submit_and_verify(path)
    assert (run_row.status, run_row.success, run_row.invalid_actions, run_row.mismatch) == ("verified", True, 2, False)


def submit_and_verify(path):
    """The server's path for an upload, then the replay a worker does, in this process."""
    from submissions import services, verification
    from submissions.models import Run, Submission, UploadLimits
    from submissions.uploads import parse_upload
    from tests.factories import load_games

    load_games()
    parsed = parse_upload(path.read_bytes(), user=None, limits=UploadLimits.current())
    submission = services.create_submission(user=None, parsed=parsed)
    for run in submission.runs.all():
        verification.verify_run(run_id=run.pk)
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED, submission.reason
    return Run.objects.filter(submission=submission).first()


@pytest.mark.django_db
def test_realtime_latency_is_charged_recorded_and_replayed(tmp_path):
    """The reported latency runs the game clock before each action; the run record keeps it and a replay
    reaches the very same trace."""
    script = [("sleep", 0.25), tool_call("launch"), tool_call("wait"), tool_call("wait")]
    with FakeChat(script, default=tool_call("wait")) as fake:
        agent = ChatAgent(model(fake, timeout=5), interface="generalist", memory_rounds=0)
        env = GameWorldEnv("breakout/rally-5", interface="generalist", protocol="realtime")
        observation, info = env.reset(seed=1)
        agent.reset(env)
        for _ in range(4):
            observation, *_rest, info = env.step(agent.act(observation, info, env))
            agent.after_step(info)
        live = env.transport.score()
        record = env.run_record()
        env.close()
    latencies = [a["latency_ms"] for a in record["actions"]]
    assert latencies[0] >= 250 and all(isinstance(ms, int) and ms >= 0 for ms in latencies)
    assert info["latency_ms"] == latencies[-1] and "landed" in info
    replayed, _ = run_trajectory(registry.task("breakout/rally-5"), Trajectory.from_dict(record))
    assert replayed.trace_sha256 == live.trace_sha256 and replayed.actions == 4


@pytest.mark.django_db
def test_the_upload_format_keeps_latency_for_realtime_only(tmp_path):
    from submissions.models import UploadLimits
    from submissions.uploads import UploadRejected, parse_upload
    from tests.factories import load_games, payload

    load_games()
    runs = [{"task": "breakout/rally-5@2", "seed": 1, "actions": [
        {"type": "press_key", "key": "Space", "latency_ms": 1200}, {"type": "invalid", "raw": "?", "latency_ms": 0}]}]
    with pytest.raises(UploadRejected) as uploaded:  # a file's latencies are the submitter's word
        parse_upload(payload(runs, protocol="realtime"), user=None, limits=UploadLimits.current())
    assert [e["field"] for e in uploaded.value.errors] == ["protocol"]
    assert "a hosted evaluation" in uploaded.value.errors[0]["message"]
    parsed = parse_upload(payload(runs, protocol="realtime"), user=None, limits=UploadLimits.current(),
                          latency_measured=True)  # as a hosted evaluation submits the latencies it measured
    assert parsed.protocol == "realtime" and parsed.runs[0].actions[0]["latency_ms"] == 1200
    with pytest.raises(UploadRejected) as paused:
        parse_upload(payload(runs), user=None, limits=UploadLimits.current())
    assert [e["field"] for e in paused.value.errors] == ["runs[0].actions[0]", "runs[0].actions[1]"]
    assert "latency_ms belongs to the realtime protocol" in paused.value.errors[0]["message"]
    too_slow = [{**runs[0], "actions": [{"type": "wait", "latency_ms": 30001}]}]
    with pytest.raises(UploadRejected) as bounded:
        parse_upload(payload(too_slow, protocol="realtime"), user=None, limits=UploadLimits.current(),
                     latency_measured=True)
    assert bounded.value.errors[0]["field"] == "runs[0].actions[0].latency_ms"
    with pytest.raises(UploadRejected) as unknown:
        parse_upload(payload(runs, protocol="turbo"), user=None, limits=UploadLimits.current())
    assert unknown.value.errors[0]["field"] == "protocol"


def test_the_run_command_plays_writes_the_file_and_logs(tmp_path):
    """`gameworld run` as a user types it (here `python -m gameworld_client`, the same command), against the
    fake endpoint, its results piped and its progress bar on a terminal."""
    import os
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = [tool_call(RALLY[0]), text(f"Let me think... {RALLY[1]}()"), *map(tool_call, RALLY[2:])]
    with FakeChat(script, default=tool_call("wait")) as fake:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GAMEWORLD_", "OPENAI_", "DJANGO_"))}
        env.update(PYTHONPATH=str(root), GAMEWORLD_CHAT_API_KEY=fake.key)
        result, terminal = run_on_a_terminal(
            [sys.executable, "-m", "gameworld_client", "run", "--base-url", fake.base_url, "--model", "fake-vlm",
             "--interface", "generalist", "--tasks", "breakout/rally-5", "--memory-rounds", "1",
             "--out", str(tmp_path / "results.json"), "--log", str(tmp_path / "steps.jsonl")],
            env=env, cwd=root, timeout=300)
    assert result.returncode == 0, result.stdout + terminal
    assert f"breakout/rally-5@2 seed 1: progress 1.000 success yes, {len(RALLY)} actions (0 invalid)" in result.stdout
    # The progress bar, on the terminal only: runs done, steps, the current task and step, the mean progress.
    assert "runs:   0%" in terminal and "0/1" in terminal and "breakout/rally-5@2 seed 1 step 1, 1 steps" in terminal
    assert "1/1" in terminal and f"{len(RALLY)} steps, mean progress 1.000" in terminal
    assert "\r" not in result.stdout and "runs:" not in result.stdout
    assert "tokens: " in result.stdout and "0 invalid replies" in result.stdout
    data = json.loads((tmp_path / "results.json").read_text())
    reported = data["agent"].pop("reported")
    assert data["agent"] == {"name": "fake-vlm (generalist)", "model": "fake-vlm", "interface": "generalist",
                             "memory_rounds": 1}
    # What the runner measured, per step: the tokens the fake endpoint counted (as the run printed), the seconds.
    prompt, completion = re.search(r"tokens: (\d+) prompt, (\d+) completion", result.stdout).groups()
    assert reported["tokens_per_step"] == round((int(prompt) + int(completion)) / len(RALLY), 1)
    assert 0 < reported["seconds_per_step"] < 60
    assert len((tmp_path / "steps.jsonl").read_text().splitlines()) == len(RALLY)
