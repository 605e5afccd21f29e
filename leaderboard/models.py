"""The board's own settings (one row, edited in the admin) and the replays rendered for run pages."""
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone

from catalogue.models import SiteSettings


class BoardSettings(SiteSettings):
    human_min_coverage = models.PositiveSmallIntegerField(
        default=50, validators=[MaxValueValidator(100)],
        help_text="Percent of the task set's tasks a human row (novice or expert) must cover; below it the row is "
                  "marked incomplete: its overall figures are an average of the few tasks people played.")

    class Meta:
        verbose_name = verbose_name_plural = "leaderboard settings"


class ReplayRender(models.Model):
    """A run's step-by-step replay, rendered once by a worker (leaderboard/tasks.py) for the trace it was verified
    with: its progress and outcome here, its frames on disk (leaderboard/replays.py)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RENDERING = "rendering"
        READY = "ready"
        ERROR = "error"

    run = models.ForeignKey("submissions.Run", on_delete=models.CASCADE, related_name="replay_renders")
    trace_sha256 = models.CharField(max_length=64, help_text="The verified trace replayed: a run verified again "
                                                             "with another trace is rendered again.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text="Frames drawn so far.")
    total = models.PositiveIntegerField(help_text="Frames at most: the ready frame and one per action.")
    error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True, help_text="Once ready: the replayed trace's hash and figures, "
                                                                 "and each step's action and key state fields.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(default=timezone.now, help_text="The last change of state or progress: a render "
                                                                   "that stops moving was left by a worker that died.")
    viewed = models.DateTimeField(default=timezone.now, help_text="The last view (within a minute): pruning removes "
                                                                  "the least recently viewed first.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "trace_sha256"], name="one_replay_render_per_trace")]

    def __str__(self):
        return f"replay of run {self.run_id} ({self.status})"
