"""Sealed seeds: drawn from the site's secret, committed to, and checked before a sealed run is replayed."""
import pytest
from django.test import override_settings

from sandbox.commitment import commitment
from submissions import verification
from submissions.models import Run, Submission, UploadLimits
from submissions.sealing import SEED_MASK, CommitmentBroken, check_commitment, seal, sealed_seed
from submissions.services import create_submission
from submissions.uploads import parse_upload
from tests.factories import payload, run_entry
from tests.leaderboard.factories import load_games

pytestmark = pytest.mark.django_db


def test_sealed_seeds_are_keyed_by_the_site_secret_and_stay_in_every_backends_range():
    seeds = {sealed_seed(scope="hosted:1", task_id="breakout/rally-5@2", episode=n) for n in (1, 2, 3)}
    assert len(seeds) == 3 and all(0 <= s <= SEED_MASK for s in seeds)
    assert sealed_seed(scope="hosted:1", task_id="breakout/rally-5@2", episode=1) in seeds  # the same on every call
    with override_settings(GAMEWORLD_SEAL_SECRET="another-secret-of-at-least-32-characters"):
        assert sealed_seed(scope="hosted:1", task_id="breakout/rally-5@2", episode=1) not in seeds


def test_a_seal_is_the_sha256_of_seed_and_salt():
    salt, sealed = seal(123456)
    assert len(salt) == 32 and sealed == commitment(123456, salt)
    check_commitment(seed=123456, salt=salt, commitment_hex=sealed, what="run 1")
    with pytest.raises(CommitmentBroken, match="run 1: seed 123457 and salt"):
        check_commitment(seed=123457, salt=salt, commitment_hex=sealed, what="run 1")


def test_a_revealed_seed_that_does_not_match_its_commitment_is_refused_before_any_replay(monkeypatch,
                                                                                         django_capture_on_commit_callbacks):
    load_games()
    entry = run_entry("breakout/rally-5@2")
    parsed = parse_upload(payload([entry]), user=None, limits=UploadLimits.current())
    salt, sealed = seal(entry["seed"])
    with django_capture_on_commit_callbacks():
        submission = create_submission(user=None, parsed=parsed, provenance=Submission.Provenance.SEALED,
                                       commitments={(parsed.runs[0].task.pk, entry["seed"]): (sealed, salt)})
    run = submission.runs.get()
    Run.objects.filter(pk=run.pk).update(seed=entry["seed"] + 1)  # a tampered record: another seed than committed
    monkeypatch.setattr(verification, "run_trajectory", lambda *a, **k: pytest.fail("a broken seal was replayed"))
    verification.verify_run(run_id=run.pk)
    run.refresh_from_db()
    submission.refresh_from_db()
    assert run.status == "failed" and "do not match the commitment" in run.error
    assert submission.status == "rejected" and "do not match the commitment" in submission.reason
