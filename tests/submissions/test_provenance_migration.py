"""Migrating to provenance and content hashes: existing submissions become `hosted` (made by a hosted evaluation)
or `uploaded`, get the content hash of their stored runs, and one with the same runs as an earlier entry becomes
its copy."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from submissions.uploads import content_sha256
from tests.hosted.test_hosted_migration import migrate, old_catalogue

BEFORE = [("evaluator", "0010_submission_entry_facts")]


@pytest.mark.django_db(transaction=True)
def test_existing_submissions_get_their_provenance_content_hash_and_copies():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="early")
    task, task_set = old_catalogue(old)
    Submission, Run = old.get_model("evaluator", "Submission"), old.get_model("evaluator", "Run")
    actions = [{"type": "wait"}]
    made = []
    for name in ("uploaded first", "hosted", "same runs again"):
        submission = Submission.objects.create(user=user, task_set=task_set, agent_name=name, model_name="m",
                                               interface="cua", payload_sha256=name)
        Run.objects.create(submission=submission, task=task, seed=1, actions=actions if name != "hosted" else [])
        made.append(submission.pk)
    old.get_model("evaluator", "HostedEvaluation").objects.create(user=user, task_set=task_set, agent={},
                                                                  submission_id=made[1])
    try:
        new = migrate(leaves)
        first, hosted, again = (new.get_model("submissions", "Submission").objects.get(pk=pk) for pk in made)
        assert (first.provenance, hosted.provenance, again.provenance) == ("uploaded", "hosted", "uploaded")
        assert first.content_sha256 == again.content_sha256 == content_sha256(
            task_set="ts", protocol="paused", interface="cua", runs=[("g/t@1", 1, actions)])
        assert (first.copy_of_id, hosted.copy_of_id, again.copy_of_id) == (None, None, first.pk)
    finally:
        migrate(leaves)
