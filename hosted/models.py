"""Hosted agent evaluations, their episodes and the applied-action log that every live session (hosted or a
person's) resumes from."""

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from catalogue.models import SiteSettings, Task, TaskSet
from submissions.models import Protocol, Submission


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

    class Kind(models.TextChoices):
        BOARD = "board", "For the boards (every task of its task set)"
        ROUND = "round", "A round of a rounds evaluation (its curriculum's tasks)"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_evaluations")
    task_set = models.ForeignKey(TaskSet, on_delete=models.PROTECT, related_name="hosted_evaluations")
    protocol = models.CharField(max_length=12, choices=Protocol.choices, default=Protocol.PAUSED)
    sealed = models.BooleanField(default=False, help_text="The server draws each episode's seed and reveals it on "
                                                          "submission; the agent asks for an episode number.")
    agent = models.JSONField(help_text="The agent block of the submission it becomes (name, model, interface, ...).")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.BOARD)
    tasks = models.ManyToManyField(Task, blank=True, related_name="+",
                                   help_text="When set, the only tasks it plays (a round plays its curriculum's).")
    episodes_per_task = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Sealed episodes a task; when empty, as many as the task has public seeds.")
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

    def playable_tasks(self):
        """The tasks this evaluation plays: its own list when it has one, else its task set's."""
        chosen = self.tasks.light() if self.kind == self.Kind.ROUND else self.task_set.tasks.light()
        return chosen.order_by("game__level", "game__slug", "target", "slug")

    def episodes_of(self, task):
        """How many sealed episodes of `task` it plays."""
        return self.episodes_per_task or len(task.seeds)


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
