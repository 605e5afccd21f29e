import json

import pytest
from django.core.management import CommandError, call_command
from PIL import Image

import sandbox.cli as cli


@pytest.fixture(autouse=True)
def fixture_registry(monkeypatch, fixture_games):
    monkeypatch.setattr(cli, "registry", fixture_games)


def trajectory(tmp_path, actions, seed=1):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"seed": seed, "actions": actions}))
    return str(path)


def test_play_trajectory_prints_the_oracle_figures_and_writes_frames(tmp_path, capsys):
    path = trajectory(tmp_path, [{"type": "press_key", "key": "KeyQ"}, {"type": "press_key", "key": "ArrowDown"},
                                 {"type": "press_key", "key": "ArrowUp"}])
    call_command("play_trajectory", "counter/score-3", path, frames=str(tmp_path / "frames"),
                 gif=str(tmp_path / "run.gif"))
    out = capsys.readouterr().out
    assert "step 1: invalid action: key 'KeyQ'" in out
    assert "step 2: the game was lost; attempt 2 starts" in out
    assert "progress=0.333 success=False best=1 target=3 actions=3 attempts=2 invalid=1 iar=0.333" in out
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["000.png", "001.png", "002.png", "003.png"]
    gif = Image.open(tmp_path / "run.gif")
    durations = []
    for index in range(gif.n_frames):  # identical frames are merged, their durations added
        gif.seek(index)
        durations.append(gif.info["duration"])
    assert gif.n_frames >= 3 and sum(durations) == 4 * 200


def test_a_bad_trajectory_file_is_an_error_that_names_it(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"seed": "one", "actions": []}')
    with pytest.raises(CommandError, match="bad.json: a trajectory is an object with an integer `seed`"):
        call_command("play_trajectory", "counter/score-3", str(path))
    with pytest.raises(CommandError, match="no game 'nope'"):
        call_command("play_trajectory", "nope/x", str(path))
