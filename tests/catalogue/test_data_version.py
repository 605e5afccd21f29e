"""The data version: a number that grows with every committed write of data the pages show, whoever writes it."""
import sqlite3
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, transaction

from catalogue import data_version
from catalogue.models import TaskSet
from leaderboard.models import BoardSettings, ReplayRender
from submissions.models import ApiToken, Run
from tests.factories import task
from tests.leaderboard.factories import build_run, mini_task_set, run, submission

pytestmark = pytest.mark.django_db

T1, T2 = "breakout/rally-5@2", "runner/clear-6@1"


def moved_by(write):
    before = data_version.current()
    write()
    return data_version.current() > before


def test_every_way_of_writing_what_the_pages_show_moves_it():
    ts = mini_task_set([T1, T2])
    sub = submission(ts, "Alpha")
    writes = {
        "a model saved": lambda: run(sub, T1, 0.5),
        "QuerySet.update, as verification stores its figures": lambda: Run.objects.filter(submission=sub).update(
            progress=1.0),
        "bulk_create, as an upload stores its runs": lambda: Run.objects.bulk_create([build_run(sub, T2, 0.3)]),
        "a delete": lambda: Run.objects.filter(submission=sub, task=task(T2)).delete(),
        "a task set's tasks": lambda: ts.tasks.remove(task(T2)),
        "a task set published": lambda: TaskSet.objects.filter(pk=ts.pk).update(status=TaskSet.Status.RETIRED),
        "the board's settings": lambda: BoardSettings.objects.update_or_create(pk=1, defaults={
            "human_min_coverage": 80}),
    }
    assert [what for what, write in writes.items() if not moved_by(write)] == []


def test_writes_the_pages_do_not_show_leave_it():
    ts = mini_task_set([T1])
    verified = run(submission(ts, "Alpha"), T1, 1.0)
    user = User.objects.create_user("ines")
    assert not moved_by(lambda: ApiToken.issue(user=user, name="ci"))
    assert not moved_by(lambda: ReplayRender.objects.create(run=verified, trace_sha256="0" * 64, total=2))


def test_a_write_rolled_back_leaves_it():
    ts = mini_task_set([T1])

    def rolled_back():
        with transaction.atomic():
            submission(ts, "Alpha")
            transaction.set_rollback(True)
    assert not moved_by(rolled_back)


def test_it_only_grows_also_from_the_older_number_a_restored_backup_holds():
    ts = mini_task_set([T1])
    newest = data_version.current()
    time.sleep(0.002)  # a backup is restored later than the newest number was made (SQLite's clock counts in ms)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {data_version.TABLE} SET number = 1")
    submission(ts, "Alpha")
    assert data_version.current() > newest


@pytest.mark.django_db(transaction=True)
def test_a_write_by_another_process_moves_it_and_migrate_remakes_triggers_a_table_rebuild_dropped():
    ts = mini_task_set([T1])
    with connection.cursor() as cursor:  # what Django's SQLite schema editor does to a table it rebuilds
        cursor.execute(f'DROP TRIGGER "{data_version.TABLE}_catalogue_taskset_update"')
    call_command("migrate", verbosity=0)
    before = data_version.current()
    other = sqlite3.connect(connection.settings_dict["NAME"])  # a worker, or SQL typed by hand
    with other:
        other.execute("UPDATE catalogue_taskset SET name = 'Renamed' WHERE id = ?", [ts.pk])
    other.close()
    assert data_version.current() > before
