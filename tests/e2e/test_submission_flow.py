"""In a real browser against Daphne and a Celery worker: sign in, create a token, upload, watch it verify."""
import json

import pytest

from tests.factories import SHORT_TASKS, as_computer_use, load_games, make_user, run_entry

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]


def test_sign_in_create_a_token_upload_and_watch_verification(site_url, celery_worker_process, page, tmp_path,
                                                              artifacts_dir):
    load_games()
    make_user("bob")
    tampered = run_entry("breakout/rally-5@2", trajectory="null")  # claims a success it never had
    runs = [as_computer_use(run_entry(t)) for t in SHORT_TASKS if t != "breakout/rally-5@2"] + [tampered]
    upload = tmp_path / "results.json"
    upload.write_text(json.dumps({
        "format": "gameworld.submission/1", "protocol": "paused", "task_set": "core-v15",
        "agent": {"name": "browser-test-agent", "model": "scripted-v1", "org": "GameWorld", "interface": "cua"},
        "runs": runs}))

    page.goto(site_url + "/account/")
    page.wait_for_url("**/accounts/login/**")
    page.fill("#id_username", "bob")
    page.fill("#id_password", "pw-bob-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/account/")

    page.fill("#id_name", "my laptop")
    page.get_by_role("button", name="Create token").click()
    assert page.locator("#new-key").inner_text().startswith("gw_")
    assert page.get_by_role("cell", name="my laptop").is_visible()

    page.get_by_role("link", name="Submit", exact=True).click()
    page.set_input_files("#id_file", str(upload))
    page.get_by_role("button", name="Upload and verify").click()
    page.wait_for_url("**/submissions/*/")
    page.evaluate("window.__sameDocument = true")  # progress must arrive without a reload

    status = page.locator("#status")
    status.filter(has_text="Verified").wait_for(timeout=120_000)
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator("#count").inner_text() == f"{len(runs)} of {len(runs)} runs replayed"
    assert page.locator(".progress").get_attribute("aria-valuenow") == str(len(runs))
    rows = page.locator("#runs tbody tr")
    assert rows.count() == len(runs)
    flagged = page.locator("#runs tbody tr.mismatch")
    assert flagged.count() == 1 and "breakout/rally-5@2" in flagged.inner_text()
    assert "claim differs" in flagged.inner_text()
    assert page.locator("#mismatches").inner_text() == "· 1 claim differs from the replay"
    page.screenshot(path=str(artifacts_dir / "submission-verified.png"), full_page=True)
