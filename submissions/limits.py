"""Abuse limits on what costs the site (accounts, tokens, uploads, hosted evaluations, play sessions, guesses at a
campaign's code): django-ratelimit's counters in the shared cache, so that every site process counts alike; the
limits are settings (GAMEWORLD_LIMITS). Sign-in lockout is django-axes' (gameworld_site/signin.py); the agent
sockets one account may have open at once are counted here too, as leases in the same cache."""
import math

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import get_usage

PERIOD_WORDS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
WHAT = {"signup": "accounts may be made from one address", "campaign_code": "wrong sign-up codes may be tried",
        "token": "API tokens may be created", "upload": "submissions may be uploaded",
        "hosted_evaluation": "hosted evaluations may be begun", "play_session": "play sessions may be started"}


class LimitReached(Exception):
    """The limit and when it resets, in words a person (or an agent's log) can act on."""

    def __init__(self, limit, resets_in_s):
        count, period = settings.GAMEWORLD_LIMITS[limit].split("/")
        self.limit, self.retry_after_s = limit, max(1, math.ceil(resets_in_s))
        super().__init__(f"limit reached: {count} {WHAT[limit]} per {PERIOD_WORDS[period]}; it resets in "
                         f"{_duration(self.retry_after_s)}")


def _duration(seconds):
    return f"{seconds} s" if seconds < 120 else f"{math.ceil(seconds / 60)} min"


def _usage(limit, who, *, count):
    return get_usage(None, group=f"gameworld.{limit}", key=lambda group, request: str(who),
                     rate=settings.GAMEWORLD_LIMITS[limit], increment=count)


def charge(limit, *, who):
    """Count one more for `who` (an account's id, or an address); LimitReached once past the limit."""
    usage = _usage(limit, who, count=True)
    if usage is not None and usage["should_limit"]:
        raise LimitReached(limit, usage["time_left"])


def ensure_below(limit, *, who):
    """LimitReached if `who` is already at the limit, without counting (for limits on failures only)."""
    usage = _usage(limit, who, count=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        raise LimitReached(limit, usage["time_left"])


class AgentSocketSlot:
    """One of the GAMEWORLD_MAX_AGENT_SOCKETS places an account has for open agent sockets: a lease in the shared
    cache that the socket renews while it lives (`renew`, every LEASE_S / 3) and gives back when it closes, so a
    place held by a process that died frees itself within LEASE_S."""

    LEASE_S = 60

    def __init__(self, user_id, owner):
        self.user_id, self.owner, self.key = user_id, owner, None

    def take(self):
        """Take a free place, or return False when every place is held."""
        for number in range(settings.GAMEWORLD_MAX_AGENT_SOCKETS):
            key = f"agent-socket:{self.user_id}:{number}"
            if cache.add(key, self.owner, self.LEASE_S) or cache.get(key) == self.owner:
                self.key = key
                return True
        return False

    def renew(self):
        if self.key is not None:
            cache.set(self.key, self.owner, self.LEASE_S)

    def give_back(self):
        if self.key is not None and cache.get(self.key) == self.owner:
            cache.delete(self.key)
        self.key = None

    def refusal(self):
        return (f"limit reached: {settings.GAMEWORLD_MAX_AGENT_SOCKETS} agent sockets may be open at once per account; "
                "close one of yours (a socket that dropped frees its place within "
                f"{self.LEASE_S} s), then connect again")
