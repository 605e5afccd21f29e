import json
import shutil

import pytest

from sandbox import ManifestError, UnknownTask, load_manifest
from sandbox.registry import Registry
from tests.conftest import FIXTURE_GAMES


@pytest.fixture
def bundle(tmp_path):
    """A writable copy of the counter bundle; edit(fn) rewrites its manifest."""
    target = tmp_path / "counter"
    shutil.copytree(FIXTURE_GAMES / "counter", target)

    def edit(change):
        path = target / "manifest.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
        return target
    return edit


def refused(bundle_dir):
    with pytest.raises(ManifestError) as caught:
        load_manifest(bundle_dir)
    return caught.value


def test_the_fixture_manifest_loads(bundle):
    game = load_manifest(bundle(lambda d: None))
    assert game.slug == "counter" and list(game.tasks) == ["score-3"]
    assert game.tasks["score-3"].id == "counter/score-3@1"


def test_a_manifest_checked_once_is_checked_again_when_its_file_changes(bundle):
    folder = bundle(lambda d: None)
    assert load_manifest(folder).slug == "counter"
    bundle(lambda d: d.update(genre="racing"))  # the same file, other bytes
    assert refused(folder).field == "genre"
    bundle(lambda d: d.update(genre="arcade"))
    assert load_manifest(folder).genre == "arcade"


def test_a_missing_field_is_named(bundle):
    error = refused(bundle(lambda d: d.pop("genre")))
    assert error.path.endswith("counter/manifest.json") and "'genre' is a required property" in str(error)


def test_an_unknown_genre_is_named(bundle):
    error = refused(bundle(lambda d: d.update(genre="racing")))
    assert error.field == "genre" and "racing" in str(error)


def test_a_score_field_the_game_does_not_expose_is_named(bundle):
    error = refused(bundle(lambda d: d["tasks"][0].update(score_field="coins")))
    assert error.field == "tasks[0].score_field" and "'coins' is not a state field" in str(error)


def test_a_trajectory_action_outside_the_space_is_named(bundle):
    error = refused(bundle(lambda d: d["tasks"][0]["reference"]["actions"].append(
        {"type": "press_key", "key": "KeyZ"})))
    assert error.field == "tasks[0].reference.actions[3]" and "KeyZ" in str(error)


def test_an_entry_outside_the_bundle_is_refused(bundle):
    error = refused(bundle(lambda d: d.update(entry="../../etc/passwd")))
    assert error.field == "entry"


def test_a_slug_that_differs_from_the_folder_is_refused(bundle):
    assert refused(bundle(lambda d: d.update(slug="other"))).field == "slug"


def test_invalid_json_is_refused(bundle):
    path = bundle(lambda d: None)
    (path / "manifest.json").write_text("{not json")
    assert "not valid JSON" in str(refused(path))


def test_registry_names_unknown_games_and_tasks(fixture_games):
    with pytest.raises(UnknownTask, match="no game 'nope'"):
        fixture_games.task("nope/x")
    with pytest.raises(UnknownTask, match="has no task 'x'; it has score-3"):
        fixture_games.task("counter/x")
    with pytest.raises(UnknownTask, match="version 1"):
        fixture_games.task("counter/score-3@2")
    with pytest.raises(UnknownTask, match="not a task id"):
        Registry(FIXTURE_GAMES).task("counter")
