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

    page.locator("tr", has_text="Get past 17 obstacles").get_by_role("link", name="Play").click()
    page.wait_for_url("**/play/runner/clear-17/")
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



def test_a_stroke_on_the_frame_is_a_drag_and_a_tap_is_a_click(site_url, celery_worker_process, page):
    from humanplay.models import PlayAction

    load_games()
    make_user("dora")
    page.goto(site_url + "/accounts/login/?next=/play/minesweeper/clear-2-boards/")
    page.fill("#id_username", "dora")
    page.fill("#id_password", "pw-dora-2026!")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Play a recorded attempt").click()
    page.get_by_role("button", name="Yes, start my novice run").click()
    page.locator("#actions-left").filter(has_text="100").wait_for()

    box = page.locator("#frame").bounding_box()
    scale = box["width"] / 288  # the frame is drawn at the size of the page, the game is 288 x 336

    def at(x, y):
        return box["x"] + (x + 0.5) * scale, box["y"] + (y + 0.5) * scale

    page.mouse.move(*at(40, 100))
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(*at(40 + 30 * k, 100 + 20 * k))
    page.mouse.up()
    page.wait_for_function("document.getElementById('actions-left').textContent === '99'")
    page.mouse.click(*at(150, 200))
    page.wait_for_function("document.getElementById('actions-left').textContent === '98'")
    assert [a.action for a in PlayAction.objects.filter(session__user__username="dora").order_by("index")] == [
        {"type": "drag", "x": 40, "y": 100, "to_x": 190, "to_y": 200}, {"type": "left_click", "x": 150, "y": 200}]
