"""The "Evaluate your agent" page, the client archive pip installs, and the baseline submissions."""
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command

from hosted.models import HostedEvaluation
from sandbox import registry
from submissions.models import ApiToken, Submission
from tests.factories import load_games, make_user

pytestmark = pytest.mark.django_db
BASELINES = Path(__file__).resolve().parents[2] / "submissions" / "baselines"


def test_the_page_shows_the_three_paths_with_this_sites_commands(client):
    load_games()
    page = client.get("/evaluate/").content.decode()
    assert "<h1>Evaluate your agent</h1>" in page
    for anchor in ('id="hosted"', 'id="local"', 'id="runner"', 'id="realtime"', 'id="protocol"'):
        assert anchor in page
    assert "pip install http://testserver/evaluate/gameworld-client.zip" in page
    assert "export GAMEWORLD_SITE=http://testserver" in page
    assert "gameworld run --hosted --agent random --interface generalist --tasks breakout/rally-5" in page
    assert "gameworld upload results.json" in page and "python -m gameworld_client" not in page
    assert 'href="/evaluate/">Evaluate your agent</a>' in page  # the nav link
    assert "Your hosted evaluations" not in page  # signed out


def test_the_examples_name_tasks_of_the_published_set_or_say_there_is_none_yet(client):
    from catalogue.models import TaskSet
    from tests.factories import validating_the_default_set

    load_games()
    page = client.get("/evaluate/").content.decode()
    published = set(TaskSet.objects.get(slug="core-v15").tasks.values_list("game__slug", "slug"))
    for game, task in re.findall(r'"([a-z0-9-]+)/([a-z0-9-]+)"', page.split('id="local"')[1].split("</pre>")[0]):
        assert (game, task) in published
    total = validating_the_default_set(done=3, seconds_apart=2)
    page = client.get("/evaluate/").content.decode()
    assert 'id="no-task-set"' in page and f"being checked: 3 of {total} tasks" in page
    assert "--agent random --interface generalist --tasks" not in page and "first-brick" not in page and '"game/task"' in page


def test_a_signed_in_user_sees_their_hosted_evaluations(client):
    load_games()
    user = make_user("lab")
    from catalogue.models import TaskSet

    HostedEvaluation.objects.create(user=user, task_set=TaskSet.objects.get(slug="core-v15"), protocol="realtime",
                                    agent={"name": "rt-agent", "model": "m", "interface": "cua"})
    client.force_login(user)
    page = client.get("/evaluate/").content.decode()
    assert "Your hosted evaluations" in page and "rt-agent" in page and "realtime" in page


def test_the_client_archive_is_the_package(client):
    response = client.get("/evaluate/gameworld-client.zip")
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = set(archive.namelist())
    package = Path(__file__).resolve().parents[2] / "gameworld_client"
    assert names == {f"gameworld-client/{path.name}" for path in package.iterdir()
                     if path.suffix in (".py", ".toml", ".md", ".typed")}  # every file of the package, py.typed too
    assert not [n for n in names if "__pycache__" in n or "egg-info" in n]


def test_the_baseline_files_load_once_as_submissions_and_replay_to_their_claims():
    load_games()
    files = sorted(BASELINES.glob("*.json"))
    assert [f.stem for f in files] == ["random-cua", "random-generalist", "scripted-state"]
    for path in files:
        data = json.loads(path.read_text())
        assert data["protocol"] == "paused" and data["task_set"] == "core-v15"
        assert sorted(run["task"] for run in data["runs"]) == sorted(  # every task of the default task set
            task.id for game in registry.games() for task in game.tasks.values())
    out = io.StringIO()
    call_command("load_baselines", stdout=out)
    assert out.getvalue().count("queued for verification") == 3
    call_command("load_baselines", stdout=(again := io.StringIO()))
    assert again.getvalue().count("already loaded") == 3 and Submission.objects.count() == 3
    scripted = Submission.objects.get(agent_name__contains="reads game state")
    assert "NOT PIXELS" in scripted.notes and scripted.user is None and scripted.interface == "cua"
    assert set(Submission.objects.values_list("is_baseline", flat=True)) == {True}

    from submissions import verification

    for submission in Submission.objects.all():  # one run of each (a worker replays them all on a new site)
        run = submission.runs.order_by("pk").first()
        verification.verify_run(run_id=run.pk)
        run.refresh_from_db()
        assert run.status == "verified" and not run.mismatch, (submission.agent_name, run.task.task_id)


def test_make_baselines_writes_a_file_the_site_accepts(tmp_path):
    load_games()
    out = io.StringIO()
    call_command("make_baselines", "--agents", "scripted-state,random-generalist", "--games", "runner",
                 "--out", str(tmp_path), stdout=out)
    data = json.loads((tmp_path / "scripted-state.json").read_text())
    assert sorted(r["task"] for r in data["runs"]) == [f"runner/{t}@1" for t in
                                                       ("clear-12", "clear-15", "clear-17", "clear-6", "clear-9")]
    assert sum(r["claimed"]["success"] for r in data["runs"]) == 5  # the scripted player reads the obstacles
    assert {a["type"] for r in data["runs"] for a in r["actions"]} <= {"press_key", "wait"}  # as primitives
    assert (tmp_path / "random-generalist.json").is_file()
    call_command("load_baselines", "--dir", str(tmp_path), stdout=io.StringIO(), stderr=io.StringIO())
    assert Submission.objects.count() == 2
    assert ApiToken.objects.count() == 0
