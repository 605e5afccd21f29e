"""Games, versioned tasks and frozen task sets; registered Game Boy ROMs, task validations and the audit log."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from sandbox import TaskSpec, registry
from sandbox.calibration import RUN_ARMS, card_floor, summarize
from sandbox.protocol import INTERFACES

GENRES = [("arcade", "Arcade"), ("platformer", "Platformer"), ("puzzle", "Puzzle"), ("runner", "Runner"),
          ("simulation", "Simulation")]


LEVELS = [(1, "1 · basic control and timing"), (2, "2 · reactive control"), (3, "3 · spatial navigation"),
          (4, "4 · symbolic reasoning"), (5, "5 · open-world management")]


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
        return reverse("catalogue:game", args=[self.slug])

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
        fresh = {arm: _percent(card[arm]["results"]) if arm in card else None for arm in RUN_ARMS}
        if fresh["trivial"]:
            by_policy = {}
            for entry in card["trivial"]["results"]:
                by_policy.setdefault(entry["policy"], []).append(entry)
            best = max(by_policy, key=lambda policy: summarize(by_policy[policy])["mean_progress"])
            fresh["trivial"].update(policies=len(by_policy), seeds=len(card["trivial"]["seeds"]),
                                    best_policy=best, best=_percent(by_policy[best]))
        return {"random": {interface: _percent(card["random"][interface]["results"]) for interface in INTERFACES},
                "solver": {**_percent(card["solver"]["results"]), "seeds": card["solver"]["results"]}, **fresh,
                "noise": _noise_curve(card), "random_floor": card_floor(card), "game_version": card["game_version"],
                "verdict": card.get("verdict", ""), "reasons": card.get("reasons", [])}

    def random_floor(self, interface):
        """Random play's mean progress (0-100) for an interface ("human" rows press keys: the cua floor)."""
        if not self.calibration:
            return None
        results = self.calibration["random"]["generalist" if interface == "generalist" else "cua"]["results"]
        return _percent(results)["pg"]


def _noise_curve(card):
    """The noisy solver's ladder in percent, from no noise (the solver on the same fresh seeds) to the most; None on
    a card measured before it."""
    if "noise" not in card:
        return None
    seeds = {entry["seed"] for level in card["noise"] for entry in level["results"]}
    clean = [entry for entry in card["fresh_solver"]["results"] if entry["seed"] in seeds]
    return [{"noise": 0, **_percent(clean)}] + [{"noise": round(100 * level["rate"]), **_percent(level["results"])}
                                                 for level in card["noise"]]


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
