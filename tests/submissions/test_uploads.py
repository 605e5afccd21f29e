"""Every bad upload is refused with a message naming the field and run at fault, and stores nothing."""
import json

import pytest

from catalogue.models import TaskSet
from submissions.models import Run, Submission, UploadLimits
from submissions.uploads import UploadRejected, parse_upload
from tests.factories import make_user, payload, run_entry, validating_the_default_set

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_games")]


def refused(raw, user=None, limits=None):
    with pytest.raises(UploadRejected) as caught:
        parse_upload(raw, user=user, limits=limits or UploadLimits.current())
    assert not Submission.objects.exists() and not Run.objects.exists()
    return [f"{e['field']}: {e['message']}" for e in caught.value.errors]


def test_a_good_upload_parses():
    parsed = parse_upload(payload([run_entry("breakout/rally-5@2")]), user=None, limits=UploadLimits.current())
    assert parsed.task_set.slug == "core-v15" and len(parsed.runs) == 1
    assert parsed.runs[0].claimed_success is True and len(parsed.content_sha256) == 64


FACTS = {"code_url": "https://example.org/code", "paper_url": "https://example.org/paper", "weights": "open",
         "tuned_on_benchmark": True, "reported": {"tokens_per_step": 1234.5, "seconds_per_step": 2.25,
                                                  "cost_per_step_usd": 0.0031}}


def test_what_a_submitter_declares_about_the_agent_is_stored(django_capture_on_commit_callbacks):
    from submissions.services import create_submission

    data = json.loads(payload([run_entry("breakout/rally-5@2")]))
    data["agent"].update(FACTS)
    parsed = parse_upload(json.dumps(data).encode(), user=None, limits=UploadLimits.current())
    with django_capture_on_commit_callbacks():
        made = create_submission(user=None, parsed=parsed)
    made.refresh_from_db()
    assert (made.code_url, made.paper_url, made.weights, made.tuned_on_benchmark) == (
        "https://example.org/code", "https://example.org/paper", "open", True)
    assert (made.reported_tokens_per_step, made.reported_seconds_per_step, made.reported_cost_per_step_usd) == (
        1234.5, 2.25, 0.0031)


@pytest.mark.parametrize("field, value, message", [
    ("weights", "semi-open", "agent.weights: 'semi-open' is not one of ['open', 'closed']"),
    ("tuned_on_benchmark", "yes", "agent.tuned_on_benchmark: 'yes' is not of type 'boolean'"),
    ("code_url", "javascript:alert(1)", "agent.code_url: 'javascript:alert(1)' does not match"),
    ("reported", {"tokens_per_step": -1}, "agent.reported.tokens_per_step: -1 is less than the minimum of 0"),
    ("reported", {"dollars": 1}, "agent.reported: Additional properties are not allowed ('dollars' was unexpected)"),
])
def test_a_bad_declaration_is_refused_naming_the_field(field, value, message):
    data = json.loads(payload([run_entry("breakout/rally-5@2")]))
    data["agent"][field] = value
    errors = refused(json.dumps(data).encode())
    assert len(errors) == 1 and errors[0].startswith(message), errors


def test_not_json():
    assert refused(b"{oops")[0].startswith("(file): the file is not JSON: Expecting property name")


def test_wrong_format_version():
    assert refused(payload([run_entry("breakout/rally-5@2")], format="gameworld.submission/0")) == [
        "format: expected 'gameworld.submission/1', got 'gameworld.submission/0'"]


def test_missing_agent_field():
    data = json.loads(payload([run_entry("breakout/rally-5@2")]))
    del data["agent"]["model"]
    assert refused(json.dumps(data).encode()) == ["agent: 'model' is a required property"]


def test_unknown_task_and_unknown_version():
    errors = refused(payload([run_entry("breakout/rally-5@2", task="breakout/rally-5@9"),
                              run_entry("breakout/rally-5@2", task="nope/rally-5@1")]))
    assert errors == ["runs[0].task: breakout/rally-5 has no version 9 (versions: 2)",
                      "runs[1].task: unknown task 'nope/rally-5'"]


def test_a_task_not_in_the_chosen_task_set():
    other = TaskSet.objects.create(slug="arcade-only", name="Arcade only", status=TaskSet.Status.PUBLISHED)
    other.tasks.set(TaskSet.objects.get(slug="core-v15").tasks.filter(game__slug="breakout"))
    errors = refused(payload([run_entry("merge2048/corner-20@1")], task_set="arcade-only"))
    assert errors == ["runs[0].task: merge2048/corner-20@1 is not in task set arcade-only"]


def test_an_unknown_or_retired_task_set():
    assert refused(payload([run_entry("breakout/rally-5@2")], task_set="core-v16")) == [
        "task_set: 'core-v16' is unknown; published task sets: core-v15"]
    TaskSet.objects.filter(slug="core-v15").update(status=TaskSet.Status.RETIRED)
    assert "retired and takes no new submissions" in refused(payload([run_entry("breakout/rally-5@2")]))[0]


def test_an_upload_while_the_default_set_is_being_checked_says_how_far_and_how_long():
    total = validating_the_default_set(done=5, seconds_apart=3)  # 3 s a task measured
    minutes = round((total - 5) * 3 / 60)
    assert refused(payload([run_entry("breakout/rally-5@2")])) == [
        f"task_set: the default task set core-v15 is being checked: 5 of {total}; try again in about {minutes} min"]


def test_an_upload_to_a_draft_says_it_is_a_draft():
    TaskSet.objects.create(slug="core-v16", name="Next", status=TaskSet.Status.DRAFT)
    assert refused(payload([run_entry("breakout/rally-5@2")], task_set="core-v16")) == [
        "task_set: 'core-v16' is a draft, not published; published task sets: core-v15"]


def test_actions_outside_the_action_space():
    run = run_entry("breakout/rally-5@2")
    run["actions"] = [{"type": "press_key", "key": "KeyZ"}, {"type": "left_click", "x": 5, "y": 5},
                      {"type": "invalid", "raw": "no idea"}]
    errors = refused(payload([run]))
    assert errors[0].startswith("runs[0].actions[0]: key 'KeyZ' is not in this game's keys")
    assert errors[1].startswith("runs[0].actions[1]: left_click: this game does not use the pointer")
    assert len(errors) == 2  # a recorded invalid reply is allowed: it is replayed as a charged step


def test_more_actions_than_the_budget():
    run = run_entry("breakout/rally-5@2")
    run["actions"] = [{"type": "wait"}] * 51
    assert refused(payload([run])) == ["runs[0].actions: 51 actions exceed the task's budget of 50"]


@pytest.mark.parametrize("seed, message", [
    (-1, "runs[0].seed: must be a non-negative integer, got -1"),
    (1.5, "runs[0].seed: must be a non-negative integer, got 1.5"),
    ("1", "runs[0].seed: must be a non-negative integer, got '1'"),
    (1.0, "runs[0].seed: must be a non-negative integer, got 1.0"),
    (7, "runs[0].seed: 7 is not one of breakout/rally-5@2's seeds (1, 2, 3)"),
])
def test_bad_seeds(seed, message):
    assert refused(payload([run_entry("breakout/rally-5@2", seed=seed)])) == [message]


def test_a_run_whose_agent_was_given_the_game_state_is_refused():
    run = {**run_entry("breakout/rally-5@2"), "privileged_state": True}
    assert refused(payload([run])) == [
        "runs[0].privileged_state: this run's agent was given the game's state (GameWorldEnv(privileged_state=True)); "
        "the benchmark compares agents that see frames: play it again without"]


def test_duplicate_runs():
    errors = refused(payload([run_entry("breakout/rally-5@2"), run_entry("merge2048/corner-20@1"),
                              run_entry("breakout/rally-5@2")]))
    assert errors == ["runs[2]: duplicates runs[0] (same task breakout/rally-5@2 and seed 1)"]


def test_claims_out_of_range():
    errors = refused(payload([run_entry("breakout/rally-5@2", claimed={"progress": 1.5, "success": "yes"})]))
    assert errors == ["runs[0].claimed.progress: 1.5 is greater than the maximum of 1",
                      "runs[0].claimed.success: 'yes' is not of type 'boolean'"]


def test_limits_set_by_the_admin():
    UploadLimits.objects.filter(pk=UploadLimits.current().pk).update(
        max_file_bytes=400, max_runs=1, max_actions_per_run=2, max_submissions_per_day=1)
    limits = UploadLimits.current()
    assert refused(b" " * 401, limits=limits)[0] == "(file): the file is 401 bytes; the limit is 400 bytes"
    limits.max_file_bytes = 10**6
    assert refused(payload([run_entry("breakout/rally-5@2"), run_entry("merge2048/corner-20@1")]),
                   limits=limits) == ["runs: 2 runs; the limit is 1 a submission"]
    run = run_entry("breakout/rally-5@2")
    assert refused(payload([run]), limits=limits) == [
        f"runs[0].actions: {len(run['actions'])} actions exceed the upload limit of 2"]
    user = make_user()
    Submission.objects.create(user=user, task_set=TaskSet.objects.get(), agent_name="a", model_name="m",
                              interface="cua")
    with pytest.raises(UploadRejected, match="you have uploaded 1 submissions in the last 24 hours; the limit is 1"):
        parse_upload(payload([run_entry("breakout/rally-5@2")]), user=user, limits=limits)


def test_json_nested_too_deep_is_refused_not_a_crash():
    assert refused(b"[" * 100_000 + b"]" * 100_000) == [
        "(file): the JSON is nested too deeply; a submission is a few levels deep"]


def test_a_huge_integer_is_refused_naming_its_field():
    raw = payload([run_entry("breakout/rally-5@2")]).replace(b'"seed": 1', b'"seed": ' + b"9" * 5000)
    [error] = refused(raw)
    assert error.startswith("runs[0].seed: must be a non-negative integer, got 999999999999... (5,000 digits)")
    huge_version = payload([run_entry("breakout/rally-5@2", task="breakout/rally-5@" + "9" * 5000)])
    [error] = refused(huge_version)
    assert error.startswith("runs[0].task: ") and len(error) <= 320


def test_a_lone_surrogate_is_refused_naming_its_field():
    raw = payload([run_entry("breakout/rally-5@2")]).replace(b'"test-agent"', b'"bad \\ud800 name"')
    assert refused(raw) == ["agent.name: holds a lone surrogate (\\ud800-\\udfff), which is not text"]


def test_a_nan_claim_is_refused_not_stored_as_null():
    raw = payload([run_entry("breakout/rally-5@2")]).replace(b'"progress": 1.0', b'"progress": NaN')
    assert refused(raw) == ["runs[0].claimed.progress: NaN is not of type 'number'"]


def test_error_messages_quote_an_offending_value_briefly():
    [error] = refused(payload([run_entry("breakout/rally-5@2", seed="x" * 10_000)]))
    assert error.startswith("runs[0].seed: must be a non-negative integer, got 'xxx") and len(error) <= 320


def test_a_semantic_action_with_unknown_fields_is_refused():
    run = run_entry("breakout/rally-5@2", actions=[{"type": "semantic", "name": "launch", "junk": "J" * 10_000}])
    [error] = refused(payload([run]))
    assert error.startswith("runs[0].actions[0]: semantic does not take junk") and len(error) <= 320


@pytest.mark.parametrize("declared, action, message", [
    ("cua", {"type": "semantic", "name": "launch"}, 'a semantic action in a computer-use ("cua") submission'),
    ("generalist", {"type": "press_key", "key": "Space"}, "a 'press_key' action in a generalist submission"),
])
def test_the_interface_is_checked_against_the_actions(declared, action, message):
    runs = [run_entry("breakout/rally-5@2", actions=[action])]
    data = json.loads(payload(runs))
    data["agent"]["interface"] = declared
    [error] = refused(json.dumps(data).encode())
    assert error.startswith(f"runs[0].actions[0]: {message}")


def test_recorded_invalid_steps_belong_to_either_interface():
    for action in ({"type": "semantic", "name": "launch"}, {"type": "press_key", "key": "Space"}):
        runs = [run_entry("breakout/rally-5@2", actions=[{"type": "invalid", "raw": "?"}, action])]
        assert len(parse_upload(payload(runs), user=None, limits=UploadLimits.current()).runs) == 1


def test_protocols_and_interfaces_have_one_set_of_names():
    """The action protocol (sandbox/protocol.py, which the client ships too) names the protocols and interfaces;
    the model choices and the upload schema the site serves must name the same ones."""
    from gameworld_client.upload import PROTOCOL
    from sandbox.protocol import INTERFACES, PROTOCOLS
    from submissions.models import Protocol
    from submissions.uploads import submission_schema

    schema = submission_schema()["properties"]
    assert Protocol.values == schema["protocol"]["enum"] == list(PROTOCOLS) == ["paused", "realtime"]
    assert PROTOCOL == Protocol.PAUSED
    interfaces = Submission.Interface.values
    assert interfaces == schema["agent"]["properties"]["interface"]["enum"] == list(INTERFACES)


def test_the_submission_docs_example_is_accepted_by_the_upload_parser_and_explains_partial_entries(client):
    import html
    import re

    page = client.get("/docs/submissions/").content.decode()
    examples = [html.unescape(text) for text in re.findall(r'<pre class="example">(\{.*?)</pre>', page, re.S)]
    assert examples, "the submission docs show no example file"
    for example in examples:
        parsed = parse_upload(example.encode(), user=None, limits=UploadLimits.current())
        assert parsed.task_set.slug == "core-v15" and parsed.runs
    assert 'id="partial"' in page and "partial · n/N tasks" in page and "never ranked" in page


def test_a_hosted_realtime_run_keeps_each_latency_and_its_actions_are_still_checked():
    """A hosted realtime evaluation submits the latencies the server measured: each action is checked without
    its latency_ms (which the schema bounds), and the run keeps it for the replay."""
    wait = {"type": "wait", "duration_ms": 200}
    entry = run_entry("breakout/rally-5@2", actions=[{**wait, "latency_ms": 40}, wait], with_claim=False)
    parsed = parse_upload(payload([entry], protocol="realtime"), user=None, limits=UploadLimits.current(),
                          latency_measured=True)
    assert parsed.runs[0].actions == [{**wait, "latency_ms": 40}, wait]
    bad = run_entry("breakout/rally-5@2", actions=[{"type": "press_key", "key": "F13", "latency_ms": 40}],
                    with_claim=False)
    with pytest.raises(UploadRejected) as caught:
        parse_upload(payload([bad], protocol="realtime"), user=None, limits=UploadLimits.current(),
                     latency_measured=True)
    assert [e["field"] for e in caught.value.errors] == ["runs[0].actions[0]"]
    assert "F13" in caught.value.errors[0]["message"]
