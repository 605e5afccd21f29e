"""A new site's first start in a real browser, at 1280 and 390 px: the home page and a board page that has nothing
to show yet name the phase, the count and the time left, and link to the games meanwhile (test-artifacts/
first-start-*.png)."""
import pytest
from django.core.cache import cache

from tests.factories import load_games, validating_the_default_set

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = {"1280": {"viewport": {"width": 1280, "height": 800}},
         "390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


@pytest.mark.parametrize("width", SIZES)
def test_the_set_up_is_shown_on_every_board_page_until_the_board_opens(site_url, browser, artifacts_dir, width):
    cache.clear()
    load_games()
    total = validating_the_default_set(done=12, seconds_apart=1)
    context = browser.new_context(**SIZES[width])
    try:
        page = context.new_page()
        for name, path in (("home", "/"), ("board-game", "/leaderboard/games/breakout/")):
            page.goto(site_url + path)
            notice = page.locator("#setting-up")
            assert "Checking the tasks: 12 of %d tasks checked" % total in notice.locator("li.now").inner_text()
            assert "left, at the rate measured so far" in notice.inner_text()
            box = notice.bounding_box()
            assert box["y"] < SIZES[width]["viewport"]["height"], "the notice is below the first screen"
            assert page.evaluate("document.documentElement.scrollWidth") <= int(width)
            page.screenshot(path=str(artifacts_dir / f"first-start-{name}-{width}.png"))
        notice.get_by_role("link", name="games").click()
        page.wait_for_url("**/games/")
    finally:
        context.close()
