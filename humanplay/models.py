"""Play sessions of people: every action stored as it is applied; baseline sessions become verified Runs."""
from django.conf import settings
from django.db import models
from django.urls import reverse

from evaluator.models import GENRES, AppliedAction, Game, Run, SiteSettings, Task


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
                                     help_text="For a baseline: novice (first attempt at the game) or expert; "
                                               "blank when it counts as neither.")
    seed = models.PositiveBigIntegerField()
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
