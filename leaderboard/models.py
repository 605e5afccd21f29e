"""The board's own settings (one row, edited in the admin)."""
from django.core.validators import MaxValueValidator
from django.db import models

from evaluator.models import SiteSettings


class BoardSettings(SiteSettings):
    human_min_coverage = models.PositiveSmallIntegerField(
        default=50, validators=[MaxValueValidator(100)],
        help_text="Percent of the task set's tasks a human row (novice or expert) must cover; below it the row is "
                  "marked incomplete: its overall figures are an average of the few tasks people played.")

    class Meta:
        verbose_name = verbose_name_plural = "leaderboard settings"
