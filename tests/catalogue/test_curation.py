"""Curation: task versions, validation before publication, roles on every action, the audit log."""
import io
import json
import re
import tarfile
import zipfile

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import PermissionDenied

from catalogue import curation
from catalogue.apps import MAINTAINERS
from catalogue.bundles import BundleRejected
from catalogue.models import AuditEntry, Task, TaskSet
from leaderboard import selectors
from sandbox import registry
from sandbox.calibration import INTERFACES, sampled_interface
from submissions import moderation, services, verification
from submissions.models import Submission, UploadLimits
from submissions.uploads import parse_upload
from tests.conftest import FIXTURE_GAMES
from tests.factories import make_user, payload, run_entry, task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_games")]


@pytest.fixture
def maintainer():
    user = User.objects.create_user("maya", password="pw-maya-2026!", is_staff=True)
    user.groups.add(Group.objects.get(name=MAINTAINERS))
    return User.objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def visitor():
    return User.objects.create_user("vic", password="pw-vic-2026!", is_staff=True)  # staff, not a maintainer


def verified_submission(task_ids):
    user = make_user()
    parsed = parse_upload(payload([run_entry(t) for t in task_ids]), user=user, limits=UploadLimits.current())
    submission = services.create_submission(user=user, parsed=parsed)
    for run_id in submission.runs.values_list("pk", flat=True):
        verification.verify_run(run_id=run_id)
    return submission


def test_editing_what_a_published_task_measures_makes_a_new_version_and_keeps_old_figures(maintainer):
    submission = verified_submission(["minesweeper/clear-2-boards@2"])
    old = task("minesweeper/clear-2-boards@2")
    default = TaskSet.objects.get(is_default=True)
    before = selectors.runs_table(default)[["run_id", "progress", "success"]].to_dict("records")
    new = curation.edit_task(actor=maintainer, task=old, changes={"target": 3.0, "instruction": "Clear three boards."})
    assert (new.version, new.target, new.slug) == (3, 3.0, "clear-2-boards")
    assert new.calibration is None  # a new definition has no card until it is measured
    old.refresh_from_db()
    assert (old.target, old.version) == (2, 2) and old.runs.count() == 1
    assert selectors.runs_table(default)[["run_id", "progress", "success"]].to_dict("records") == before
    assert submission.runs.get().task_id == old.pk
    entry = AuditEntry.objects.get(action="new task version")
    assert entry.actor == maintainer and entry.changes["from"] == "minesweeper/clear-2-boards@2"
    assert entry.changes["target"] == [2.0, 3.0]


def test_wording_is_fixed_in_place_and_logged(maintainer):
    old = task("minesweeper/clear-2-boards@2")
    same = curation.edit_task(actor=maintainer, task=old, changes={"instruction": "Open ten safe cells (10)."})
    assert same.pk == old.pk and Task.objects.filter(slug="clear-2-boards").count() == 1
    assert AuditEntry.objects.get(action="reworded task").changes["instruction"][1] == "Open ten safe cells (10)."


def test_a_task_set_with_a_failing_task_cannot_be_published(maintainer):
    good = task("tiltmaze/maze-1@3")
    bad = curation.edit_task(actor=maintainer, task=task("platformer/seven-coins@3"), changes={"target": 50.0})
    assert curation.validate_task(actor=maintainer, task=good).ok
    failed = curation.validate_task(actor=maintainer, task=bad)
    assert not failed.ok and "the reference reaches 7, not the target 50" in failed.problems
    assert "not calibrated" in failed.problems  # a version made here has no card until it is measured
    assert failed.deterministic is True and failed.frame_png  # a frame to look at
    draft = TaskSet.objects.create(slug="try", name="Try")
    draft.tasks.set([good, bad])
    with pytest.raises(curation.CurationRefused, match="platformer/seven-coins@4 \\(the reference reaches 7"):
        curation.publish_task_set(actor=maintainer, task_set=draft)
    draft.tasks.remove(bad)
    curation.publish_task_set(actor=maintainer, task_set=draft)
    assert TaskSet.objects.get(pk=draft.pk).status == "published"
    curation.make_default(actor=maintainer, task_set=draft)
    assert TaskSet.objects.get(is_default=True) == draft
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["new task version", "validated task", "validated task", "published task set",
                       "made default task set"]


def test_a_check_replays_the_reference_once_against_its_card_and_keeps_the_frame_it_ended_on(maintainer, monkeypatch):
    checked = task("tiltmaze/maze-1@3")
    spec = checked.spec()
    real_replay, real_sample = curation.run_trajectory, curation.verify_task_sample
    replayed, sampled = [], []
    monkeypatch.setattr(curation, "run_trajectory",
                        lambda spec, trajectory, **options: replayed.append(trajectory) or real_replay(spec, trajectory,
                                                                                                        **options))
    monkeypatch.setattr(curation, "verify_task_sample",
                        lambda spec, card, **options: sampled.append(options["interfaces"]) or real_sample(spec, card,
                                                                                                             **options))
    validation = curation.check_default_task(task=checked)  # a first start's check of the default set
    assert validation.ok and validation.deterministic
    assert replayed == [spec.reference, spec.null] and sampled == [(sampled_interface(spec),)]
    *_, frame = real_replay(spec, spec.reference, run_ahead=False, last_frame=True)
    assert validation.frame_png == frame  # the frame the reference ended on, as a step-by-step replay shows it

    # A maintainer's validation samples every interface; a reference whose trace is not its card's fails.
    card = checked.calibration
    card["reference"]["trace_sha256"] = "0" * 64
    Task.objects.filter(pk=checked.pk).update(calibration=card)
    replayed.clear(), sampled.clear()
    failed = curation.validate_task(actor=maintainer, task=Task.objects.get(pk=checked.pk))
    assert not failed.ok and failed.deterministic is False
    assert "the reference replays with another trace than its calibration card's" in failed.problems
    assert replayed == [spec.reference, spec.null] and sampled == [INTERFACES]


def test_every_game_s_tasks_sample_every_interface_between_them():
    for game in registry.games():
        assert {sampled_interface(spec) for spec in game.tasks.values()} == set(INTERFACES), game.slug


def test_an_unvalidated_task_blocks_publication_and_retired_sets_take_no_submissions(maintainer):
    draft = TaskSet.objects.create(slug="fresh", name="Fresh")
    draft.tasks.set([task("breakout/rally-5@2")])
    with pytest.raises(curation.CurationRefused, match="not validated"):
        curation.publish_task_set(actor=maintainer, task_set=draft)
    # A refusal over many tasks is summarised by reason: a few named, the rest counted.
    draft.tasks.set(Task.objects.filter(game__slug="breakout"))
    with pytest.raises(curation.CurationRefused) as refused:
        curation.publish_task_set(actor=maintainer, task_set=draft)
    unvalidated = sorted(draft.tasks.values_list("game__slug", "slug", "version"))
    assert len(unvalidated) > curation.NAMED_PER_REASON
    assert f": {len(unvalidated)} not validated: " in str(refused.value)
    assert f"and {len(unvalidated) - curation.NAMED_PER_REASON} more" in str(refused.value)
    assert sum(f"{game}/{slug}@{version}" in str(refused.value) for game, slug, version in unvalidated) == 3
    core = TaskSet.objects.get(slug="core-v15")
    with pytest.raises(curation.CurationRefused, match="is the default task set"):
        curation.retire_task_set(actor=maintainer, task_set=core)


def test_moderation_hides_a_submission_from_every_figure_with_a_public_reason(maintainer, client):
    submission = verified_submission(["minesweeper/clear-2-boards@2"])
    default = TaskSet.objects.get(is_default=True)
    public = selectors.PUBLIC_BOARD  # an upload's board
    assert len(selectors.runs_table(default, board=public)) == 1
    moderation.moderate_submission(actor=maintainer, submission=submission, flag_reason="Trained on the seeds.",
                                 hidden=True)
    assert len(selectors.runs_table(default, board=public)) == 0
    page = client.get(submission.get_absolute_url()).content.decode()
    assert "Hidden from the leaderboard by the maintainers" in page and "Trained on the seeds." in page
    assert AuditEntry.objects.get(action="moderated submission").changes["hidden"] == [False, True]


def archive(kind, files):
    buffer = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as out:
            for name, data in files.items():
                out.writestr(name, data)
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as out:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                out.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def counter_files(version="2.0.0", **changes):
    folder = FIXTURE_GAMES / "counter"
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.update(version=version, **changes)
    return {"counter/manifest.json": json.dumps(manifest).encode(),
            "counter/index.html": (folder / "index.html").read_bytes(),
            "counter/game.js": (folder / "game.js").read_bytes()}


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_a_bundle_archive_is_imported_as_a_new_game_version(maintainer, kind, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    spec, report = curation.import_archive(actor=maintainer, data=archive(kind, counter_files()), name=f"c.{kind}")
    assert (spec.slug, spec.version) == ("counter", "2.0.0")
    assert (tmp_path / "bundles" / "2.0.0" / "counter" / "game.js").is_file()
    assert task("counter/score-3@1").spec().game.version == "2.0.0"
    assert AuditEntry.objects.get(action="imported bundle").changes["version"] == "2.0.0"


def test_the_python_of_an_imported_bundle_is_stored_as_data_and_never_run(maintainer, settings, tmp_path):
    """An uploaded bundle's solver.py is kept in the bundle store like any file, but neither the import nor
    playing the stored version nor the scripted baseline over it runs it: the baselines take scripted players
    from the repository's games/ only."""
    from sandbox import SandboxError
    from submissions.management.commands._baselines import play

    marker = tmp_path / "bundle-python-ran"
    solver = (f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n\n\n"
              f"class Player:\n    def __init__(self, task):\n        Path({str(marker)!r}).write_text('ran')\n\n"
              "    def act(self, env, state, info):\n        return {'type': 'wait'}\n").encode()
    settings.DATA_DIR = tmp_path / "data"
    files = {**counter_files(), "counter/solver.py": solver, "counter/__init__.py": solver}
    spec, _ = curation.import_archive(actor=maintainer, data=archive("zip", files), name="c.zip")
    stored = tmp_path / "data" / "bundles" / "2.0.0" / "counter"
    assert (stored / "solver.py").read_bytes() == solver and (stored / "__init__.py").read_bytes() == solver
    task_spec = task("counter/score-3@1").spec()
    assert task_spec.game.bundle_dir == stored
    with pytest.raises(SandboxError, match="only the repository's own bundles' solvers are run"):
        play(task_spec, task_spec.seeds[0], "scripted-state")
    assert not marker.exists()


@pytest.mark.parametrize("name, files, message", [
    ("evil.zip", {"../escape.txt": b"x"}, "points outside the bundle"),
    ("evil.zip", {"/etc/cron.d/x": b"x"}, "points outside the bundle"),
    ("empty.zip", {"readme.txt": b"x"}, "no manifest.json"),
])
def test_archives_reaching_outside_the_bundle_are_refused(maintainer, name, files, message):
    with pytest.raises(BundleRejected, match=message):
        curation.import_archive(actor=maintainer, data=archive("zip", files), name=name)


def counter_with_points_per_press(points, version, task_version=1):
    files = counter_files(version=version)
    manifest = json.loads(files["counter/manifest.json"])
    manifest["tasks"][0]["version"] = task_version
    files["counter/manifest.json"] = json.dumps(manifest).encode()
    files["counter/game.js"] = files["counter/game.js"].replace(b'"ArrowUp") s.score += 1',
                                                                f'"ArrowUp") s.score += {points}'.encode())
    assert files["counter/game.js"] != counter_files()["counter/game.js"]
    return files


def test_a_game_version_once_imported_never_changes(maintainer, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    curation.import_archive(actor=maintainer, data=archive("zip", counter_files()), name="c.zip")
    stored = (tmp_path / "bundles" / "2.0.0" / "counter" / "game.js").read_bytes()
    with pytest.raises(BundleRejected, match="counter 2.0.0 was imported before with other files"):
        curation.import_archive(actor=maintainer, data=archive("zip", counter_with_points_per_press(0, "2.0.0")),
                                name="changed.zip")
    assert (tmp_path / "bundles" / "2.0.0" / "counter" / "game.js").read_bytes() == stored


def test_declaring_where_the_hud_draws_a_figure_is_not_a_new_game_version(maintainer, settings, tmp_path):
    """`hud` describes the frames, which it does not change: an imported version may gain it without a new
    version (a changed semantic action still needs one)."""
    settings.DATA_DIR = tmp_path
    curation.import_archive(actor=maintainer, data=archive("zip", counter_files()), name="c.zip")
    files = counter_files()
    manifest = json.loads(files["counter/manifest.json"])
    manifest["hud"] = {"score": "top left: the count"}
    files["counter/manifest.json"] = json.dumps(manifest).encode()
    curation.import_archive(actor=maintainer, data=archive("zip", files), name="hud.zip")
    manifest["semantic_actions"][0]["description"] = "Something else."
    files["counter/manifest.json"] = json.dumps(manifest).encode()
    with pytest.raises(BundleRejected, match="counter 2.0.0 was imported before with other files"):
        curation.import_archive(actor=maintainer, data=archive("zip", files), name="changed.zip")


def test_an_old_task_version_replays_on_its_own_game_after_a_newer_game_arrives(maintainer, settings, tmp_path):
    from sandbox import Trajectory, run_trajectory

    settings.DATA_DIR = tmp_path
    curation.import_archive(actor=maintainer, data=archive("zip", counter_files()), name="v2.zip")
    published = TaskSet.objects.create(slug="counter-v1", name="Counter", status=TaskSet.Status.PUBLISHED)
    published.tasks.set([task("counter/score-3@1")])  # runs of it exist: what it measures is frozen
    curation.import_archive(actor=maintainer, data=archive("zip", counter_with_points_per_press(0, "3.0.0", 2)),
                            name="v3.zip")
    old, new = task("counter/score-3@1"), task("counter/score-3@2")
    assert (old.spec().game.version, new.spec().game.version) == ("2.0.0", "3.0.0")
    reference = Trajectory.from_dict(old.reference)
    assert run_trajectory(old.spec(), reference)[0].success          # on the game it was made for
    assert not run_trajectory(new.spec(), reference)[0].success      # on 3.0.0 ArrowUp scores nothing


def test_a_symlink_in_an_archive_is_refused(maintainer):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as out:
        link = tarfile.TarInfo("counter/game.js")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        out.addfile(link)
    with pytest.raises(BundleRejected, match="is a link or a device"):
        curation.import_archive(actor=maintainer, data=buffer.getvalue(), name="link.tar.gz")


def test_a_symlink_in_a_zip_is_refused(maintainer):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        link = zipfile.ZipInfo("counter/game.js")
        link.external_attr = (0o120777 << 16)  # a symbolic link, as `zip --symlinks` stores it
        out.writestr(link, "/etc/passwd")
    with pytest.raises(BundleRejected, match="is a symbolic link"):
        curation.import_archive(actor=maintainer, data=buffer.getvalue(), name="link.zip")


def test_a_tar_of_a_folder_s_contents_is_imported(maintainer, settings, tmp_path):
    """`tar czf b.tgz -C counter .` has a `./` entry for the folder itself and `./`-prefixed members."""
    settings.DATA_DIR = tmp_path
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as out:
        root = tarfile.TarInfo(".")
        root.type = tarfile.DIRTYPE
        out.addfile(root)
        for name, data in counter_files().items():
            info = tarfile.TarInfo("./" + name.split("/", 1)[1])
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
    spec, _ = curation.import_archive(actor=maintainer, data=buffer.getvalue(), name="b.tgz")
    assert (spec.slug, spec.version) == ("counter", "2.0.0")


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_an_archive_that_inflates_past_the_limit_is_refused_while_streaming(maintainer, kind, monkeypatch):
    from catalogue import bundles

    monkeypatch.setattr(bundles, "MAX_UNPACKED_BYTES", 1_000_000)
    files = counter_files() | {"counter/padding.bin": bytes(3_000_000)}  # compresses to a few KB
    data = archive(kind, files)
    assert len(data) < 100_000
    with pytest.raises(BundleRejected, match="inflate to more than 1,000,000 bytes"):
        curation.import_archive(actor=maintainer, data=data, name=f"bomb.{kind}")


def test_a_bad_manifest_in_an_archive_names_the_field(maintainer):
    from sandbox import ManifestError

    with pytest.raises(ManifestError, match="genre"):
        curation.import_archive(actor=maintainer, data=archive("zip", counter_files(genre="racing")), name="c.zip")


def test_a_non_maintainer_is_refused_every_curation_action(visitor):
    submission = verified_submission(["minesweeper/clear-2-boards@2"])
    draft = TaskSet.objects.create(slug="d", name="D")
    some_task = task("breakout/rally-5@2")
    for action in (lambda: curation.edit_task(actor=visitor, task=some_task, changes={"target": 20.0}),
                   lambda: curation.validate_task(actor=visitor, task=some_task),
                   lambda: curation.publish_task_set(actor=visitor, task_set=draft),
                   lambda: curation.retire_task_set(actor=visitor, task_set=draft),
                   lambda: curation.make_default(actor=visitor, task_set=draft),
                   lambda: moderation.moderate_submission(actor=visitor, submission=submission, hidden=True),
                   lambda: moderation.reverify_submission(actor=visitor, submission=submission),
                   lambda: curation.import_archive(actor=visitor, data=b"", name="x.zip")):
        with pytest.raises(PermissionDenied, match="maintainers only"):
            action()
    assert not AuditEntry.objects.exists() and not Submission.objects.filter(hidden=True).exists()


def test_the_admin_task_list_shows_validation_and_publication_first(admin_client):
    page = admin_client.get("/admin/catalogue/task/").content.decode()
    headers = re.findall(r'<th scope="col" class="(?:sortable )?column-(\w+)', page)
    assert headers[:3] == ["__str__", "validation", "published"], headers


def test_a_non_maintainer_is_refused_on_the_admin_pages_and_posts(client, visitor):
    client.force_login(visitor)
    some_task = task("breakout/rally-5@2")
    core = TaskSet.objects.get(slug="core-v15")
    for url in ("/admin/catalogue/task/", f"/admin/catalogue/task/{some_task.pk}/change/", "/admin/catalogue/taskset/",
                "/admin/catalogue/game/import/", "/admin/submissions/submission/", "/admin/catalogue/auditentry/"):
        assert client.get(url).status_code == 403, url
    response = client.post("/admin/catalogue/taskset/", {"action": "publish", "_selected_action": [core.pk]})
    assert response.status_code == 403
    response = client.post(f"/admin/catalogue/task/{some_task.pk}/change/", {"title": "x", "target": 99})
    assert response.status_code == 403
    assert Task.objects.get(pk=some_task.pk).target == 5


def test_a_maintainer_edits_a_published_task_in_the_admin_and_gets_a_new_version(client, maintainer):
    client.force_login(maintainer)
    old = task("minesweeper/clear-2-boards@2")
    form = {"title": old.title, "instruction": "Clear three boards.", "score_field": old.score_field,
            "start": json.dumps(old.start), "target": 3, "max_actions": old.max_actions, "step_ms": old.step_ms,
            "seeds": json.dumps(old.seeds), "reference": json.dumps(old.reference), "null": json.dumps(old.null),
            "validations-TOTAL_FORMS": 0, "validations-INITIAL_FORMS": 0}
    response = client.post(f"/admin/catalogue/task/{old.pk}/change/", form, follow=True)
    assert response.status_code == 200
    assert "was saved as minesweeper/clear-2-boards@3" in response.content.decode()
    assert Task.objects.get(pk=old.pk).target == 2 and task("minesweeper/clear-2-boards@3").target == 3


def test_admin_edits_of_settings_and_experts_are_in_the_audit_log(client, maintainer):
    from catalogue.models import Game
    from hosted.models import HostedEvaluationSettings
    from humanplay.models import HumanPlaySettings

    client.force_login(maintainer)
    limits = UploadLimits.current()
    response = client.post(f"/admin/submissions/uploadlimits/{limits.pk}/change/", {
        "max_file_bytes": 1000000, "max_runs": 50, "max_actions_per_run": 100, "max_submissions_per_day": 3})
    assert response.status_code == 302
    settings_row = HumanPlaySettings.current()
    client.post(f"/admin/humanplay/humanplaysettings/{settings_row.pk}/change/",
                {"session_expiry_minutes": 10, "practice_sessions_for_expert": 4, "frames_kept_days": 30})
    hosted_row = HostedEvaluationSettings.current()
    client.post(f"/admin/hosted/hostedevaluationsettings/{hosted_row.pk}/change/", {"hosted_expiry_hours": 12})
    player = make_user("pat")
    response = client.post("/admin/humanplay/expertdesignation/add/", {
        "user": player.pk, "game": Game.objects.get(slug="runner").pk, "genre": "", "since": "2026-11-01",
        "note": "regional champion"})
    assert response.status_code == 302
    log = {entry.action: entry for entry in AuditEntry.objects.all()}
    assert log["changed upload limits"].changes == {"max_runs": "50", "max_submissions_per_day": "3",
                                                    "max_file_bytes": "1000000", "max_actions_per_run": "100"}
    assert log["changed human play settings"].actor == maintainer
    assert log["changed human play settings"].changes["frames_kept_days"] == "30"
    assert log["changed hosted evaluation settings"].changes == {"hosted_expiry_hours": "12"}
    assert "regional champion" in log["added expert designation"].changes["note"]
