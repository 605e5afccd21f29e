"""In a real browser: a maintainer validates a task in the admin, publishes a task set, and finds it on the
leaderboard."""
import pytest
from django.contrib.auth.models import Group, User

from catalogue.models import TaskSet
from catalogue.apps import MAINTAINERS
from tests.factories import load_games, task

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]


def test_validate_a_task_publish_a_task_set_and_see_it_on_the_leaderboard(site_url, celery_worker_process, page,
                                                                           artifacts_dir):
    load_games()
    maya = User.objects.create_user("maya", password="pw-maya-2026!", is_staff=True)
    maya.groups.add(Group.objects.get(name=MAINTAINERS))
    quick = task("breakout/rally-5@2")
    draft = TaskSet.objects.create(slug="sweep-mini", name="Sweep mini")
    draft.tasks.set([quick])

    page.goto(site_url + "/admin/")
    page.fill("#id_username", "maya")
    page.fill("#id_password", "pw-maya-2026!")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Task sets").wait_for()

    page.goto(site_url + "/admin/catalogue/taskset/")
    page.locator(f"input[name=_selected_action][value='{draft.pk}']").check()
    page.select_option("select[name=action]", "publish")
    page.get_by_role("button", name="Go").click()
    assert "cannot be published while tasks fail validation: 1 not validated: breakout/rally-5@2" in \
        page.locator(".messagelist").inner_text()

    page.goto(site_url + "/admin/catalogue/task/?q=rally-5")
    page.locator(f"input[name=_selected_action][value='{quick.pk}']").check()
    page.select_option("select[name=action]", "validate")
    page.get_by_role("button", name="Go").click()
    assert "Validation of 1 task(s) queued" in page.locator(".messagelist").inner_text()
    for _ in range(60):
        page.goto(site_url + f"/admin/catalogue/task/?q=rally-5")
        if "passed" in page.locator("#result_list").inner_text():
            break
        page.wait_for_timeout(1000)
    assert "passed" in page.locator("#result_list").inner_text()
    page.goto(site_url + f"/admin/catalogue/task/{quick.pk}/change/")
    assert page.locator("img[src^='data:image/png']").count() == 1  # the validation's frame
    card = page.locator(".field-calibration_card")
    assert "Random, computer-use" in card.inner_text() and "Scripted solver" in card.inner_text()
    page.screenshot(path=str(artifacts_dir / "admin-validation.png"), full_page=True)

    page.goto(site_url + "/admin/catalogue/taskset/")
    page.locator(f"input[name=_selected_action][value='{draft.pk}']").check()
    page.select_option("select[name=action]", "publish")
    page.get_by_role("button", name="Go").click()
    assert "Sweep mini: published." in page.locator(".messagelist").inner_text()

    page.goto(site_url + "/admin/catalogue/auditentry/")
    log = page.locator("#result_list").inner_text()
    assert "validated task" in log and "published task set" in log

    page.goto(site_url + "/?ts=sweep-mini")
    assert "Sweep mini" in page.locator("main").inner_text()
    page.screenshot(path=str(artifacts_dir / "leaderboard-published-task-set.png"))
