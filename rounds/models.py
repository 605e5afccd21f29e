"""Rounds evaluations: does an agent get better from its own play? A maintainer's curriculum names the tasks, the
rounds and the held-out variants; an agent's entry plays round 0 cold, carries a short text of its own (its
artifact) into each next round, and plays the held-out tasks last. Every round is a sealed hosted evaluation whose
submission is verified by replay like any other (provenance `round`: it counts on its curriculum's board only)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from catalogue.models import TaskSet
from hosted.models import HostedEvaluation

MAX_ROUNDS = 20
MAX_EPISODES = 10


class Curriculum(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True, help_text="What it asks of an agent, shown on its board.")
    task_set = models.ForeignKey(TaskSet, on_delete=models.PROTECT, related_name="curricula",
                                 help_text="A published task set holding every task below.")
    training_tasks = models.ManyToManyField("catalogue.Task", related_name="training_in",
                                            help_text="Played in every round, from round 0 (cold) to the last.")
    held_out_tasks = models.ManyToManyField("catalogue.Task", related_name="held_out_in",
                                            help_text="Other tasks of the same games, played once after the last "
                                                      "round with the artifact the agent chooses.")
    rounds = models.PositiveSmallIntegerField(
        default=3, help_text=f"Rounds after the cold round 0 (1 to {MAX_ROUNDS}): an entry plays rounds 0..R.")
    episodes_per_round = models.PositiveSmallIntegerField(
        default=2, help_text=f"Episodes of each task a round (1 to {MAX_EPISODES}), each at a fresh sealed seed.")
    artifact_max_chars = models.PositiveIntegerField(
        default=4000, help_text="The longest text an agent may carry from one round into the next.")
    campaign = models.ForeignKey(
        "humanplay.Campaign", null=True, blank=True, on_delete=models.SET_NULL, related_name="curricula",
        help_text="Optional: a campaign whose volunteers play each task over several rounds (its `rounds`); their "
                  "learning curve on the training tasks is drawn beside the agents'.")
    published = models.BooleanField(default=False, help_text="Open to entries and listed on the rounds page.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "curricula"

    def __str__(self):
        return self.title

    def clean(self):
        problems = {}
        if not 1 <= self.rounds <= MAX_ROUNDS:
            problems["rounds"] = f"between 1 and {MAX_ROUNDS} rounds after the cold one, not {self.rounds}"
        if not 1 <= self.episodes_per_round <= MAX_EPISODES:
            problems["episodes_per_round"] = f"between 1 and {MAX_EPISODES}, not {self.episodes_per_round}"
        if not 1 <= self.artifact_max_chars <= 100_000:
            problems["artifact_max_chars"] = "between 1 and 100,000 characters"
        if problems:
            raise ValidationError(problems)

    @property
    def held_out_round(self):
        """The index of the held-out round: the one after the last training round."""
        return self.rounds + 1

    def games(self):
        return sorted({task.game.slug for task in self.training_tasks.light()})


def task_problems(*, task_set, training, held_out):
    """What is wrong with a curriculum's tasks (lists of Task), each problem a sentence; [] when nothing is."""
    problems = []
    if not training:
        problems.append("name at least one training task")
    if not held_out:
        problems.append("name at least one held-out task (another task of a training game)")
    in_set = set(task_set.tasks.values_list("pk", flat=True)) if task_set else set()
    outside = [t.task_id for t in [*training, *held_out] if t.pk not in in_set]
    if outside:
        problems.append(f"not in task set {task_set.slug if task_set else '?'}: {', '.join(outside)}")
    both = sorted({t.task_id for t in training} & {t.task_id for t in held_out})
    if both:
        problems.append(f"a held-out task may not be a training task: {', '.join(both)}")
    games = {t.game.slug for t in training}
    strangers = [t.task_id for t in held_out if t.game.slug not in games]
    if strangers:
        problems.append(f"held-out tasks are other tasks of the training games; not of one: {', '.join(strangers)}")
    return problems


class Entry(models.Model):
    """An agent's way through a curriculum: its rounds, each a sealed hosted evaluation."""

    curriculum = models.ForeignKey(Curriculum, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rounds_entries")
    agent = models.JSONField(help_text="The agent block (name, model, interface, ...), the same in every round.")
    protocol = models.CharField(max_length=12, default="paused")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "entries"

    def __str__(self):
        return f"{self.agent.get('name', '?')} on {self.curriculum.slug} #{self.pk}"

    def latest_round(self):
        return self.rounds.select_related("evaluation").order_by("-index").first()

    def stage(self, latest=None):
        """Where the entry is: "playing" (a round is open), "between" (a round is submitted, the next not begun),
        "finished" (the held-out round is submitted) or "expired" (its open round expired). `latest`: its latest
        round, when the caller has it already."""
        latest = latest or self.latest_round()
        status = latest.evaluation.status
        if status == HostedEvaluation.Status.EXPIRED:
            return "expired"
        if status == HostedEvaluation.Status.OPEN:
            return "playing"
        return "finished" if latest.index == self.curriculum.held_out_round else "between"


class Round(models.Model):
    """Round `index` of an entry (0 is cold; curriculum.rounds + 1 is the held-out round) and the artifact the
    agent carried into it."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="rounds")
    index = models.PositiveSmallIntegerField()
    artifact = models.TextField(blank=True, help_text="The text the agent carried into this round (none into 0).")
    evaluation = models.OneToOneField(HostedEvaluation, on_delete=models.PROTECT, related_name="round")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "index"]
        constraints = [models.UniqueConstraint(fields=["entry", "index"], name="one_round_per_index")]

    def __str__(self):
        return f"{self.entry} {self.label}"

    @property
    def held_out(self):
        return self.index == self.entry.curriculum.held_out_round

    @property
    def label(self):
        return "held-out" if self.held_out else f"round {self.index}"

    def describe(self):
        """The round as the agent socket tells the agent."""
        curriculum = self.entry.curriculum
        return {"entry": self.entry_id, "curriculum": curriculum.slug, "index": self.index,
                "last_round": curriculum.rounds, "held_out": self.held_out,
                "episodes_per_task": curriculum.episodes_per_round, "artifact": self.artifact,
                "artifact_max_chars": curriculum.artifact_max_chars}
