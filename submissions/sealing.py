"""Sealed seeds: drawn by the server for each episode of a sealed evaluation from the site's secret
(settings.GAMEWORLD_SEAL_SECRET), so that nobody can prepare actions for them in advance. The episode is
opened with a commitment to its seed (sandbox/commitment.py); seed and salt are revealed on submission."""
import hashlib
import hmac

from django.conf import settings

from sandbox.commitment import commitment, commitment_holds, new_salt

# Below 2**31: the range the sandbox derives attempt seeds in, which every backend accepts (the browser's
# generator takes 32 bits, a Game Boy game the low bytes) and every database's bigint column holds.
SEED_MASK = 0x7FFFFFFF


class CommitmentBroken(ValueError):
    """A revealed seed and salt that do not match the commitment the episode was opened with."""


def sealed_seed(*, scope, task_id, episode):
    """The seed of episode `episode` of `task_id` in `scope` ("hosted:<evaluation id>", say): an HMAC-SHA256
    keyed by the site's secret, the same on every process and restart, unguessable without the secret."""
    message = f"{scope}|{task_id}|{episode}".encode()
    digest = hmac.new(settings.GAMEWORLD_SEAL_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK


def seal(seed):
    """(salt, commitment) for a seed just drawn."""
    salt = new_salt()
    return salt, commitment(seed, salt)


def check_commitment(*, seed, salt, commitment_hex, what):
    """Raise CommitmentBroken, naming `what`, unless the revealed seed and salt match the commitment."""
    if not commitment_holds(seed=seed, salt=salt, commitment_hex=commitment_hex):
        raise CommitmentBroken(f"{what}: seed {seed} and salt {salt!r} do not match the commitment "
                               f"{commitment_hex} the episode was opened with")
