"""Migrating to per-campaign pseudonym salts: every existing campaign gets a random salt of its own."""
from datetime import date

import pytest
from django.db.migrations.executor import MigrationExecutor
from django.db import connection

from tests.hosted.test_hosted_migration import migrate, old_catalogue

BEFORE = [("humanplay", "0007_recorded_attempts_sealed")]


@pytest.mark.django_db(transaction=True)
def test_existing_campaigns_each_get_their_own_random_salt():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    _, task_set = old_catalogue(old)
    Campaign = old.get_model("humanplay", "Campaign")
    made = [Campaign.objects.create(slug=slug, title=slug, task_set=task_set, consent_text="ok",
                                    starts_on=date(2026, 1, 1), ends_on=date(2026, 2, 1)).pk
            for slug in ("winter", "spring")]
    try:
        new = migrate(leaves)
        salts = [new.get_model("humanplay", "Campaign").objects.get(pk=pk).pseudonym_salt for pk in made]
        assert len(set(salts)) == 2 and all(len(salt) == 64 for salt in salts)
    finally:
        migrate(leaves)
