"""Registering a Game Boy ROM in the admin: bad files refused with the reason, the file kept privately and
pinned by sha256, RAM fields and tasks declared and checked like a manifest, a start state captured from
a list of actions, and the tasks run by the sandbox. Our own homebrew snake ROM stands in for a
maintainer's legal copy."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalogue.models import RegisteredRom
from catalogue.roms import write_rom_bundle
from sandbox import make, registry
from sandbox.backends.gameboy.rom import sha256

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/catalogue/registeredrom/add/"
SNAKE = registry.game("snake")
SNAKE_ROM = (SNAKE.bundle_dir / "snake.gb").read_bytes()
APPLES_3 = SNAKE.tasks["apples-3"]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    return settings.DATA_DIR


def declarations(**changes):
    section = SNAKE.manifest["gameboy"]
    fields = {name: spec for name, spec in section["fields"].items() if "screen" not in spec}
    form = {
        "title": "Pocket Snake (registered)", "slug": "pocket-snake", "version": "1.0.0", "genre": "arcade",
        "level": "2", "description": "", "provenance": "Our own homebrew build, standing in for a dumped cartridge.",
        "keys": json.dumps(["up", "down", "left", "right"]), "semantic_actions": "[]",
        "fields": json.dumps(fields),
        "state_fields": json.dumps({"score": "Apples eaten.", "length": "Snake length."}),
        "rules": json.dumps({k: section[k] for k in ("status", "actionable", "terminal")}),
        "seed": json.dumps(section["seed"]), "press_frames": "5", "release_frames": "14",
        "tasks": json.dumps([{"slug": "apples-3", "title": "Eat three apples", "instruction": APPLES_3.instruction,
                              "score_field": "score", "target": 3, "reference": APPLES_3.reference.to_dict(),
                              "null": APPLES_3.null.to_dict()}]),
        "boot_frames": "120", "start_actions": "[]",
    }
    form.update(changes)
    return form


def upload(client, data, name="game.gb", **changes):
    return client.post(ADD_URL, {**declarations(**changes), "rom_file": SimpleUploadedFile(name, data)})


def errors_of(response):
    return response.context["adminform"].form.errors if response.status_code == 200 else {}


@pytest.mark.parametrize("data, message", [
    (b"not a rom at all", "too small to hold the cartridge header"),
    (b"\x00" * 32768, "lacks the logo every Game Boy cartridge carries"),
    (SNAKE_ROM[:20000], "has the wrong size: its header declares 32768 bytes"),
    (SNAKE_ROM[:0x4000] + bytes([SNAKE_ROM[0x4000] ^ 1]) + SNAKE_ROM[0x4001:], "is corrupt: its global checksum"),
])
def test_bad_rom_files_are_refused_with_the_reason(admin_client, data_dir, data, message):
    response = upload(admin_client, data, name="upload.gb")
    assert response.status_code == 200
    assert message in " ".join(errors_of(response)["rom_file"])
    assert "upload.gb" in " ".join(errors_of(response)["rom_file"])
    assert not RegisteredRom.objects.exists() and not (data_dir / "roms").exists()


def test_a_rom_file_is_required(admin_client):
    response = admin_client.post(ADD_URL, declarations())
    assert "Choose the ROM file" in " ".join(errors_of(response)["rom_file"])


def test_a_registered_rom_is_pinned_and_stored_privately(admin_client, data_dir, settings, client):
    response = upload(admin_client, SNAKE_ROM)
    assert response.status_code == 302, errors_of(response)
    rom = RegisteredRom.objects.get()
    assert rom.sha256 == sha256(SNAKE_ROM) and rom.size == 32768 and rom.cartridge == "ROM only"
    assert rom.header_title == "SNAKE" and rom.uploaded_by.is_superuser
    assert rom.rom_path == data_dir / "roms" / f"{rom.sha256}.gb" and rom.rom_path.read_bytes() == SNAKE_ROM
    assert rom.rom_path.stat().st_mode & 0o077 == 0
    assert not rom.rom_path.is_relative_to(settings.STATIC_ROOT)
    assert not getattr(settings, "MEDIA_ROOT", "") or not rom.rom_path.is_relative_to(settings.MEDIA_ROOT)
    page = admin_client.get(f"/admin/catalogue/registeredrom/{rom.pk}/change/").content.decode()
    assert rom.sha256 in page and "never served" in page
    assert 'href="' not in page.split(rom.sha256, 1)[1].split("</div>", 1)[0]  # no link to the file
    for url in (f"/static/roms/{rom.sha256}.gb", f"/roms/{rom.sha256}.gb", f"/data/roms/{rom.sha256}.gb"):
        assert client.get(url).status_code == 404


def test_the_same_rom_cannot_be_registered_twice(admin_client):
    assert upload(admin_client, SNAKE_ROM).status_code == 302
    response = upload(admin_client, SNAKE_ROM, slug="snake-again")
    assert "already registered as “Pocket Snake (registered)”" in " ".join(errors_of(response)["rom_file"])


@pytest.mark.parametrize("changes, field, message", [
    ({"fields": json.dumps({"score": {"address": "0xZZ"}})}, "fields", "gameboy.fields.score.address"),
    ({"state_fields": json.dumps({"score": "x", "lives": "Lives."})}, "state_fields", "not one of gameboy.fields"),
    ({"keys": json.dumps(["up", "Space"])}, "keys", "not a Game Boy button"),
    ({"rules": json.dumps({"actionable": {"field": "nope", "eq": 1}})}, "rules", "not a declared field"),
    ({"tasks": json.dumps([{"slug": "x", "title": "X", "instruction": "Reach a score of 3 apples.",
                            "score_field": "lives", "target": 3}])}, "tasks", "not a state field"),
    ({"slug": "breakout"}, "slug", "the slug of a bundled game"),
])
def test_declarations_are_checked_like_a_manifest(admin_client, changes, field, message):
    response = upload(admin_client, SNAKE_ROM, **changes)
    assert response.status_code == 200
    assert message in " ".join(errors_of(response)[field]), errors_of(response)
    assert not RegisteredRom.objects.exists()


def test_start_state_capture_and_task_check_from_the_admin(admin_client):
    assert upload(admin_client, SNAKE_ROM).status_code == 302
    rom = RegisteredRom.objects.get()
    changelist = "/admin/catalogue/registeredrom/"
    response = admin_client.post(changelist, {"action": "capture_start_state", "_selected_action": [rom.pk]},
                                 follow=True)
    assert "start state captured after 120 frames" in response.content.decode()
    rom.refresh_from_db()
    assert rom.start_state and len(rom.start_state_sha256) == 64
    response = admin_client.post(changelist, {"action": "check_tasks", "_selected_action": [rom.pk]}, follow=True)
    page = response.content.decode()
    assert "ok pocket-snake/apples-3@1 reference" in page and "ok pocket-snake/apples-3@1 null" in page


def test_a_registered_rom_runs_in_the_sandbox_like_a_bundle(admin_client):
    assert upload(admin_client, SNAKE_ROM).status_code == 302
    rom = RegisteredRom.objects.get()
    admin_client.post("/admin/catalogue/registeredrom/", {"action": "capture_start_state",
                                                          "_selected_action": [rom.pk]})
    rom.refresh_from_db()
    game = write_rom_bundle(rom=rom)
    with make(game.tasks["apples-3"], observation="state") as env:
        state, _ = env.reset(seed=1)
        assert state["status"] == "playing" and state["score"] == 0
        for action in APPLES_3.reference.actions:
            state, info = env.step(action)
        assert info["success"]


def test_the_add_page_offers_a_template(admin_client):
    page = admin_client.get(ADD_URL).content.decode()
    assert 'type="file" name="rom_file"' in page and "your own legal copy" in page
    assert "&quot;select&quot;" in page  # the eight buttons, offered as the default keys


def test_a_registered_rom_joins_the_library_and_verifies_like_any_game(admin_client, client):
    from catalogue.models import Game, Task
    from submissions import services, verification
    from submissions.models import UploadLimits
    from submissions.uploads import parse_upload
    from tests.factories import make_user, payload

    assert upload(admin_client, SNAKE_ROM).status_code == 302
    rom = RegisteredRom.objects.get()
    changelist = "/admin/catalogue/registeredrom/"
    admin_client.post(changelist, {"action": "capture_start_state", "_selected_action": [rom.pk]})
    response = admin_client.post(changelist, {"action": "add_to_library", "_selected_action": [rom.pk]}, follow=True)
    said = " ".join(str(message) for message in response.context["messages"])
    assert "pocket-snake: in the library as Pocket Snake (registered) 1.0.0 with 1 task(s)" in said
    game = Game.objects.get(slug="pocket-snake")
    assert game.frame_png and game.backend == "gameboy"
    assert client.get("/games/pocket-snake/").status_code == 200
    assert b"pocket-snake" not in client.get("/games/pocket-snake/frame.png").content  # a frame, never the ROM
    task = Task.objects.get(game=game, slug="apples-3")
    from catalogue.models import TaskSet

    extra = TaskSet.objects.create(slug="roms", name="ROMs", status="published")
    extra.tasks.set([task])
    parsed = parse_upload(payload([{"task": "pocket-snake/apples-3@1", "seed": 1,
                                    "actions": APPLES_3.reference.actions}], task_set="roms"),
                          user=make_user(), limits=UploadLimits.current())
    submission = services.create_submission(user=make_user(), parsed=parsed)
    verification.verify_run(run_id=submission.runs.get().pk)
    run = submission.runs.get()
    assert run.status == "verified" and run.success is True
