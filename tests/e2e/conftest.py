"""Fixtures of the browser tests."""
import pytest


@pytest.fixture(scope="package")
def browser():
    """The one Chromium shared by the browser tests: Debian's full browser, as people use (the games themselves
    run in the sandbox's headless shell, on the server). Scoped to this package: Playwright's sync API keeps an
    event loop running on the test thread until it stops, and tests of async code in other packages need that
    thread free of one."""
    from playwright.sync_api import sync_playwright

    from sandbox.backends.browser import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    yield context.new_page()
    context.close()
