"""Read queries for submissions: a submission's live view (its page, socket and API), a user's tokens and
submissions."""
from sandbox.commitment import commitment_holds

from .models import ApiToken, Run, Submission

SNAPSHOT_RUN_FIELDS = ("pk", "task__game__slug", "task__slug", "task__version", "seed", "status", "claimed_progress",
                       "claimed_success", "progress", "success", "attempts", "actions_used", "invalid_actions",
                       "mismatch", "error", "trace_sha256", "commitment", "salt")


def submission_snapshot(submission_id):
    """The live view of a submission: its status and each run's figures (for the page's WebSocket and the API).

    Polled by clients and pages while a submission verifies, so it reads only the columns it shows (two
    queries, no model instances for the runs: a game's manifest and a run's actions are never decoded)."""
    submission = Submission.objects.only("pk", "status", "runs_done", "runs_total", "reason", "agent_name",
                                         "model_name", "provenance", "copy_of_id", "task_set__slug") \
        .select_related("task_set").get(pk=submission_id)
    runs = []
    for (pk, game, task, version, seed, status, claimed_progress, claimed_success, progress, success, attempts,
         actions, invalid, mismatch, error, trace, commitment, salt) in Run.objects.filter(submission_id=submission.pk) \
            .order_by("task__game__level", "task__game__title", "task__target", "seed") \
            .values_list(*SNAPSHOT_RUN_FIELDS):
        runs.append({"id": pk, "task": f"{game}/{task}@{version}", "seed": seed, "status": status,
                     "claimed_progress": claimed_progress, "claimed_success": claimed_success,
                     "progress": progress, "success": success, "attempts": attempts, "actions": actions,
                     "invalid_actions": invalid, "iar": invalid / actions if actions else None,
                     "mismatch": mismatch, "error": error, "trace_sha256": trace, **seal_check(seed, commitment, salt)})
    return {**submission.progress_dict(), "task_set": submission.task_set.slug, "agent": submission.agent_name,
            "model": submission.model_name, "mismatches": sum(r["mismatch"] for r in runs), "runs": runs}


def seal_check(seed, commitment, salt):
    """A sealed run's commitment, its revealed salt and whether they match its seed (anyone may recompute
    sha256(f"{seed}:{salt}")); nothing for a run on a public seed."""
    if not commitment:
        return {}
    return {"commitment": commitment, "salt": salt,
            "commitment_checks": commitment_holds(seed=seed, salt=salt, commitment_hex=commitment)}


def user_tokens(user):
    return ApiToken.objects.filter(user=user)


def user_submissions(user):
    return Submission.objects.filter(user=user).select_related("task_set")
