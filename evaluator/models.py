"""Games, versioned tasks, frozen task sets, submissions and runs, API tokens and upload limits."""
import hashlib
import secrets

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone

from sandbox import TaskSpec, registry
from sandbox.actions import INTERFACES
from sandbox.calibration import ARMS, summarize

GENRES = [("arcade", "Arcade"), ("platformer", "Platformer"), ("puzzle", "Puzzle"), ("runner", "Runner"),
          ("simulation", "Simulation")]
LEVELS = [(1, "1 · basic control and timing"), (2, "2 · reactive control"), (3, "3 · spatial navigation"),
          (4, "4 · symbolic reasoning"), (5, "5 · open-world management")]


class Protocol(models.TextChoices):
    """How game time relates to the agent's thinking: the paused clock of the benchmark, or the realtime track
    where each action may carry latency_ms, game time that runs with no input before the action lands."""
    PAUSED = "paused", "Paused clock"
    REALTIME = "realtime", "Realtime"


# What a task measures: changing any of these makes a new task version (wording changes do not).
MEASURED_FIELDS = ("score_field", "start", "target", "max_actions", "step_ms", "seeds", "game_version")


def game_spec(slug, version):
    """A game version's GameSpec: from the bundle store (every imported version), else the bundled folder."""
    from .bundles import stored_spec

    spec = stored_spec(slug, version)
    if spec is not None:
        return spec
    bundled = registry.game(slug)
    if bundled.version != version:
        raise ValueError(f"{slug} {version} is not in the bundle store and the bundled folder is version "
                         f"{bundled.version}: import that version (manage.py load_games or the admin)")
    return bundled


class Game(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=80)
    version = models.CharField(max_length=20, help_text="The bundle version currently loaded.")
    genre = models.CharField(max_length=20, choices=GENRES)
    level = models.PositiveSmallIntegerField(choices=LEVELS)
    backend = models.CharField(max_length=20, default="browser")
    description = models.TextField(blank=True)
    manifest = models.JSONField(help_text="The manifest the current version was loaded from.")
    frame_png = models.BinaryField(null=True, blank=True, editable=False,
                                   help_text="A frame of the game, captured by the sandbox.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["level", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("evaluator:game", args=[self.slug])

    @property
    def spec(self):
        """The sandbox's GameSpec of the version currently loaded."""
        return game_spec(self.slug, self.version)

    def action_space(self):
        return self.spec.action_space.describe()


# A task's bulky fields, which checking or replaying a run never reads: its calibration card (thousands of runs),
# and its game's manifest and frame (else read again for every one of the game's tasks).
TASK_BULKY_FIELDS = ("calibration", "game__manifest", "game__frame_png")


class TaskQuerySet(models.QuerySet):
    def light(self):
        """The tasks with their games, leaving the bulky fields in the database."""
        return self.select_related("game").defer(*TASK_BULKY_FIELDS)


class Task(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tasks")
    slug = models.SlugField()
    version = models.PositiveIntegerField()
    game_version = models.CharField(max_length=20)
    title = models.CharField(max_length=120)
    instruction = models.TextField()
    score_field = models.CharField(max_length=100)
    start = models.JSONField(help_text='A number, or "state": the score at the first ready frame.')
    target = models.FloatField()
    max_actions = models.PositiveIntegerField(default=100)
    step_ms = models.PositiveIntegerField(default=200)
    seeds = models.JSONField()
    reference = models.JSONField(help_text="A trajectory that reaches the target (seed + actions).")
    null = models.JSONField(help_text="A trajectory that must not reach the target.")
    calibration = models.JSONField(null=True, blank=True, editable=False,
                                   help_text="The task's calibration card from its bundle's calibration.json "
                                             "(random floor, solver, frames), checked when the task is validated.")
    created = models.DateTimeField(auto_now_add=True)

    objects = TaskQuerySet.as_manager()

    class Meta:
        ordering = ["game__level", "game__title", "target", "slug", "version"]
        permissions = [("validate_task", "Can validate tasks and import game bundles")]
        constraints = [models.UniqueConstraint(fields=["game", "slug", "version"], name="unique_task_version")]

    def __str__(self):
        return self.task_id

    @property
    def task_id(self):
        return f"{self.game.slug}/{self.slug}@{self.version}"

    @property
    def is_published(self):
        return self.task_sets.exclude(status=TaskSet.Status.DRAFT).exists()

    def spec_dict(self):
        return {"slug": self.slug, "version": self.version, "title": self.title,
                "instruction": self.instruction, "score_field": self.score_field, "start": self.start,
                "target": self.target, "max_actions": self.max_actions, "step_ms": self.step_ms,
                "seeds": self.seeds, "reference": self.reference, "null": self.null}

    def spec(self):
        """The TaskSpec the sandbox runs: this version's figures against the game version it was made for."""
        return TaskSpec.from_dict(game_spec(self.game.slug, self.game_version), self.spec_dict())

    @property
    def measured(self):
        return {name: getattr(self, name) for name in MEASURED_FIELDS + ("reference", "null")}

    def calibration_summary(self):
        """The card's figures in percent, from its runs: random SR/PG per interface, the solver's SR and actions
        per seed, the arms on fresh seeds (None on a card measured before them), the verdict; None when the task
        has no card."""
        card = self.calibration
        if not card:
            return None
        fresh = {arm: _percent(card[arm]["results"]) if arm in card else None for arm in ARMS}
        if fresh["trivial"]:
            by_policy = {}
            for entry in card["trivial"]["results"]:
                by_policy.setdefault(entry["policy"], []).append(entry)
            best = max(by_policy, key=lambda policy: summarize(by_policy[policy])["mean_progress"])
            fresh["trivial"].update(policies=len(by_policy), seeds=len(card["trivial"]["seeds"]),
                                    best_policy=best, best=_percent(by_policy[best]))
        return {"random": {interface: _percent(card["random"][interface]["results"]) for interface in INTERFACES},
                "solver": {**_percent(card["solver"]["results"]), "seeds": card["solver"]["results"]}, **fresh,
                "game_version": card["game_version"], "verdict": card.get("verdict", ""),
                "reasons": card.get("reasons", [])}

    def random_floor(self, interface):
        """Random play's mean progress (0-100) for an interface ("human" rows press keys: the cua floor)."""
        if not self.calibration:
            return None
        results = self.calibration["random"]["generalist" if interface == "generalist" else "cua"]["results"]
        return _percent(results)["pg"]


def _percent(results):
    """Runs, SR and PG (percent; None without runs) of a calibration card's run entries."""
    measured = summarize(results)
    return {"runs": measured["runs"], "sr": 100.0 * measured["success_rate"] if results else None,
            "pg": 100.0 * measured["mean_progress"] if results else None}


class TaskSet(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        RETIRED = "retired", "Retired"

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    tasks = models.ManyToManyField(Task, related_name="task_sets")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    is_default = models.BooleanField(default=False, help_text="The task set the leaderboard shows first.")
    created = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-published_at", "name"]
        permissions = [("publish_taskset", "Can validate, publish, retire task sets and choose the default")]
        constraints = [models.UniqueConstraint(fields=["is_default"], condition=models.Q(is_default=True),
                                               name="one_default_task_set")]

    def __str__(self):
        return self.name

    @property
    def frozen(self):
        return self.status != self.Status.DRAFT


class Provenance(models.TextChoices):
    """How a submission's runs were made, as the server saw it."""
    SEALED = "sealed", "Sealed (hosted, seeds drawn by the server)"
    HOSTED = "hosted", "Hosted on public seeds"
    UPLOADED = "uploaded", "Uploaded"


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
                  "seed and actions, canonically (evaluator/uploads.py content_sha256).")
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
        return reverse("evaluator:submission", args=[self.pk])

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


class SiteSettings(models.Model):
    """Settings kept in one row that maintainers edit in the admin."""

    class Meta:
        abstract = True

    def __str__(self):
        return str(self._meta.verbose_name).capitalize()

    @classmethod
    def current(cls):
        row, _ = cls.objects.get_or_create(pk=1)
        return row


class UploadLimits(SiteSettings):
    """The site's upload limits."""

    max_file_bytes = models.PositiveIntegerField(default=5 * 1024 * 1024)
    max_runs = models.PositiveIntegerField(default=1000, help_text="Runs per submission.")
    max_actions_per_run = models.PositiveIntegerField(default=1000)
    max_submissions_per_day = models.PositiveIntegerField(default=20, help_text="Per user, over the last 24 hours.")

    class Meta:
        verbose_name = verbose_name_plural = "upload limits"


GAMEBOY_BUTTONS = ["a", "b", "start", "select", "up", "down", "left", "right"]


class RegisteredRom(models.Model):
    """A Game Boy ROM a maintainer registered from their own legal copy, with its RAM fields and tasks.

    The file is stored under settings.DATA_DIR/roms/<sha256>.gb, outside the static and media roots, and
    is never served or offered for download; the row pins it by sha256. The declarations are the `gameboy`
    section and the tasks of a game manifest (see sandbox/backends/gameboy/README.md).
    """

    title = models.CharField(max_length=80)
    slug = models.SlugField(max_length=49, unique=True, help_text="The game's slug, e.g. “tetris-dx”.")
    version = models.CharField(max_length=20, default="1.0.0")
    genre = models.CharField(max_length=20, choices=GENRES)
    level = models.PositiveSmallIntegerField(choices=LEVELS)
    description = models.TextField(blank=True)
    provenance = models.TextField(help_text="Whose legal copy this is and how it was dumped. The platform never "
                                            "ships a commercial ROM.")
    sha256 = models.CharField(max_length=64, unique=True, editable=False)
    size = models.PositiveIntegerField(editable=False)
    header_title = models.CharField(max_length=16, blank=True, editable=False)
    cartridge = models.CharField(max_length=40, editable=False)
    has_rtc = models.BooleanField(default=False, editable=False)
    keys = models.JSONField(default=list, help_text=f"The buttons agents may press, of {', '.join(GAMEBOY_BUTTONS)}.")
    semantic_actions = models.JSONField(default=list, blank=True,
                                        help_text='As in a manifest: [{"name", "description", "action"}].')
    fields = models.JSONField(help_text='RAM fields by name, one of them "score": {"score": {"address": '
                                        '"0xC0A0", "size": 2, "bcd": true, "endian": "big"}, ...}.')
    state_fields = models.JSONField(help_text="A sentence for each field shown to agents and people.")
    rules = models.JSONField(help_text='{"actionable": condition, "status": {...}, "terminal": {"lose": '
                                       '{"when": condition, "reason": "..."}}}')
    seed = models.JSONField(null=True, blank=True,
                            help_text='Where the seed is written, if the game has such a place: {"address", "size"}.')
    press_frames = models.PositiveSmallIntegerField(default=5)
    release_frames = models.PositiveSmallIntegerField(default=14)
    tasks = models.JSONField(default=list, blank=True, help_text="Tasks as in a manifest (slug, title, instruction, "
                                                                 "score_field, start, target, ...).")
    boot_frames = models.PositiveIntegerField(default=0, help_text="Frames run from power-on before the start actions.")
    start_actions = models.JSONField(default=list, blank=True,
                                     help_text='Game Boy button actions from power-on to the start, e.g. '
                                               '[{"type": "press_key", "key": "start"}, {"type": "wait"}].')
    start_state = models.BinaryField(null=True, blank=True, editable=False,
                                     help_text="The captured start state (a GameWorld state file of this ROM).")
    start_state_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="registered_roms")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]
        verbose_name = "registered Game Boy ROM"

    def __str__(self):
        return f"{self.title} ({self.sha256[:12]})"

    @property
    def rom_path(self):
        return settings.DATA_DIR / "roms" / f"{self.sha256}.gb"


class TaskValidation(models.Model):
    """One validation of a task version: reference reaches the target, null does not, replays are identical."""

    task = models.ForeignKey(Task, on_delete=models.CASCADE, related_name="validations")
    game_version = models.CharField(max_length=20)
    ok = models.BooleanField()
    reference_progress = models.FloatField(null=True)
    reference_success = models.BooleanField(null=True)
    null_progress = models.FloatField(null=True)
    null_success = models.BooleanField(null=True)
    deterministic = models.BooleanField(null=True, help_text="Two replays of the reference gave the same trace.")
    trace_sha256 = models.CharField(max_length=64, blank=True)
    problems = models.TextField(blank=True)
    frame_png = models.BinaryField(null=True, editable=False, help_text="The reference run's last frame.")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        get_latest_by = "created"

    def __str__(self):
        return f"{self.task.task_id}: {'passed' if self.ok else 'FAILED'} ({self.created:%Y-%m-%d %H:%M})"


class SubmissionEvent(models.Model):
    """The verification log of a submission: what happened to it and its runs, in order."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(auto_now_add=True)
    message = models.TextField()

    class Meta:
        ordering = ["at", "pk"]


class AuditEntry(models.Model):
    """Every curation action: who, when, what, and what changed."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=60)
    target_type = models.CharField(max_length=40)
    target_id = models.CharField(max_length=40, blank=True)
    target = models.CharField(max_length=200)
    changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit log"

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.action} {self.target}"


class StepTaken(Exception):
    """That step of a live session's log is already stored (by another connection to the same session)."""


class AppliedAction(models.Model):
    """One action of a live session as it was applied: the log a dropped connection is resumed from.

    A subclass adds the foreign key to its session (named by `log_of`) and a unique (session, index)
    constraint, so a resumed session can never count a step twice."""

    log_of = None  # the name of the foreign key to the session whose log this is
    index = models.PositiveIntegerField()
    action = models.JSONField()
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["index"]

    @classmethod
    def append(cls, *, session_id, index, action):
        """Store `action` as step `index` (0-based) of the session's log; StepTaken if it is stored already."""
        try:
            with transaction.atomic():
                return cls.objects.create(**{f"{cls.log_of}_id": session_id}, index=index, action=action)
        except IntegrityError:
            raise StepTaken(f"step {index + 1} was already played on another connection") from None

    @classmethod
    def log(cls, session_id):
        """The session's actions in the order they were applied."""
        return list(cls.objects.filter(**{f"{cls.log_of}_id": session_id}).order_by("index")
                    .values_list("action", flat=True))


class HostedEvaluationSettings(SiteSettings):
    """The maintainers' knobs for hosted agent evaluation."""

    hosted_expiry_hours = models.PositiveIntegerField(
        default=24, help_text="An open hosted agent evaluation with no activity for this long expires: its "
                              "episodes are kept, but it can no longer be played or submitted.")

    class Meta:
        verbose_name = verbose_name_plural = "hosted evaluation settings"


class HostedEvaluation(models.Model):
    """An agent evaluated live on the site over the agent socket: its episodes become one Submission.

    The agent's client opens it (agent fields, task set, protocol, sealed or not), plays episodes (task + public
    seed, or in a sealed evaluation task + episode number at a seed the server draws), every action stored as it
    is applied, then submits: the submission is created from the stored actions through the same checks as an
    upload and verified by the same replay on a worker."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        SUBMITTED = "submitted", "Submitted"
        EXPIRED = "expired", "Expired"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_evaluations")
    task_set = models.ForeignKey(TaskSet, on_delete=models.PROTECT, related_name="hosted_evaluations")
    protocol = models.CharField(max_length=12, choices=Protocol.choices, default=Protocol.PAUSED)
    sealed = models.BooleanField(default=False, help_text="The server draws each episode's seed and reveals it on "
                                                          "submission; the agent asks for an episode number.")
    agent = models.JSONField(help_text="The agent block of the submission it becomes (name, model, interface, ...).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    submission = models.OneToOneField(Submission, null=True, blank=True, on_delete=models.SET_NULL,
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
    seed = models.PositiveBigIntegerField(help_text="In a sealed evaluation: secret until it is submitted.")
    number = models.PositiveIntegerField(null=True, blank=True,
                                         help_text="A sealed episode's number (1, 2, ...) within its task.")
    commitment = models.CharField(max_length=64, blank=True, help_text="A sealed episode's commitment to its seed.")
    salt = models.CharField(max_length=32, blank=True, help_text="Secret until the evaluation is submitted.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    progress = models.FloatField(null=True, blank=True, help_text="The live sandbox's figure at the end.")
    success = models.BooleanField(null=True, blank=True)
    trace_sha256 = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_action_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["evaluation", "task", "seed"], name="one_episode_per_task_seed"),
                       models.UniqueConstraint(fields=["evaluation", "task", "number"], name="one_sealed_episode_per_number",
                                               condition=models.Q(number__isnull=False))]

    def __str__(self):  # the admin lists episodes: a sealed one is named by its number, never its seed
        which = f"episode {self.number}" if self.number is not None else f"seed {self.seed}"
        return f"{self.task.task_id} {which} ({self.get_status_display()})"

    def action_list(self):
        return HostedAction.log(self.pk)


class HostedAction(AppliedAction):
    """One applied action of a hosted episode, as recorded ({"type": "invalid", ...} for a refused one)."""

    log_of = "episode"
    episode = models.ForeignKey(HostedEpisode, on_delete=models.CASCADE, related_name="actions")

    class Meta(AppliedAction.Meta):
        constraints = [models.UniqueConstraint(fields=["episode", "index"], name="one_hosted_action_per_step")]
