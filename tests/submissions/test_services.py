"""Storing submissions: a submission is its runs whatever the bytes, and the same runs as an earlier entry of
anyone else (the platform's baselines included) are a copy of it, never ranked."""
import json

from catalogue.models import TaskSet
from leaderboard import selectors
from submissions.models import Run, Submission, UploadLimits
from submissions.services import BASELINES_DIR, load_baseline_files, submit_upload
from submissions.uploads import parse_upload
from tests.factories import load_games, make_user, payload, run_entry
from tests.leaderboard import factories


def upload(raw, user):
    parsed = parse_upload(raw, user=user, limits=UploadLimits.current())
    return submit_upload(user=user, parsed=parsed)


def test_the_same_runs_reserialised_are_the_same_submission(db, django_capture_on_commit_callbacks):
    factories.load_games()  # breakout and merge2048 among a few
    user = make_user()
    data = json.loads(payload([run_entry("breakout/rally-5@2"), run_entry("merge2048/corner-20@1")]))
    with django_capture_on_commit_callbacks():
        first, created = upload(json.dumps(data).encode(), user)
    assert created
    shuffled = {key: data[key] for key in reversed(list(data))}  # keys, runs and their keys in another order
    shuffled["runs"] = [{key: run[key] for key in reversed(list(run))} for run in reversed(data["runs"])]
    shuffled["agent"] = {**data["agent"], "notes": "same runs, described again"}
    for raw in (json.dumps(shuffled, indent=4).encode(), json.dumps(shuffled).encode("utf-16"),
                json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")):
        again, created = upload(raw, user)
        assert (again.pk, created) == (first.pk, False)
    assert Submission.objects.count() == 1
    other_seed = json.loads(json.dumps(data))
    other_seed["runs"][0]["seed"] = 2
    with django_capture_on_commit_callbacks():
        assert upload(json.dumps(other_seed).encode(), user)[1]  # other runs: another submission


def test_the_baselines_uploaded_under_another_name_are_a_copy_that_never_reaches_the_sealed_board(
        db, django_capture_on_commit_callbacks):
    load_games()
    with django_capture_on_commit_callbacks():
        load_baseline_files(folder=BASELINES_DIR, say=lambda line: None)
    baseline = Submission.objects.get(agent_name__startswith="Scripted solver")
    data = json.loads((BASELINES_DIR / "scripted-state.json").read_text())
    data["agent"] = {"name": "Totally new agent", "model": "my-vlm", "interface": data["agent"]["interface"]}
    with django_capture_on_commit_callbacks():
        copy, created = upload(json.dumps(data, indent=2).encode(), make_user("copier"))
    assert created and (copy.provenance, copy.copy_of_id, copy.is_baseline) == ("uploaded", baseline.pk, False)
    Run.objects.update(status=Run.Status.VERIFIED, progress=1.0, success=True, attempts=1, actions_used=10,
                       invalid_actions=0)  # as the worker would find them: every run reaches its target
    Submission.objects.update(status=Submission.Status.VERIFIED)
    core = baseline.task_set
    sealed = {e["submission_id"]: e for e in selectors.compute_table(core)["entries"] if e["kind"] == "agent"}
    assert copy.pk not in sealed and sealed[baseline.pk]["reference"]  # the baseline stays a reference row
    assert not any(e["ranked"] for e in sealed.values())
    public = {e["submission_id"]: e for e in selectors.compute_table(core, board=selectors.PUBLIC_BOARD)["entries"]
              if e["kind"] == "agent"}
    assert public[copy.pk]["copy_of"] == baseline.pk and not public[copy.pk]["ranked"]


def test_baseline_runs_on_tasks_left_out_of_the_set_are_skipped_and_said(db, django_capture_on_commit_callbacks):
    load_games()
    data = json.loads((BASELINES_DIR / "random-cua.json").read_text())
    core = TaskSet.objects.get(slug=data["task_set"])
    left_out = core.tasks.get(game__slug="breakout", slug="rally-5")
    core.tasks.remove(left_out)  # as the first start's validation leaves out a failing task
    said = []
    with django_capture_on_commit_callbacks():
        load_baseline_files(folder=BASELINES_DIR, say=said.append)
    skipped = [line for line in said if line.startswith("random-cua.json: 1 tasks are not in")]
    assert skipped == [f"random-cua.json: 1 tasks are not in {core.slug}; their runs are not loaded: breakout/rally-5@2"]
    submission = Submission.objects.get(agent_name=data["agent"]["name"])
    assert submission.runs_total == len(data["runs"]) - 1
    assert not submission.runs.filter(task=left_out).exists()
