"""Play sessions of people: every action stored as it is applied; baseline sessions become verified Runs."""
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from evaluator.models import GENRES, Game, Run, SiteSettings, Task


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
    hosted_expiry_hours = models.PositiveIntegerField(
        default=24, help_text="An open hosted agent evaluation with no activity for this long expires: its "
                              "episodes are kept, but it can no longer be played or submitted.")

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
        return list(self.actions.order_by("index").values_list("action", flat=True))


class PlayAction(models.Model):
    """One applied action. (session, index) is unique: a resumed session can never count one twice."""

    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.JSONField()
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["session", "index"], name="one_action_per_step")]


class BaselineCoverage(Task):
    """A view of tasks for the admin: how many novice and expert baseline runs each has."""

    class Meta:
        proxy = True
        verbose_name = verbose_name_plural = "baseline coverage"


class HostedEvaluation(models.Model):
    """An agent evaluated live on the site over the agent socket: its episodes become one Submission.

    The agent's client opens it (agent fields, task set, protocol), plays episodes (task + seed), every
    action stored as it is applied, then submits: the submission is created from the stored actions through
    the same checks as an upload and verified by the same replay on a worker."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        SUBMITTED = "submitted", "Submitted"
        EXPIRED = "expired", "Expired"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_evaluations")
    task_set = models.ForeignKey("evaluator.TaskSet", on_delete=models.PROTECT, related_name="hosted_evaluations")
    protocol = models.CharField(max_length=12, default="paused")
    agent = models.JSONField(help_text="The agent block of the submission it becomes (name, model, interface, ...).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    submission = models.OneToOneField("evaluator.Submission", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="hosted_evaluation")
    created = models.DateTimeField(auto_now_add=True)
    last_active_at = models.DateTimeField(default=timezone.now, help_text="Its last begin, reset or action.")
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.agent.get('name', '?')} by {self.user.username} ({self.protocol}) #{self.pk}"


class HostedEpisode(models.Model):
    """One run of a hosted evaluation: a task at a seed, played once (a dropped connection resumes it)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    evaluation = models.ForeignKey(HostedEvaluation, on_delete=models.CASCADE, related_name="episodes")
    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="hosted_episodes")
    seed = models.PositiveBigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    progress = models.FloatField(null=True, blank=True, help_text="The live sandbox's figure at the end.")
    success = models.BooleanField(null=True, blank=True)
    trace_sha256 = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_action_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["evaluation", "task", "seed"], name="one_episode_per_task_seed")]

    def __str__(self):
        return f"{self.task.task_id} seed {self.seed} ({self.get_status_display()})"

    def action_list(self):
        return list(self.actions.order_by("index").values_list("action", flat=True))


class HostedAction(models.Model):
    """One applied action of a hosted episode, as recorded ({"type": "invalid", ...} for a refused one)."""

    episode = models.ForeignKey(HostedEpisode, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    action = models.JSONField()
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["episode", "index"], name="one_hosted_action_per_step")]
