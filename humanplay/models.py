"""Play sessions of people: every action stored as it is applied; baseline sessions become verified Runs."""
import hashlib
import hmac
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from catalogue.models import GENRES, Game, SiteSettings, Task
from hosted.models import AppliedAction
from submissions.models import Run


class PlayerProfile(models.Model):
    class Experience(models.TextChoices):
        NEW = "new", "New to video games"
        CASUAL = "casual", "Play now and then"
        REGULAR = "regular", "Play every week"
        SEASONED = "seasoned", "Seasoned or competitive player"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_profile")
    experience = models.CharField(max_length=10, choices=Experience.choices, blank=True,
                                  help_text="Self-declared; shown beside your runs, never used to rank them.")
    about = models.CharField(max_length=200, blank=True)

    def __str__(self):
        return f"{self.user.username} ({self.get_experience_display() or 'experience not given'})"


class HumanPlaySettings(SiteSettings):
    """The maintainers' knobs for human play."""

    session_expiry_minutes = models.PositiveIntegerField(
        default=30, help_text="An unfinished session with no action for this long expires.")
    practice_sessions_for_expert = models.PositiveIntegerField(
        default=5, help_text="Finished practice sessions on a game after which a player's baseline runs on "
                             "that game count as expert.")
    frames_kept_days = models.PositiveIntegerField(
        default=90, help_text="The frames a player saw (their step-by-step replay at the end) are deleted this "
                              "many days after the session ended; a baseline run stays replayable from the "
                              "leaderboard, which renders its frames again.")

    class Meta:
        verbose_name = verbose_name_plural = "human play settings"


class ExpertDesignation(models.Model):
    """A maintainer marks a player expert for one game or a whole genre, from a date."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="expert_designations")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE)
    genre = models.CharField(max_length=20, choices=GENRES, blank=True)
    since = models.DateField(help_text="Baseline sessions started on or after this date count as expert.")
    note = models.CharField(max_length=200, blank=True)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        constraints = [models.CheckConstraint(
            condition=(models.Q(game__isnull=False, genre="") | models.Q(game__isnull=True) & ~models.Q(genre="")),
            name="expert_for_a_game_or_a_genre")]

    def __str__(self):
        scope = self.game.title if self.game_id else f"all {self.get_genre_display()} games"
        return f"{self.user.username}: expert in {scope} since {self.since}"


class PlaySession(models.Model):
    class Mode(models.TextChoices):
        PRACTICE = "practice", "Practice"
        BASELINE = "baseline", "Recorded baseline"

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        EXPIRED = "expired", "Expired"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_sessions")
    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="play_sessions")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    baseline_kind = models.CharField(max_length=10, choices=Run.Kind.choices, blank=True,
                                     help_text="For a baseline: novice (first contact with the game) or expert; "
                                               "blank when it counts as neither.")
    seed = models.PositiveBigIntegerField(help_text="Practice: a public seed of the task; a recorded attempt: a seed "
                                                    "drawn by the server, committed to and revealed on its run.")
    commitment = models.CharField(max_length=64, blank=True, help_text="A recorded attempt's commitment to its seed.")
    salt = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    progress = models.FloatField(null=True, blank=True, help_text="The sandbox's figure at the end of play.")
    success = models.BooleanField(null=True, blank=True)
    run = models.OneToOneField(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="play_session")
    created = models.DateTimeField(auto_now_add=True)
    last_action_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.user.username} on {self.task.task_id} ({self.get_mode_display()}) #{self.pk}"

    def get_absolute_url(self):
        return reverse("humanplay:session", args=[self.pk])

    def action_list(self):
        return PlayAction.log(self.pk)


class PlayAction(AppliedAction):
    """One applied action of a play session."""

    log_of = "session"
    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="actions")

    class Meta(AppliedAction.Meta):
        constraints = [models.UniqueConstraint(fields=["session", "index"], name="one_action_per_step")]


class BaselineCoverage(Task):
    """A view of tasks for the admin: how many novice and expert baseline runs each has."""

    class Meta:
        proxy = True
        verbose_name = verbose_name_plural = "baseline coverage"


# Campaigns: a planned protocol for human baselines. A maintainer opens one for a task set with how many
# novice and expert runs each task needs; volunteers join and are given, one at a time, the task that most
# needs a run they can give. An assignment holds one slot (task, kind, slot number) while the volunteer plays.

def new_pseudonym_salt():
    """A campaign's own random key for its pseudonyms: 256 bits, so no one can compute a user id's pseudonym."""
    return secrets.token_hex(32)


class Campaign(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True,
                                   help_text="Shown on the campaign page: who it is for, how long a task takes.")
    task_set = models.ForeignKey("catalogue.TaskSet", on_delete=models.PROTECT, related_name="campaigns")
    novice_runs_per_task = models.PositiveSmallIntegerField(
        default=3, validators=[MaxValueValidator(50)],
        help_text="Novice runs each task needs (a novice run is a player's first recorded attempt at the game, "
                  "before any practice of it).")
    expert_runs_per_task = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(50)],
        help_text="Expert runs each task needs (players marked expert for the game or genre, or past the practice "
                  "threshold).")
    rounds = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="How many times each volunteer plays each task they take, one round after another (1: a baseline "
                  "campaign). With more, round 0 is their baseline run and the later rounds, recorded as learning "
                  "runs (never pooled into the novice or expert figures), draw people's learning curve beside the "
                  "agents' on a rounds board.")
    signup_code = models.CharField(max_length=40, blank=True,
                                   help_text="Optional: volunteers type it to join (e.g. given out in a lab session).")
    consent_text = models.TextField(help_text="Shown, and agreed to, before a volunteer's first recorded attempt.")
    starts_on = models.DateField(help_text="First day volunteers can join and play.")
    ends_on = models.DateField(help_text="Last day volunteers can play (inclusive).")
    hold_minutes = models.PositiveIntegerField(
        default=30, validators=[MinValueValidator(1), MaxValueValidator(24 * 60)],
        help_text="An assignment holds its task this long; with no action for this long it is released to others.")
    created = models.DateTimeField(auto_now_add=True)
    pseudonym_salt = models.CharField(max_length=64, default=new_pseudonym_salt, editable=False,
                                      help_text="Keys the volunteers' pseudonyms; never shown.")

    class Meta:
        ordering = ["-starts_on", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("humanplay:campaign", args=[self.slug])

    def clean(self):
        errors = {}
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            errors["ends_on"] = "The campaign must end on or after the day it starts."
        if self.novice_runs_per_task == 0 and self.expert_runs_per_task == 0:
            errors["novice_runs_per_task"] = "A campaign needs at least one novice or expert run per task."
        if self.consent_text is not None and not self.consent_text.strip():
            errors["consent_text"] = "Write the consent text volunteers agree to before their first recorded attempt."
        if errors:
            raise ValidationError(errors)

    def needed(self, kind):
        return {Run.Kind.NOVICE: self.novice_runs_per_task, Run.Kind.EXPERT: self.expert_runs_per_task}[kind]

    def kinds(self):
        return [kind for kind in (Run.Kind.NOVICE, Run.Kind.EXPERT) if self.needed(kind)]

    def is_open(self, today=None):
        today = today or timezone.localdate()
        return self.starts_on <= today <= self.ends_on

    def state(self, today=None):
        today = today or timezone.localdate()
        return "upcoming" if today < self.starts_on else "ended" if today > self.ends_on else "open"


class CampaignMember(models.Model):
    """A volunteer who joined a campaign: when they agreed to the consent text (and whether they withdrew it since),
    and whether exports name them."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships")
    joined_at = models.DateTimeField(auto_now_add=True)
    consented_at = models.DateTimeField(null=True, blank=True)
    consent_withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="When the volunteer withdrew their consent: the campaign gives them no task "
                                         "until they agree to it again.")
    show_name = models.BooleanField(default=False, help_text="The volunteer opted in to be named (not pseudonymous) "
                                                             "on the campaign page and in its exports.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="join_a_campaign_once")]

    def __str__(self):
        return f"{self.user.username} in {self.campaign}"

    @property
    def has_consent(self):
        return self.consented_at is not None and self.consent_withdrawn_at is None

    @property
    def pseudonym(self):
        return pseudonym(campaign=self.campaign, user_id=self.user_id)

    @property
    def public_name(self):
        return self.user.username if self.show_name else self.pseudonym


def pseudonym(*, campaign, user_id):
    """A stable name for a volunteer in one campaign that says nothing of who they are (keyed by the campaign's
    salt, which never leaves the server, so it cannot be computed from user ids)."""
    digest = hmac.new(campaign.pseudonym_salt.encode(), f"user:{user_id}".encode(), hashlib.sha256).hexdigest()
    return f"volunteer-{digest[:6]}"


# Held and done assignments take their slot; released and withdrawn ones leave it to another volunteer.
TAKES_A_SLOT = models.Q(status__in=["held", "done"])


class Assignment(models.Model):
    """A slot of a campaign (task, kind, slot number) held by one volunteer, then done (a run) or released; a done
    one is withdrawn when its volunteer takes their runs out of the campaign (the run stays stored)."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        DONE = "done", "Done"
        RELEASED = "released", "Released"
        WITHDRAWN = "withdrawn", "Withdrawn by the volunteer"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_assignments")
    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="campaign_assignments")
    kind = models.CharField(max_length=10,
                            choices=[(Run.Kind.NOVICE.value, "Novice"), (Run.Kind.EXPERT.value, "Expert")])
    slot = models.PositiveSmallIntegerField(help_text="Which of the task's needed runs of this kind (0-based).")
    round = models.PositiveSmallIntegerField(default=0, help_text="Which of the campaign's rounds of this slot "
                                                                  "(0-based): later rounds are the same volunteer's.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD, db_index=True)
    held_until = models.DateTimeField()
    session = models.OneToOneField(PlaySession, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="assignment")
    run = models.OneToOneField(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="assignment")
    created = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    release_reason = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            # Two volunteers never hold (or fill) the same slot: the database refuses the second.
            models.UniqueConstraint(fields=["campaign", "task", "kind", "slot", "round"], condition=TAKES_A_SLOT,
                                    name="one_volunteer_per_slot_round"),
            # One task at a time per volunteer and campaign.
            models.UniqueConstraint(fields=["campaign", "user"], condition=models.Q(status="held"),
                                    name="one_held_assignment_per_volunteer"),
            # Never the same task twice for the same kind of run.
            models.UniqueConstraint(fields=["campaign", "user", "task", "kind", "round"], condition=TAKES_A_SLOT,
                                    name="one_run_per_task_kind_and_round"),
        ]

    def __str__(self):
        round_ = f", round {self.round}" if self.round else ""
        return f"{self.user.username}: {self.task.task_id} ({self.kind}, slot {self.slot + 1}{round_}) {self.status}"

    @property
    def run_kind(self):
        """The kind of run its recorded attempt gives: the slot's for round 0, a learning run after."""
        return self.kind if self.round == 0 else Run.Kind.LEARNING.value

    def get_absolute_url(self):
        return reverse("humanplay:assignment", args=[self.campaign.slug, self.pk])
