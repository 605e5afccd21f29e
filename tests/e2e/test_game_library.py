"""In a real browser: the game library lists every bundled game with a frame captured by the sandbox."""
import pytest

from catalogue.bundle_loading import load_bundles
from sandbox import registry

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_library_shows_every_game_with_its_frame(site_url, page, artifacts_dir):
    report = load_bundles(capture_frames=True)
    assert not report.errors, report.errors
    page.goto(site_url + "/games/")
    assert page.locator("header.topbar").evaluate("e => getComputedStyle(e).display") == "flex"  # styled
    cards = page.locator("article.card")
    assert cards.count() == len(registry.slugs())
    for game in registry.games():
        card = cards.filter(has_text=game.title)
        image = card.locator("img.frame")
        image.scroll_into_view_if_needed()  # the frames load lazily: one below the fold has not been asked for
        image.evaluate("img => img.complete || new Promise(loaded => img.addEventListener('load', loaded))")
        assert image.evaluate("img => img.naturalWidth") == game.viewport["width"]
        assert card.locator(".task-list li").count() == len(game.tasks)
    page.screenshot(path=str(artifacts_dir / "game-library.png"), full_page=True)

    first = registry.games()[0]
    page.get_by_role("link", name=first.title).first.click()
    page.wait_for_url(f"**/games/{first.slug}/")
    assert page.locator("table.data tbody tr").first.is_visible()
    first_task = next(iter(first.tasks.values()))
    assert page.locator("table.data").get_by_role("link", name=first_task.title, exact=True).is_visible()
    assert first_task.instruction.split(". ")[-1].rstrip(".") in page.locator("main").inner_text()
