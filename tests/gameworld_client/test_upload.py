"""gameworld_client against the live site: Daphne serving the API and a Celery worker replaying the runs."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from gameworld_client import UploadError, upload, wait, write_submission

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "submissions" / "schemas" / "submission-1.schema.json"
AGENT = {"name": "client-test", "model": "reference-replayer", "interface": "cua"}
FAITHFUL = ["minesweeper/clear-2-boards", "platformer/seven-coins", "breakout/rally-5", "merge2048/corner-20"]
TAMPERED = "merge2048/corner-30"  # its null trajectory, claimed as a success
GAMES = sorted({slug.split("/")[0] for slug in FAITHFUL + [TAMPERED]})

def cli(*args, env=None, timeout=300):
    """The client as a user runs it: its own process, only the repository on the path (no Django set up)."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("GAMEWORLD_TOKEN", "GAMEWORLD_SITE", "DJANGO_SETTINGS_MODULE")}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "gameworld_client", *args], env={**base, **(env or {})},
                          cwd="/",
                          capture_output=True, text=True, timeout=timeout)


def published_tasks():
    from catalogue.bundle_loading import load_bundles
    from catalogue.models import TaskSet

    # Only the games used here: a bundle being written beside these tests must not fail them.
    report = load_bundles(slugs=GAMES, capture_frames=False)
    assert not report.errors, report.errors
    task_set = TaskSet.objects.get(slug="core-v15", status="published")
    return task_set, {f"{t.game.slug}/{t.slug}": t for t in task_set.tasks.select_related("game")}


def user_key():
    from django.contrib.auth import get_user_model

    from submissions.models import ApiToken

    user = get_user_model().objects.create_user("agent-lab", password="not-used-here-1")
    return ApiToken.issue(user=user, name="client test")[1]


def reference_run(task):
    """The task's reference as a computer-use run (AGENT's interface): semantic actions as the keys or clicks
    they stand for."""
    from tests.factories import as_computer_use

    return as_computer_use({"task": task.task_id, "seed": task.reference["seed"],
                            "actions": task.reference["actions"], "claimed": {"progress": 1.0, "success": True}})


def table_rows(stdout):
    """The verdict table's rows, split on runs of two or more spaces, keyed by task id."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("task "))
    rows = {}
    for line in lines[start + 2:]:
        if not line.strip():
            break
        cells = re.split(r" {2,}", line.strip())
        rows[cells[0]] = cells
    return rows


# Fast: the file the client writes.

def test_the_client_knows_every_agent_field_of_the_site_s_schema():
    from gameworld_client.upload import AGENT_FIELDS

    assert AGENT_FIELDS == set(json.loads(SCHEMA.read_text())["properties"]["agent"]["properties"])


def test_write_submission_writes_a_file_the_schema_accepts(tmp_path):
    runs = [{"task": "breakout/rally-5@2", "seed": 1,
             "actions": [{"type": "press_key", "key": "Space"}, {"type": "invalid", "raw": "hmm"}],
             "claimed": {"progress": 1.0, "success": True}},
            {"task": "merge2048/corner-15@1", "seed": 0, "actions": []}]
    agent = {**AGENT, "org": "Lab", "memory_rounds": 4, "url": "https://example.org/a", "notes": "t=0",
             "code_url": "https://example.org/code", "paper_url": "https://example.org/paper", "weights": "open",
             "tuned_on_benchmark": False, "reported": {"tokens_per_step": 812.5, "seconds_per_step": 1.25}}
    written = write_submission(tmp_path / "results.json", agent=agent, task_set="core-v15", runs=runs)
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert data == written
    from submissions.uploads import submission_schema  # the schema the site serves, limits filled in

    jsonschema.Draft202012Validator(submission_schema()).validate(data)
    assert data["format"] == "gameworld.submission/1" and data["protocol"] == "paused"
    assert data["runs"][0]["claimed"] == {"progress": 1.0, "success": True} and "claimed" not in data["runs"][1]
    assert not list(tmp_path.glob("*.tmp"))


def test_write_submission_names_the_fields_the_server_would_refuse(tmp_path):
    with pytest.raises(ValueError) as refused:
        write_submission(tmp_path / "bad.json", agent={"name": "a", "model": "m", "interface": "robot"},
                         task_set="core-v15", runs=[{"task": "breakout/rally-5@2", "seed": -1, "actions": []}])
    assert "agent.interface" in str(refused.value) and "runs[0].seed" in str(refused.value)
    assert not (tmp_path / "bad.json").exists()


def test_the_client_imports_without_django():
    probe = ("import sys, gameworld_client, gameworld_client.__main__; "
             "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'catalogue', 'submissions', 'hosted')], 'django imported'")
    result = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "PYTHONPATH": str(ROOT)},
                            cwd="/", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_upload_error_reads_as_field_and_message():
    error = UploadError(400, [{"field": "runs[3].seed", "message": "7 is not one of its seeds (1, 2, 3)"}])
    assert str(error) == ("the server refused the upload (HTTP 400):\n"
                          "  runs[3].seed: 7 is not one of its seeds (1, 2, 3)")


def test_a_malformed_token_is_refused_before_anything_is_sent():
    with pytest.raises(UploadError) as refused:  # a port nothing listens on: nothing may be sent
        upload({"format": "gameworld.submission/1"}, site="http://127.0.0.1:9", token="gw_pasted\nwith a newline")
    assert refused.value.status is None and refused.value.errors[0]["field"] == "Authorization"
    assert str(refused.value).startswith("the upload was not sent:")


def test_an_upload_whose_connection_was_cut_is_sent_once_more(monkeypatch):
    """Safe because the server answers the same runs from the same account with the submission they made."""
    import importlib

    import httpx

    upload_module = importlib.import_module("gameworld_client.upload")  # the module, not the function
    bodies = []

    def server(request):
        bodies.append(request.content)
        if len(bodies) == 1:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        return httpx.Response(200, json={"id": 7, "status": "queued", "created": False})
    monkeypatch.setattr(upload_module, "_client", lambda timeout: httpx.Client(transport=httpx.MockTransport(server)))
    answer = upload({"format": "gameworld.submission/1"}, site="http://site.test", token="gw_key")
    assert answer["id"] == 7 and answer["status_url"] == "http://site.test/api/v1/submissions/7"
    assert len(bodies) == 2 and bodies[0] == bodies[1]


# Slow: the live site and a worker.

@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_cli_uploads_follows_verification_and_flags_the_tampered_run(site_url, celery_worker_process, tmp_path):
    from submissions.models import Submission

    task_set, tasks = published_tasks()
    key = user_key()
    tampered = tasks[TAMPERED]
    runs = [reference_run(tasks[slug]) for slug in FAITHFUL]
    runs.append({"task": tampered.task_id, "seed": tampered.null["seed"], "actions": tampered.null["actions"],
                 "claimed": {"progress": 1.0, "success": True}})
    path = tmp_path / "results.json"
    write_submission(path, agent=AGENT, task_set=task_set.slug, runs=runs)

    result = cli("upload", str(path), "--interval", "0.2", "--timeout", "240",
                 env={"GAMEWORLD_TOKEN": key, "GAMEWORLD_SITE": site_url})
    out = result.stdout
    assert result.returncode == 1, out + result.stderr  # verified, with a mismatch

    submission = Submission.objects.get()
    assert submission.status == "verified" and submission.runs_total == 5
    assert f"uploaded submission {submission.pk}: 5 runs" in out
    progress = [line for line in out.splitlines() if re.fullmatch(r"(queued: \d+ of 5 runs verified|"
                                                                  r"verifying \d+ of 5 runs|verified 5 of 5 runs)", line)]
    assert progress[-1] == "verified 5 of 5 runs"
    assert any(line.startswith("verifying ") for line in progress)
    assert all(a != b for a, b in zip(progress, progress[1:])), progress  # one line per change
    done = [int(re.search(r"(\d+) of 5", line).group(1)) for line in progress]
    assert done == sorted(done)

    rows = table_rows(out)
    assert set(rows) == {tasks[slug].task_id for slug in FAITHFUL} | {tampered.task_id}
    for slug in FAITHFUL:
        task = tasks[slug]
        assert rows[task.task_id] == [task.task_id, str(task.reference["seed"]), "1.000", "1.000", "yes", "yes",
                                      "ok"], out
    row = rows[tampered.task_id]
    assert row[2] == "1.000" and float(row[3]) < 1.0 and row[4:] == ["yes", "no", "MISMATCH"], out
    assert "verified: 5 runs, 1 mismatch" in out
    assert list(submission.runs.filter(mismatch=True).values_list("task_id", flat=True)) == [tampered.pk]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_no_wait_then_wait_and_the_python_api(site_url, celery_worker_process, tmp_path):
    task_set, tasks = published_tasks()
    key = user_key()
    path = tmp_path / "one.json"
    write_submission(path, agent=AGENT, task_set=task_set.slug, runs=[reference_run(tasks["platformer/seven-coins"])])

    accepted = cli("upload", str(path), "--no-wait", "--site", site_url, "--token", key)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    submission_id = re.search(r"uploaded submission (\d+): 1 runs", accepted.stdout).group(1)
    assert f"{site_url}/api/v1/submissions/{submission_id}" in accepted.stdout

    followed = cli("wait", submission_id, "--site", site_url, "--interval", "0.2", "--timeout", "120")
    assert followed.returncode == 0, followed.stdout + followed.stderr
    assert "verified: 1 runs, no mismatches" in followed.stdout
    assert table_rows(followed.stdout)["platformer/seven-coins@3"][-1] == "ok"

    created = upload({"format": "gameworld.submission/1", "agent": AGENT, "protocol": "paused",
                      "task_set": task_set.slug, "runs": [reference_run(tasks["minesweeper/clear-2-boards"])]},
                     site=site_url, token=key)
    assert created["runs_total"] == 1 and created["status_url"].endswith(f"/api/v1/submissions/{created['id']}")
    again = upload({"format": "gameworld.submission/1", "agent": AGENT, "protocol": "paused",
                    "task_set": task_set.slug, "runs": [reference_run(tasks["minesweeper/clear-2-boards"])]},
                   site=site_url, token=key)  # sent twice (a retry): the same submission, not a second one
    assert (again["id"], again["created"], created["created"]) == (created["id"], False, True)
    seen = []
    final = wait(created["status_url"], interval=0.2, timeout=120, on_progress=seen.append)
    assert final["finished"] and final["status"] == "verified" and final["mismatches"] == 0
    assert final["runs"][0]["success"] is True and final["runs"][0]["trace_sha256"]
    keys = [(s["status"], s["runs_done"]) for s in seen]
    assert keys[-1] == ("verified", 1) and len(keys) == len(set(keys))  # called on changes only


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_refused_upload_prints_each_field_and_exits_2(site_url, tmp_path):
    from submissions.models import Submission

    task_set, tasks = published_tasks()
    key = user_key()
    task = tasks["breakout/rally-5"]
    path = tmp_path / "bad-seed.json"
    write_submission(path, agent=AGENT, task_set=task_set.slug,
                     runs=[reference_run(tasks["minesweeper/clear-2-boards"]), {**reference_run(task), "seed": 7}])

    result = cli("upload", str(path), "--site", site_url, "--token", key)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "upload refused (HTTP 400)" in result.stdout
    assert f"  runs[1].seed: 7 is not one of {task.task_id}'s seeds (1, 2, 3)" in result.stdout.splitlines()

    wrong_token = cli("upload", str(path), "--site", site_url, "--token", "gw_not-a-token")
    assert wrong_token.returncode == 2 and "upload refused (HTTP 401)" in wrong_token.stdout
    assert "  Authorization: " in wrong_token.stdout

    with pytest.raises(UploadError) as refused:
        upload(path, site=site_url, token=key)
    assert refused.value.status == 400
    assert [e["field"] for e in refused.value.errors] == ["runs[1].seed"]
    assert "runs[1].seed: 7 is not one of" in str(refused.value)
    assert not Submission.objects.exists()
