"""The upload parser under arbitrary input: any bytes, any JSON (deep, huge integers, odd Unicode, long
strings) and valid submissions with one field replaced by junk. It answers with a submission or with
UploadRejected naming fields in short messages; it never raises anything else and never stores anything."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from submissions.models import Run, Submission, UploadLimits
from submissions.uploads import MAX_MESSAGE, UploadRejected, parse_upload
from tests.factories import payload, run_entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_games")]
FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

odd_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40) | st.sampled_from(
    ["\ud800", "\x00", "=cmd|' /C calc'!A0", "ÿ" * 5000, "core-v15", "breakout/rally-5@2"])
scalars = (st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30)
           | st.floats(allow_nan=False, allow_infinity=False) | odd_text)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(odd_text, inner, max_size=4), max_leaves=20)


def answers_cleanly(raw):
    try:
        parsed = parse_upload(raw, user=None, limits=UploadLimits.current())
    except UploadRejected as rejected:
        assert rejected.errors
        for error in rejected.errors:
            assert isinstance(error["field"], str) and isinstance(error["message"], str)
            assert len(error["message"]) <= MAX_MESSAGE
            json.dumps(error)  # the API answers with it: it must be JSON text
        parsed = None
    assert not Submission.objects.exists() and not Run.objects.exists()  # parsing stores nothing
    return parsed


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes(raw):
    answers_cleanly(raw)


@FUZZ
@given(json_values)
def test_any_json(value):
    answers_cleanly(json.dumps(value).encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.sampled_from(["format", "agent", "protocol", "task_set", "runs", "agent.name", "agent.interface",
                        "runs.0", "runs.0.task", "runs.0.seed", "runs.0.actions", "runs.0.actions.0",
                        "runs.0.claimed", "runs.0.claimed.progress"]), json_values)
def test_a_valid_submission_with_one_field_replaced(where, junk):
    data = json.loads(payload([run_entry("breakout/rally-5@2")]))
    *parents, last = [int(p) if p.isdigit() else p for p in where.split(".")]
    holder = data
    for part in parents:
        holder = holder[part]
    holder[last] = junk
    answers_cleanly(json.dumps(data).encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("text", [b"[" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
                                  b'{"seed": 1' + b"0" * 100_000 + b"}", b"NaN", b'"\\udfff"'])
def test_pathological_documents(text):
    answers_cleanly(text)
