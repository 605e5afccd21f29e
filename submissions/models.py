"""Submissions and their runs (an agent's or a person's), API tokens and upload limits."""
import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from catalogue.models import SiteSettings, Task, TaskSet


class Protocol(models.TextChoices):
    """How game time relates to the agent's thinking: the paused clock of the benchmark, or the realtime track
    where each action may carry latency_ms, game time that runs with no input before the action lands."""
    PAUSED = "paused", "Paused clock"
    REALTIME = "realtime", "Realtime"


class Provenance(models.TextChoices):
    """How a submission's runs were made, as the server saw it."""
    SEALED = "sealed", "Sealed (hosted, seeds drawn by the server)"
    HOSTED = "hosted", "Hosted on public seeds"
    UPLOADED = "uploaded", "Uploaded"
    ROUND = "round", "A round of a rounds evaluation (sealed; shown on its curriculum's board, never on the others)"


class Submission(models.Model):
    Provenance = Provenance

    class Status(models.TextChoices):
        RECEIVED = "received", "Received"
        QUEUED = "queued", "Queued"
        VERIFYING = "verifying", "Verifying"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"

    class Interface(models.TextChoices):
        CUA = "cua", "Computer-use"
        GENERALIST = "generalist", "Generalist"

    class Weights(models.TextChoices):
        OPEN = "open", "Open weights"
        CLOSED = "closed", "Closed weights"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    task_set = models.ForeignKey(TaskSet, on_delete=models.PROTECT, related_name="submissions")
    agent_name = models.CharField(max_length=80)
    model_name = models.CharField(max_length=120)
    organisation = models.CharField(max_length=120, blank=True)
    interface = models.CharField(max_length=12, choices=Interface.choices)
    memory_rounds = models.PositiveIntegerField(default=0)
    url = models.URLField(blank=True)
    notes = models.TextField(blank=True)
    # What researchers ask of an entry, as the submitter declares it (shown, filtered on, never ranked on).
    code_url = models.URLField(blank=True)
    paper_url = models.URLField(blank=True)
    weights = models.CharField(max_length=8, choices=Weights.choices, blank=True)
    tuned_on_benchmark = models.BooleanField(null=True, blank=True)
    reported_tokens_per_step = models.FloatField(null=True, blank=True)
    reported_seconds_per_step = models.FloatField(null=True, blank=True)
    reported_cost_per_step_usd = models.FloatField(null=True, blank=True)
    protocol = models.CharField(max_length=12, choices=Protocol.choices, default=Protocol.PAUSED)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RECEIVED, db_index=True)
    runs_total = models.PositiveIntegerField(default=0)
    runs_done = models.PositiveIntegerField(default=0)
    reason = models.TextField(blank=True, help_text="Why the submission was rejected.")
    provenance = models.CharField(
        max_length=10, choices=Provenance.choices, default=Provenance.UPLOADED, db_index=True,
        help_text="How the runs were made, set by the server from the path the submission came by (never read "
                  "from a file): only sealed entries rank on the default board.")
    content_sha256 = models.CharField(
        max_length=64, blank=True, db_index=True,
        help_text="The identity of the runs whatever the bytes: task set, protocol, interface and every run's task, "
                  "seed and actions, canonically (submissions/uploads.py content_sha256).")
    copy_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies",
                                help_text="The earlier entry with the same runs (any account, baselines included): "
                                          "a copy is shown, never ranked.")
    flag_reason = models.TextField(blank=True, help_text="Shown publicly beside a flagged or hidden submission.")
    hidden = models.BooleanField(default=False, help_text="Kept out of every leaderboard figure.")
    is_baseline = models.BooleanField(default=False, help_text="A reference agent of the platform's own.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        permissions = [("curate_submission", "Can flag, hide, mark as baseline and re-verify submissions")]

    def __str__(self):
        return f"{self.agent_name} ({self.model_name}) #{self.pk}"

    def get_absolute_url(self):
        return reverse("submissions:submission", args=[self.pk])

    @property
    def finished(self):
        return self.status in (self.Status.VERIFIED, self.Status.REJECTED)

    def progress_dict(self):
        """What the submission page and the API show while it verifies."""
        return {"id": self.pk, "status": self.status, "status_display": self.get_status_display(),
                "runs_done": self.runs_done, "runs_total": self.runs_total, "reason": self.reason,
                "finished": self.finished, "provenance": self.provenance, "copy_of": self.copy_of_id}


class Run(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Replaying"
        VERIFIED = "verified", "Verified"
        FAILED = "failed", "Could not replay"

    class Kind(models.TextChoices):
        AGENT = "agent", "Agent"
        NOVICE = "novice", "Human (novice)"
        EXPERT = "expert", "Human (expert)"
        LEARNING = "learning", "Human (a later round of a campaign's learning curve; not a baseline run)"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.AGENT, db_index=True,
                            help_text="An agent's run (from a submission) or a human baseline run.")
    submission = models.ForeignKey(Submission, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="runs")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="baseline_runs", help_text="The person who played a human run.")
    task = models.ForeignKey(Task, on_delete=models.PROTECT, related_name="runs")
    seed = models.PositiveBigIntegerField()
    actions = models.JSONField()
    claimed_progress = models.FloatField(null=True, blank=True)
    claimed_success = models.BooleanField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True)
    progress = models.FloatField(null=True, blank=True)
    success = models.BooleanField(null=True, blank=True)
    attempts = models.PositiveIntegerField(null=True, blank=True)
    actions_used = models.PositiveIntegerField(null=True, blank=True)
    invalid_actions = models.PositiveIntegerField(null=True, blank=True)
    trace_sha256 = models.CharField(max_length=64, blank=True)
    # A sealed run's seed was drawn by the server and committed to before it was played (sandbox/commitment.py);
    # both are blank for a run on a public seed.
    commitment = models.CharField(max_length=64, blank=True, help_text="sha256 of f\"{seed}:{salt}\", shown "
                                                                       "when the episode opened.")
    salt = models.CharField(max_length=32, blank=True, help_text="Revealed with the seed on submission.")
    mismatch = models.BooleanField(default=False, help_text="The claim differs from the verified replay.")
    error = models.TextField(blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="When a worker took it (a lease).")
    claimed_by = models.CharField(max_length=255, blank=True, help_text="The process holding the lease, as "
                                                                       "\"host:pid\".")
    verify_attempts = models.PositiveIntegerField(default=0)
    verified_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["task", "seed", "pk"]

    def __str__(self):
        return f"{self.task.task_id} seed {self.seed}"

    @property
    def iar(self):
        if not self.actions_used:
            return None
        return self.invalid_actions / self.actions_used


class ApiToken(models.Model):
    """A per-user key for the JSON API. Only a hash is stored; the key is shown once, at creation."""

    PREFIX = "gw_"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text="The key's first characters.")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.name} ({self.hint}…)"

    @staticmethod
    def hash_key(key):
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user, name):
        """Create a token; return it with its key (the only time the key exists in clear)."""
        key = cls.PREFIX + secrets.token_urlsafe(30)
        token = cls.objects.create(user=user, name=name, key_hash=cls.hash_key(key), hint=key[:10])
        return token, key

    @classmethod
    def authenticate(cls, key):
        token = cls.objects.select_related("user").filter(
            key_hash=cls.hash_key(key), revoked_at__isnull=True, user__is_active=True).first()
        if token is not None:
            cls.objects.filter(pk=token.pk).update(last_used=timezone.now())
        return token

    @property
    def active(self):
        return self.revoked_at is None


class UploadLimits(SiteSettings):
    """The site's upload limits."""

    max_file_bytes = models.PositiveIntegerField(default=5 * 1024 * 1024)
    max_runs = models.PositiveIntegerField(default=1000, help_text="Runs per submission.")
    max_actions_per_run = models.PositiveIntegerField(default=1000)
    max_submissions_per_day = models.PositiveIntegerField(default=20, help_text="Per user, over the last 24 hours.")

    class Meta:
        verbose_name = verbose_name_plural = "upload limits"


class SubmissionEvent(models.Model):
    """The verification log of a submission: what happened to it and its runs, in order."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(auto_now_add=True)
    message = models.TextField()

    class Meta:
        ordering = ["at", "pk"]
