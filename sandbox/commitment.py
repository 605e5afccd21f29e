"""Seed commitments of sealed episodes: the site draws a secret seed, shows only its commitment while the
episode is played, and reveals seed and salt once the evaluation is submitted, so that anyone can check
that the run was played at the seed committed to before the first frame.

    commitment = sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()

`seed` in decimal, `salt` the 32 lowercase hex digits of 16 random bytes. Plain Python: the site checks it
before a replay, an agent's client after the reveal.
"""
import hashlib
import hmac
import secrets

SALT_BYTES = 16


def new_salt():
    return secrets.token_hex(SALT_BYTES)


def commitment(seed, salt):
    """The hex sha256 of the exact byte string `f"{seed}:{salt}"` (ASCII)."""
    return hashlib.sha256(f"{int(seed)}:{salt}".encode("ascii")).hexdigest()


def commitment_holds(*, seed, salt, commitment_hex):
    """Whether a revealed seed and salt match the commitment shown before the episode was played."""
    try:
        expected = commitment(seed, salt)
    except (TypeError, ValueError, UnicodeEncodeError):
        return False
    return hmac.compare_digest(expected, str(commitment_hex))
