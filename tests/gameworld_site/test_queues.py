"""The site's Celery queues, served by its two workers as `runsite` starts them: work a person waits for (here, a
human's recorded run) is verified while background work (the default set's checks) is still going on."""
import time

import pytest

from catalogue import curation
from catalogue.bundle_loading import DEFAULT_TASK_SET, load_bundles
from catalogue.models import TaskSet, TaskValidation
from catalogue.tasks import publish_default_task_set
from submissions import verification
from submissions.models import Run
from tests.factories import make_user, task

pytestmark = [pytest.mark.slow, pytest.mark.real_broker, pytest.mark.django_db(transaction=True)]

CHECKED_TASKS = 12  # of the default set: a check takes a second or two, so that this is a window of some seconds


@pytest.fixture
def sending_to_the_workers(monkeypatch):
    """This process's messages go to the broker of the site's worker processes (see `server_env`)."""
    from celery import current_app

    from tests.conftest import server_env

    monkeypatch.setattr(current_app.conf, "broker_url", server_env()["CELERY_BROKER_URL"])
    monkeypatch.setattr(current_app, "_pool", None)  # made again, for that broker, at the first message


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def test_a_human_run_is_verified_while_the_default_set_is_being_checked(celery_worker_process, sending_to_the_workers):
    assert not load_bundles(capture_frames=False, publish_default=False).errors  # a new site's first start
    draft = TaskSet.objects.get(slug=DEFAULT_TASK_SET[0], status=TaskSet.Status.DRAFT)
    draft.tasks.set(draft.tasks.order_by("game__slug", "target")[:CHECKED_TASKS])
    publish_default_task_set.delay(draft.pk)
    wait_until(lambda: TaskValidation.objects.exists(), 120, "the first check")

    played = task("shop/earn-15@1")
    run = Run.objects.create(kind=Run.Kind.NOVICE, player=make_user("dana"), task=played, seed=played.reference["seed"],
                             actions=played.reference["actions"])
    ended = time.monotonic()
    verification.queue_run(run_id=run.pk)
    wait_until(lambda: Run.objects.get(pk=run.pk).status == Run.Status.VERIFIED, 120, "the human run's verification")
    waited = time.monotonic() - ended
    unchecked = len(curation.unchecked_tasks(draft))
    print(f"human run verified {waited:.1f} s after it ended, with {unchecked} of {CHECKED_TASKS} tasks still to check")
    assert unchecked > 0, "the human run waited for every background check"
    assert Run.objects.get(pk=run.pk).success

    # The checks go on and the set is published: nothing of this test is left on the background queue.
    wait_until(lambda: TaskSet.objects.get(pk=draft.pk).status == TaskSet.Status.PUBLISHED, 300, "the publication")
