"""The evaluator app's split into catalogue, submissions and hosted (evaluator 0013 and the new apps' 0001):
a database made before it, with a row in every moved table and rows of other apps pointing at them, migrates
with every row, key and many-to-many link kept, and with the maintainers' permissions still granted."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.hosted.test_hosted_migration import migrate, old_catalogue

BEFORE = [("evaluator", "0012_run_claimed_by"), ("humanplay", "0009_consent_withdrawal"),
          ("leaderboard", "0001_initial")]
# The split's own end (later migrations add columns: the rows are compared as the split left them).
SPLIT = [("evaluator", "0013_models_move_to_catalogue_submissions_hosted"), ("catalogue", "0001_initial"),
         ("submissions", "0001_initial"), ("hosted", "0001_initial")]
MOVED = {  # model: its app after the split
    "Game": "catalogue", "Task": "catalogue", "TaskSet": "catalogue", "RegisteredRom": "catalogue",
    "TaskValidation": "catalogue", "AuditEntry": "catalogue",
    "Submission": "submissions", "Run": "submissions", "ApiToken": "submissions", "UploadLimits": "submissions",
    "SubmissionEvent": "submissions",
    "HostedEvaluationSettings": "hosted", "HostedEvaluation": "hosted", "HostedEpisode": "hosted",
    "HostedAction": "hosted",
}


def rows(apps, app_of):
    """Every moved model's rows as plain values (keys included), by model name."""
    return {name: sorted(repr(sorted(row.items())) for row in apps.get_model(app_of(name), name).objects.values())
            for name in MOVED}


def made_before_the_split(old):
    """A row in every table that moves, and a play session, a campaign and an assignment pointing at them."""
    get = lambda name: old.get_model("evaluator", name)  # noqa: E731
    User = old.get_model("auth", "User")
    ann = User.objects.create(username="ann")
    task, task_set = old_catalogue(old)
    task_set.tasks.add(task)
    get("RegisteredRom").objects.create(title="R", slug="r", genre="arcade", level=1, provenance="mine",
                                        sha256="ab" * 32, size=32768, cartridge="ROM ONLY", fields={},
                                        state_fields={}, rules={})
    get("TaskValidation").objects.create(task=task, game_version="1", ok=True, requested_by=ann)
    get("AuditEntry").objects.create(actor=ann, action="published task set", target_type="taskset", target="TS")
    submission = get("Submission").objects.create(user=ann, task_set=task_set, agent_name="a", model_name="m",
                                                  interface="cua", content_sha256="cd" * 32)
    run = get("Run").objects.create(submission=submission, task=task, seed=7, actions=[{"type": "wait"}],
                                    status="verified", progress=0.5, success=False, trace_sha256="ef" * 32)
    get("ApiToken").objects.create(user=ann, name="laptop", key_hash="12" * 32, hint="gw_abc")
    get("UploadLimits").objects.create(pk=1, max_runs=77)
    get("SubmissionEvent").objects.create(submission=submission, message="verified")
    get("HostedEvaluationSettings").objects.create(pk=1, hosted_expiry_hours=5)
    evaluation = get("HostedEvaluation").objects.create(user=ann, task_set=task_set, agent={"name": "h"},
                                                        submission=submission, sealed=True)
    episode = get("HostedEpisode").objects.create(evaluation=evaluation, task=task, seed=9, number=1)
    get("HostedAction").objects.create(episode=episode, index=0, action={"type": "wait"})
    session = old.get_model("humanplay", "PlaySession").objects.create(
        user=ann, task=task, mode="recorded", baseline_kind="novice", seed=7, run=run)
    campaign = old.get_model("humanplay", "Campaign").objects.create(
        slug="c", title="C", task_set=task_set, consent_text="ok", starts_on="2026-01-01", ends_on="2026-02-01")
    old.get_model("humanplay", "Assignment").objects.create(
        campaign=campaign, user=ann, task=task, kind="novice", slot=0, status="done", held_until="2026-01-02T00:00Z",
        session=session, run=run)
    return ann, session, campaign


@pytest.mark.django_db(transaction=True)
def test_every_row_and_link_survives_the_split():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    ann, session, campaign = made_before_the_split(old)
    maintainers = old.get_model("auth", "Group").objects.create(name="Curators")
    maintainers.permissions.add(*old.get_model("auth", "Permission").objects.filter(
        content_type__app_label="evaluator", codename__in=["validate_task", "curate_submission", "view_run"]))
    before = rows(old, lambda name: "evaluator")
    try:
        new = migrate(SPLIT)
        assert rows(new, MOVED.get) == before
        assert all(before.values())  # every moved table had a row to lose
        task_set = new.get_model("catalogue", "TaskSet").objects.get()
        assert list(task_set.tasks.values_list("slug", flat=True)) == ["t"]
        moved_session = new.get_model("humanplay", "PlaySession").objects.get(pk=session.pk)
        assert (moved_session.task.slug, moved_session.run.seed) == ("t", 7)
        assignment = new.get_model("humanplay", "Assignment").objects.get(campaign_id=campaign.pk)
        assert (assignment.task.game.slug, assignment.run.submission.agent_name) == ("g", "a")
        assert new.get_model("humanplay", "Campaign").objects.get(pk=campaign.pk).task_set == task_set
        granted = set(new.get_model("auth", "Group").objects.get(name="Curators").permissions.values_list(
            "content_type__app_label", "codename"))
        assert granted == {("catalogue", "validate_task"), ("submissions", "curate_submission"),
                           ("submissions", "view_run")}
    finally:
        migrate(leaves)
