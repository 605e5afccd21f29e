"""The client as its users get it: the site's install commands run as written into a fresh virtual environment
(pip builds the wheel from the site's archive and installs it with its dependencies), then `gameworld --help`,
an upload, the page's hosted command and a hosted episode on a plain `websockets` connection; and the README's
examples, run as they are written."""
import html
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx
import pytest

from gameworld_client.__main__ import parser
from sandbox import registry
from tests.factories import as_semantic
from tests.gameworld_client.terminal import run_on_a_terminal
from tests.gameworld_client.test_upload import AGENT, published_tasks, reference_run, user_key

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "gameworld_client" / "README.md").read_text()
WHEELHOUSE = ROOT / "test-artifacts" / "wheelhouse"
HOSTED_TASK = "breakout/rally-5@2"


def code_blocks(text, language):
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def commands(block):
    """The command lines of a shell block: continuations joined, comments dropped, `export` lines left out."""
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] != "export":
            yield words


def semantic_reference(task_id):
    task = registry.task(task_id)
    return as_semantic(task.reference.actions, task.game)


def wheelhouse():
    """The client's dependencies (at the versions requirements.txt pins) and the build backend, as wheels
    downloaded once: a fresh venv then installs without the network."""
    project = tomllib.loads((ROOT / "gameworld_client" / "pyproject.toml").read_text())
    wanted = [*project["project"]["dependencies"], *project["build-system"]["requires"]]
    download = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "-d", str(WHEELHOUSE),
                "-c", str(ROOT / "requirements.txt"), *wanted]
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    if subprocess.run([*download, "--no-index", "--find-links", str(WHEELHOUSE)], capture_output=True).returncode:
        subprocess.run(download, check=True, capture_output=True, timeout=600)
    return WHEELHOUSE


def a_users_shell(tmp_path):
    """The environment of a user's shell: no project paths, no virtual environment active; pip offline on the
    wheelhouse (PIP_* settings, so the commands stay as written)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "DJANGO_SETTINGS_MODULE") and not k.startswith("GAMEWORLD_")}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if not p.startswith(str(ROOT)))
    env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse()), PIP_DISABLE_PIP_VERSION_CHECK="1",
               HOME=str(tmp_path))
    return env


def test_the_readme_commands_are_commands_of_the_client():
    """Every `gameworld ...` line of the README parses with the command's own options."""
    seen = 0
    for block in code_blocks(README, "sh"):
        for words in commands(block):
            if words[0] == "gameworld" and words[1:] != ["--help"]:
                parser().parse_args(words[1:])  # SystemExit (a test failure) on an unknown option
                seen += 1
    assert seen >= 4  # the runner (hosted, local, random) and the upload


PLAIN_WEBSOCKETS_EPISODE = """
import json, os, sys
from websockets.sync.client import connect

site = os.environ["GAMEWORLD_SITE"].replace("http", "ws", 1)
task, actions = sys.argv[1], json.loads(sys.argv[2])
with connect(site + "/ws/agent/", additional_headers={"Authorization": "Token " + os.environ["GAMEWORLD_TOKEN"]}) as ws:
    assert "Origin" not in ws.request.headers
    ws.send(json.dumps({"type": "begin", "agent": {"name": "plain-websockets", "model": "reference",
                                                    "interface": "generalist"}, "task_set": "core-v15"}))
    assert json.loads(ws.recv())["type"] == "evaluation"
    ws.send(json.dumps({"type": "reset", "task": task, "seed": 1}))
    status, frame = json.loads(ws.recv()), ws.recv()
    for step, action in enumerate(actions):
        ws.send(json.dumps({"type": "action", "step": step, "action": action}))
        status, frame = json.loads(ws.recv()), ws.recv()
    assert frame[:3] == b"\\xff\\xd8\\xff"
    print(json.dumps(status))
"""


@pytest.mark.slow
@pytest.mark.real_broker
@pytest.mark.django_db(transaction=True)
def test_the_pages_install_commands_give_a_working_client_in_a_fresh_venv(site_url, celery_worker_process, tmp_path):
    task_set, tasks = published_tasks()
    key = user_key()
    page = html.unescape(httpx.get(f"{site_url}/evaluate/", timeout=60).text)
    install = re.search(r'<pre class="example" id="install">(.*?)</pre>', page, re.S).group(1)
    shown = [block for block in re.findall(r'<pre class="example">(.*?)</pre>', page, re.S)
             if block.startswith("gameworld ")]
    env = a_users_shell(tmp_path)

    # The install block as written (the user's token in place of the placeholder): a fresh venv, and pip
    # building the wheel from the site's archive and installing it with its dependencies.
    installed = subprocess.run(["bash", "-e", "-c", install.replace("gw_...", key)], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    exports = dict(re.findall(r"^export (\w+)=(\S+)", install, re.M))
    assert exports["GAMEWORLD_SITE"] == site_url
    venv = tmp_path / "gw"
    assert not (venv / "lib" / "python3.11" / "site-packages" / "django").exists()  # nothing of the platform
    env.update(exports, GAMEWORLD_TOKEN=key, PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}",
               VIRTUAL_ENV=str(venv))  # what `. gw/bin/activate` and the exports leave in the shell

    metadata = subprocess.run(
        [venv / "bin" / "python", "-c", "import importlib.metadata as m, json, gameworld_client as g; "
         "d = m.distribution('gameworld-client'); print(json.dumps({'file': g.__file__, 'requires': d.requires, "
         "'files': [str(f) for f in d.files], 'scripts': [e.name for e in d.entry_points]}))"],
        cwd=tmp_path, env=env, capture_output=True, text=True)
    assert metadata.returncode == 0, metadata.stderr
    metadata = json.loads(metadata.stdout)
    assert metadata["file"].startswith(str(venv))
    assert "gameworld_client/py.typed" in metadata["files"] and metadata["scripts"] == ["gameworld"]
    assert sorted(re.split(r"[<>=]", r)[0] for r in metadata["requires"]) == [
        "gymnasium", "httpx", "numpy", "openai", "pillow", "tqdm", "websockets"]

    helped = subprocess.run(["gameworld", "--help"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: gameworld ")
    assert all(command in helped.stdout for command in ("upload", "run", "wait"))

    # The page's upload command, on a terminal: its bar of the runs verified, then the verdict.
    (tmp_path / "results.json").write_text(json.dumps({
        "format": "gameworld.submission/1", "agent": AGENT, "protocol": "paused", "task_set": task_set.slug,
        "runs": [reference_run(tasks["platformer/seven-coins"])]}))
    [upload_command] = [block for block in shown if block.startswith("gameworld upload")]
    uploaded, terminal = run_on_a_terminal(["bash", "-c", upload_command], cwd=tmp_path, env=env, timeout=300)
    assert uploaded.returncode == 0, uploaded.stdout + terminal
    assert "verified: 1 runs, no mismatches" in uploaded.stdout and "verified: 1/1 runs verified" in terminal

    # The page's hosted command (the random agent), then an episode on a plain websockets connection.
    [hosted_command] = [block for block in shown if block.startswith("gameworld run --hosted --agent random")]
    assert hosted_command.endswith(f"--tasks {HOSTED_TASK.split('@')[0]}")
    hosted = subprocess.run(["bash", "-c", hosted_command], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=400)
    assert hosted.returncode == 0, hosted.stdout + hosted.stderr
    assert f"{HOSTED_TASK} seed 1: progress" in hosted.stdout and "verified: 1 runs, no mismatches" in hosted.stdout
    episode = subprocess.run([venv / "bin" / "python", "-c", PLAIN_WEBSOCKETS_EPISODE, HOSTED_TASK,
                              json.dumps(semantic_reference(HOSTED_TASK))],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert episode.returncode == 0, episode.stderr
    status = json.loads(episode.stdout)
    assert status["terminated"] and status["success"] and status["trace_sha256"]


@pytest.mark.slow
@pytest.mark.real_broker
@pytest.mark.django_db(transaction=True)
def test_the_readme_python_examples_run(site_url, celery_worker_process, tmp_path, monkeypatch):
    """Each Python block of the README, as written, in order: the local env, a hosted episode submitted and
    verified, and an upload followed to its verdict (`my_agent` plays the task's reference)."""
    published_tasks()
    monkeypatch.setenv("GAMEWORLD_SITE", site_url)
    monkeypatch.setenv("GAMEWORLD_TOKEN", user_key())
    monkeypatch.chdir(tmp_path)
    plan = iter(semantic_reference(HOSTED_TASK))
    # a block with `{...}` in it is a sketch (the sealed evaluation's), not a program
    local, hosted, uploading = [block for block in code_blocks(README, "python") if "{...}" not in block]
    exec(local, namespace := {})
    assert namespace["obs"]["actions_left"] == 98 and namespace["env"].run_record()["task"] == "breakout/rally-10@1"

    exec(hosted, namespace := {"my_agent": lambda observation: next(plan)})
    assert namespace["final"]["status"] == "verified" and namespace["final"]["mismatches"] == 0
    assert namespace["final"]["runs"][0]["task"] == HOSTED_TASK and namespace["final"]["runs"][0]["success"]

    exec(uploading, namespace := {})
    assert namespace["final"]["status"] == "verified"
    assert namespace["final"]["mismatches"] == 1  # the example claims a success that one key press does not make
