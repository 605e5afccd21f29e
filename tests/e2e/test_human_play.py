"""In a real browser: sign in, open a task, play it with real key presses to the end of the budget, see the
result and the run verified by the server's replay."""
import pytest

from tests.factories import load_games, make_user

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]


def test_play_a_task_with_the_keyboard_until_the_budget_ends(site_url, celery_worker_process, page, artifacts_dir):
    load_games()
    make_user("carol")
    page.goto(site_url + "/accounts/login/?next=/games/runner/")
    page.fill("#id_username", "carol")
    page.fill("#id_password", "pw-carol-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/games/runner/")

    page.locator("tr", has_text="Get past 18 obstacles").get_by_role("link", name="Play").click()
    page.wait_for_url("**/play/runner/clear-18/")
    assert "novice" in page.locator(".muted", has_text="counts as").inner_text()
    page.get_by_role("button", name="Play a recorded attempt").click()
    page.locator("#confirm-novice").wait_for()  # her first contact with the game: confirmed before it starts
    page.get_by_role("button", name="Yes, start my novice run").click()
    page.wait_for_url("**/play/sessions/*/")

    left = page.locator("#actions-left")
    left.filter(has_text="100").wait_for()
    assert page.locator("#frame").evaluate("img => img.complete && img.naturalWidth") == 600
    page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")  # pressed while the first action's frame is on its way: queued, not lost
    page.wait_for_function("document.getElementById('actions-left').textContent === '98'")
    for remaining in range(97, -1, -1):
        page.keyboard.press("Space" if remaining % 4 == 0 else "ArrowDown")
        if remaining == 0:
            break
        page.wait_for_function(f"document.getElementById('actions-left').textContent === '{remaining}'")
        if remaining == 50:
            page.screenshot(path=str(artifacts_dir / "human-play.png"))

    page.locator("#result").wait_for(timeout=30_000)
    assert page.locator(".big-figure").inner_text().startswith(("Target reached", "Target not reached"))
    page.locator("#run-status", has_text="Verified").wait_for(timeout=120_000)  # the page refreshes until then
    assert "Human (novice)" in page.locator("#result").inner_text()
    compare = page.locator("#compare")
    assert "Random key presses reach" in compare.inner_text()
    for name in ("Your run's replay on the leaderboard", "The novice human row your run counts in",
                 "Everyone's results on this task"):
        assert compare.get_by_role("link", name=name).is_visible()
    assert page.locator("#replay-actions li").count() == 100
    assert page.locator("#replay-actions li").nth(3).inner_text() == "press Space"
    page.locator("#replay-step").fill("50")
    assert page.locator("#replay-label").inner_text() == "after action 50 of 100"
    page.screenshot(path=str(artifacts_dir / "human-play-result.png"), full_page=True)


def test_on_a_phone_the_header_fits_and_the_frame_and_the_on_screen_keys_share_the_first_screen(
        site_url, browser, artifacts_dir):
    load_games()
    make_user("dana")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(site_url + "/accounts/login/?next=/play/shop/earn-15/")
        page.fill("#id_username", "dana")
        page.fill("#id_password", "pw-dana-2026!")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url("**/play/shop/earn-15/")
        page.get_by_role("button", name="Practise (not recorded)").click()
        page.wait_for_url("**/play/sessions/*/")
        page.locator("#actions-left").filter(has_text="100").wait_for()

        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page is wider than the phone"
        for name in ("dana", "Sign out"):  # the header's account links are on screen
            box = page.locator(".topbar .user").get_by_text(name).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, f"{name} is off screen"
        frame, pad = page.locator("#frame").bounding_box(), page.locator("#pad").bounding_box()
        assert frame["y"] + frame["height"] <= 844 and pad["y"] + pad["height"] <= 844, (frame, pad)
        assert pad["y"] >= frame["y"] + frame["height"]  # under the frame, not beside it
        assert page.locator(".dpad button").count() == 4 and page.locator(".pad-keys button").inner_text() == "Space"

        page.locator('.dpad button[data-key="ArrowDown"]').tap()  # a tap on the D-pad is one action
        page.wait_for_function("document.getElementById('actions-left').textContent === '99'")
        page.locator('.pad-keys button[data-key="Space"]').tap()
        page.wait_for_function("document.getElementById('actions-left').textContent === '98'")
        page.screenshot(path=str(artifacts_dir / "human-play-phone.png"))
        # Practising again resumes this session instead of opening another.
        session_url = page.url
        page.goto(site_url + "/play/shop/earn-15/")
        page.get_by_role("button", name="Practise (not recorded)").click()
        page.wait_for_url(session_url)
        page.locator("#actions-left").filter(has_text="98").wait_for()
    finally:
        context.close()
