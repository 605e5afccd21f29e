"""Submissions: an upload stored whole and queued for verification, a submission replayed again, and the
platform's baseline files loaded as submissions. Keyword-only arguments; each function is one transaction's worth
of work."""
import json
from pathlib import Path

from django.db import transaction

from catalogue.models import TaskSet

from .models import Provenance, Run, Submission, UploadLimits
from .uploads import UploadRejected, parse_upload
from .verification import log_event, queue_verification

BASELINES_DIR = Path(__file__).resolve().parent / "baselines"


def create_submission(*, user, parsed, provenance=Provenance.UPLOADED, commitments=None, is_baseline=False):
    """Store a validated upload whole (or not at all), then queue its verification once committed."""
    return submit_upload(user=user, parsed=parsed, provenance=provenance, commitments=commitments,
                         is_baseline=is_baseline)[0]


def submit_upload(*, user, parsed, provenance=Provenance.UPLOADED, commitments=None, is_baseline=False):
    """(submission, created). A submission is its runs, whatever the bytes they came in (content_sha256): the
    same runs sent again by the same account answer with the submission they made the first time instead of
    storing and ranking them twice; the same runs as an earlier entry of anyone else (the platform's baselines
    included) are stored as a copy of it, shown but never ranked.

    `provenance` is how the server received the runs (never what a file says); `commitments` maps a sealed
    run's (task pk, seed) to its (commitment, salt), revealed now that the evaluation is submitted; `is_baseline`
    marks the platform's own baselines (verified on the background queue)."""
    identical = Submission.objects.filter(content_sha256=parsed.content_sha256, task_set=parsed.task_set) \
        .exclude(status=Submission.Status.REJECTED).order_by("pk")
    if user is not None:
        earlier = identical.filter(user=user).first()
        if earlier is not None:
            return earlier, False
    original = identical.filter(copy_of__isnull=True).first()
    commitments = commitments or {}
    agent = parsed.agent
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, task_set=parsed.task_set, agent_name=agent["name"], model_name=agent["model"],
            organisation=agent.get("org", ""), interface=agent["interface"],
            memory_rounds=agent.get("memory_rounds", 0), url=agent.get("url", ""), notes=agent.get("notes", ""),
            code_url=agent.get("code_url", ""), paper_url=agent.get("paper_url", ""), weights=agent.get("weights", ""),
            tuned_on_benchmark=agent.get("tuned_on_benchmark"),
            **{f"reported_{name}": value for name, value in agent.get("reported", {}).items()},
            protocol=parsed.protocol, provenance=provenance, runs_total=len(parsed.runs),
            content_sha256=parsed.content_sha256, copy_of=original, is_baseline=is_baseline)
        Run.objects.bulk_create([
            Run(submission=submission, task=run.task, seed=run.seed, actions=run.actions,
                claimed_progress=run.claimed_progress, claimed_success=run.claimed_success,
                **dict(zip(("commitment", "salt"), commitments.get((run.task.pk, run.seed), ("", "")))))
            for run in parsed.runs])
        copy = f"; the same runs as submission {original.pk}, so a copy of it" if original else ""
        log_event(submission_id=submission.pk, message=f"received {len(parsed.runs)} runs on task set "
                                                       f"{parsed.task_set.slug} ({provenance}, content sha256 "
                                                       f"{parsed.content_sha256[:16]}…){copy}")
        transaction.on_commit(lambda: queue_verification(submission_id=submission.pk))
    return submission, True


def reverify_submission(*, submission):
    """Replay every run again (after a sandbox fix, say): figures are replaced in place, no rows added."""
    with transaction.atomic():
        Run.objects.filter(submission=submission).update(
            status=Run.Status.PENDING, progress=None, success=None, attempts=None, actions_used=None,
            invalid_actions=None, trace_sha256="", mismatch=False, error="", claimed_at=None, claimed_by="",
            verified_at=None)
        Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.RECEIVED, runs_done=0, reason="")
        log_event(submission_id=submission.pk, message="re-verification: every run will be replayed again")
        transaction.on_commit(lambda: queue_verification(submission_id=submission.pk))


def load_baseline_files(*, folder=BASELINES_DIR, say=print):
    """Create (once) the submissions of the baseline agents' files (submissions/baselines/*.json), marked as the
    platform's own baselines; the worker verifies them. A file already loaded (same runs) is skipped; a file the
    upload checks refuse (say, a task set that is not published yet) is reported and skipped, never fatal. Runs on
    tasks the set does not hold (a bundled task left out of it by validation) are skipped, and said so."""
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        say(f"no baseline files in {folder}")
    for path in files:
        try:
            parsed = parse_upload(_runs_in_their_set(path, say), user=None, limits=UploadLimits.current())
        except UploadRejected as rejected:
            say(f"{path.name}: not loaded: " + "; ".join(f"{e['field']}: {e['message']}" for e in rejected.errors[:5]))
            continue
        existing = Submission.objects.filter(content_sha256=parsed.content_sha256, is_baseline=True).first()
        if existing is not None:
            say(f"{path.name}: already loaded (submission {existing.pk}, {existing.status})")
            continue
        submission = create_submission(user=None, parsed=parsed, is_baseline=True)
        say(f"{path.name}: submission {submission.pk} ({submission.agent_name}, {submission.runs_total} runs) "
            "queued for verification")


def _runs_in_their_set(path, say):
    """The baseline file's bytes, without the runs on tasks its task set does not hold."""
    raw = path.read_bytes()
    data = json.loads(raw)
    task_set = TaskSet.objects.filter(slug=data.get("task_set")).first()
    if task_set is None:
        return raw  # the upload checks name the missing set
    held = {task.task_id for task in task_set.tasks.light()}
    outside = sorted({run["task"] for run in data["runs"] if run["task"] not in held})
    if not outside:
        return raw
    say(f"{path.name}: {len(outside)} tasks are not in {task_set.slug}; their runs are not loaded: {', '.join(outside)}")
    data["runs"] = [run for run in data["runs"] if run["task"] in held]
    return json.dumps(data).encode()
