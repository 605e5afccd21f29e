"""The API keeps to its OpenAPI document under fuzzing: schemathesis generates requests for every operation
of the served document (valid and invalid ones, with and without a token) and checks each answer: never a
5xx, a documented status code, JSON as documented. Bounded in examples so the suite stays fast."""
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from submissions.models import ApiToken, Submission
from tests.factories import load_games, make_user

EXAMPLES = 30  # per operation, each sent without and with a token


@pytest.fixture
def api_schema(live_server, transactional_db):
    load_games()
    return schemathesis.openapi.from_url(f"{live_server.url}/api/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def token_headers(transactional_db):
    _, key = ApiToken.issue(user=make_user("fuzzer"), name="fuzz")
    return {"Authorization": f"Token {key}"}


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_every_operation_answers_as_documented(case, token_headers):
    for headers in ({}, token_headers):  # every example sent without and with a token
        # An upload that fits the schema may still be refused: its tasks, seeds and actions are checked
        # against the task set, which no schema states; every other check holds.
        case.call_and_validate(headers=headers, excluded_checks=[schemathesis.checks.positive_data_acceptance])
    # A refused upload stores nothing: whatever was generated, no half-made submission is left behind.
    assert not Submission.objects.exclude(status__in=["queued", "verifying", "verified", "rejected"]).exists()
