"""Verification by replay: the server's figures, never the claimed ones."""
import json
import socket
import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone

from submissions import tasks
from sandbox import GameCrashed
from submissions import services, verification
from submissions.models import Run, Submission, UploadLimits
from submissions.uploads import parse_upload
from tests.factories import SHORT_TASKS, make_user, payload, run_entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_games")]


def submit(runs, user_name="alice"):
    user = make_user(user_name)
    parsed = parse_upload(payload(runs), user=user, limits=UploadLimits.current())
    return services.create_submission(user=user, parsed=parsed)


def verify_all(submission):
    for run_id in submission.runs.values_list("pk", flat=True):
        verification.verify_run(run_id=run_id)
    submission.refresh_from_db()
    return submission


def test_a_faithful_submission_verifies_with_claimed_equal_to_verified():
    submission = verify_all(submit([run_entry(t) for t in SHORT_TASKS]))
    assert submission.status == "verified" and submission.runs_done == submission.runs_total == len(SHORT_TASKS)
    for run in submission.runs.all():
        assert (run.progress, run.success, run.mismatch) == (1.0, True, False)
        assert run.attempts >= 1 and run.actions_used == len(run.actions) and len(run.trace_sha256) == 64


def test_a_tampered_submission_is_flagged():
    claimed_null = run_entry("breakout/rally-5@2", trajectory="null")  # claims success, does nothing
    edited = run_entry("merge2048/corner-20@1")
    edited["actions"] = edited["actions"][:3]  # the list was cut; the claim still says success
    submission = verify_all(submit([claimed_null, edited, run_entry("platformer/seven-coins@3")]))
    runs = {run.task.task_id: run for run in submission.runs.select_related("task__game")}
    assert runs["breakout/rally-5@2"].mismatch and runs["breakout/rally-5@2"].success is False
    assert runs["breakout/rally-5@2"].progress == 0.0
    assert runs["merge2048/corner-20@1"].mismatch and runs["merge2048/corner-20@1"].success is False
    assert not runs["platformer/seven-coins@3"].mismatch
    assert submission.status == "verified"  # verified figures stand; the false claims are flagged


def test_a_claim_of_progress_the_replay_did_not_make_is_flagged_though_its_success_is_true_to_it():
    task_id = SHORT_TASKS[0]
    inflated = verify_all(submit([run_entry(task_id, trajectory="null", claimed={"progress": 0.9, "success": False})]))
    run = inflated.runs.get()
    assert run.success is False and run.claimed_success is False  # success agrees: only the progress differs
    assert run.progress < 0.9 and run.mismatch
    # Another account: the same runs (claims aside) from the same account would be the same submission.
    honest = verify_all(submit([run_entry(task_id, trajectory="null", claimed={"progress": run.progress,
                                                                                "success": False})], "bob"))
    assert not honest.runs.get().mismatch  # the same progress claimed: no flag


def test_replays_are_deterministic_across_submissions():
    first = verify_all(submit([run_entry(t) for t in SHORT_TASKS[:2]]))
    hashes = sorted(first.runs.values_list("trace_sha256", flat=True))
    second = verify_all(submit([run_entry(t) for t in SHORT_TASKS[:2]], "bob"))  # replayed again: a copy of first
    assert second.pk != first.pk and second.copy_of_id == first.pk
    assert sorted(second.runs.values_list("trace_sha256", flat=True)) == hashes


def test_a_run_is_claimed_once(settings):
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    assert verification.claim_run(run_id=run.pk) is not None
    assert verification.claim_run(run_id=run.pk) is None  # another worker finds it taken
    held_for = verification.verify_run(run_id=run.pk)  # ...and is told when the holder's lease runs out
    assert 0 < held_for <= settings.GAMEWORLD_RUN_LEASE_S


def test_a_run_whose_worker_died_is_taken_again_after_its_lease(settings):
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    verification.claim_run(run_id=run.pk)
    Run.objects.filter(pk=run.pk).update(claimed_at=timezone.now() - timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S + 1))
    assert verification.verify_run(run_id=run.pk) is None
    run.refresh_from_db()
    assert run.status == "verified" and run.verify_attempts == 2


def a_gone_process():
    """The pid of a process of this machine that has exited (a worker killed mid-way)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_a_run_held_by_a_process_of_this_machine_that_is_gone_is_taken_at_once():
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    verification.claim_run(run_id=run.pk)
    Run.objects.filter(pk=run.pk).update(claimed_by=f"{socket.gethostname()}:{a_gone_process()}")
    assert verification.verify_run(run_id=run.pk) is None  # not told to wait for the lease
    run.refresh_from_db()
    assert run.status == "verified" and run.verify_attempts == 2 and run.claimed_by == verification.this_process()


def test_a_run_held_by_another_machine_waits_for_its_lease(settings):
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    verification.claim_run(run_id=run.pk)
    Run.objects.filter(pk=run.pk).update(claimed_by=f"another-machine:{a_gone_process()}")
    assert 0 < verification.verify_run(run_id=run.pk) <= settings.GAMEWORLD_RUN_LEASE_S


def test_reverifying_replaces_figures_without_new_rows(django_capture_on_commit_callbacks, queued_runs):
    sent = queued_runs
    submission = verify_all(submit([run_entry(t) for t in SHORT_TASKS[:2]]))
    before = {run.pk: run.trace_sha256 for run in submission.runs.all()}
    with django_capture_on_commit_callbacks(execute=True):
        services.reverify_submission(submission=submission)
    submission.refresh_from_db()
    assert submission.status == "queued" and submission.runs_done == 0
    assert sorted(sent) == sorted(before)
    verify_all(submission)
    assert {run.pk: run.trace_sha256 for run in submission.runs.all()} == before
    assert Run.objects.count() == 2


def test_transient_errors_are_retried_then_the_submission_is_rejected_with_the_reason(monkeypatch, settings):
    from gameworld_site.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", True)
    monkeypatch.setattr(app.conf, "task_eager_propagates", False)
    calls = []

    def broken(task, trajectory, **kwargs):
        calls.append(task.id)
        raise GameCrashed("the browser failed: Target closed")
    monkeypatch.setattr(verification, "run_trajectory", broken)
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    tasks.verify_run.apply(args=[run.pk])
    run.refresh_from_db()
    submission.refresh_from_db()
    assert len(calls) == tasks.MAX_RETRIES + 1
    assert run.status == "failed" and "Target closed" in run.error
    assert submission.status == "rejected"
    assert "breakout/rally-5@2 seed 1 could not be replayed: the browser failed: Target closed" in submission.reason


def test_the_sweep_requeues_stuck_runs(settings, queued_runs):
    sent = queued_runs
    submission = submit([run_entry(t) for t in SHORT_TASKS[:3]])
    fresh, lost, dead = submission.runs.order_by("pk")
    old = timezone.now() - timedelta(seconds=settings.GAMEWORLD_RUN_LEASE_S + 5)
    Run.objects.filter(pk=lost.pk).update(created=old)  # its message was lost
    Run.objects.filter(pk=dead.pk).update(created=old, status="running", claimed_at=old)  # its worker died
    assert sorted(verification.requeue_stuck_runs()) == sorted([lost.pk, dead.pk]) == sorted(sent)


def test_the_sweep_requeues_at_once_a_run_whose_holder_on_this_machine_is_gone(queued_runs):
    sent = queued_runs
    submission = submit([run_entry(t) for t in SHORT_TASKS[:2]])
    killed, alive = submission.runs.order_by("pk")
    for run in (killed, alive):
        verification.claim_run(run_id=run.pk)  # held by this (living) process
    Run.objects.filter(pk=killed.pk).update(claimed_by=f"{socket.gethostname()}:{a_gone_process()}")
    sent.clear()
    assert verification.requeue_stuck_runs() == [killed.pk] and sent == [killed.pk]


def test_upload_payload_round_trip_keeps_actions_exactly():
    entry = run_entry("merge2048/corner-20@1")
    submission = submit([entry])
    assert submission.runs.get().actions == json.loads(json.dumps(entry["actions"]))
    assert len(Submission.objects.get().content_sha256) == 64


def test_a_held_run_is_retried_when_its_lease_ends(monkeypatch):
    """The pool process that held it may have died while its message came straight back."""
    retried = []
    monkeypatch.setattr(tasks.verify_run, "retry", lambda **kw: retried.append(kw) or RuntimeError("retry"))
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    verification.claim_run(run_id=run.pk)
    with pytest.raises(RuntimeError):
        tasks.verify_run.run(run.pk)
    assert retried and retried[0]["max_retries"] is None and retried[0]["countdown"] > 1


def test_a_run_stored_by_a_worker_that_died_before_counting_it_is_counted(monkeypatch):
    submission = submit([run_entry("breakout/rally-5@2")])
    run = submission.runs.get()
    with monkeypatch.context() as patched:
        patched.setattr(verification, "refresh_submission", lambda **kw: None)  # the worker dies here
        verification.verify_run(run_id=run.pk)
    assert Submission.objects.get().status != "verified"
    verification.verify_run(run_id=run.pk)  # a redelivered message finds the run finished and counts it
    assert Submission.objects.get().status == "verified"


def test_the_sweep_counts_submissions_with_nothing_left_to_replay(monkeypatch):
    submission = submit([run_entry("breakout/rally-5@2")])
    with monkeypatch.context() as patched:
        patched.setattr(verification, "refresh_submission", lambda **kw: None)
        verification.verify_run(run_id=submission.runs.get().pk)
    Submission.objects.filter(pk=submission.pk).update(status="verifying")
    verification.requeue_stuck_runs()
    assert Submission.objects.get().status == "verified"
