"""Migrating to withdrawable consent keeps existing data valid: volunteers keep their consent, assignments their
state, and a filled or held slot is still refused to a second volunteer."""
from datetime import date, timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.hosted.test_hosted_migration import migrate, old_catalogue

BEFORE = [("humanplay", "0008_campaign_pseudonym_salt")]


@pytest.mark.django_db(transaction=True)
def test_volunteers_keep_their_consent_and_assignments_their_slots():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    task, task_set = old_catalogue(old)
    User = old.get_model("auth", "User")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")
    campaign = old.get_model("humanplay", "Campaign").objects.create(
        slug="winter", title="Winter", task_set=task_set, consent_text="ok", starts_on=date(2026, 1, 1),
        ends_on=date(2026, 2, 1))
    agreed = timezone.now() - timedelta(days=3)
    old.get_model("humanplay", "CampaignMember").objects.create(campaign=campaign, user=ann, consented_at=agreed)
    Assignment = old.get_model("humanplay", "Assignment")
    later = timezone.now() + timedelta(minutes=30)
    done = Assignment.objects.create(campaign=campaign, user=ann, task=task, kind="novice", slot=0, status="done",
                                     held_until=later)
    released = Assignment.objects.create(campaign=campaign, user=ben, task=task, kind="novice", slot=1,
                                         status="released", held_until=later)
    try:
        new = migrate(leaves)
        member = new.get_model("humanplay", "CampaignMember").objects.get(user_id=ann.pk)
        assert (member.consented_at, member.consent_withdrawn_at) == (agreed, None)
        Assignment = new.get_model("humanplay", "Assignment")
        assert {a.pk: a.status for a in Assignment.objects.all()} == {done.pk: "done", released.pk: "released"}
        with pytest.raises(IntegrityError), transaction.atomic():  # slot 0 is filled
            Assignment.objects.create(campaign_id=campaign.pk, user_id=ben.pk, task_id=task.pk, kind="novice", slot=0,
                                      held_until=later)
        Assignment.objects.create(campaign_id=campaign.pk, user_id=ben.pk, task_id=task.pk, kind="novice", slot=1,
                                  held_until=later)  # slot 1 was released: free
    finally:
        migrate(leaves)
