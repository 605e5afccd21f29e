
from django.contrib import admin

from catalogue.admin import SiteSettingsAdmin

from .models import HostedEpisode, HostedEvaluation, HostedEvaluationSettings


@admin.register(HostedEvaluationSettings)
class HostedEvaluationSettingsAdmin(SiteSettingsAdmin):
    list_display = ("__str__", "hosted_expiry_hours")


class HostedEpisodeInline(admin.TabularInline):
    model = HostedEpisode
    fields = ("task", "number", "seed_or_sealed", "commitment", "status", "progress", "success", "trace_sha256",
              "last_action_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    @admin.display(description="seed")
    def seed_or_sealed(self, episode):
        """A sealed episode's seed stays secret until its evaluation is submitted, from maintainers too."""
        if episode.number is not None and episode.evaluation.status != HostedEvaluation.Status.SUBMITTED:
            return "sealed until submitted"
        return episode.seed


@admin.register(HostedEvaluation)
class HostedEvaluationAdmin(admin.ModelAdmin):
    """Agents evaluated live on the site: read-only (the submission they became is reviewed as any other)."""

    list_display = ("pk", "user", "agent_name", "kind", "protocol", "sealed", "task_set", "status", "submission",
                    "created")
    list_filter = ("status", "kind", "sealed", "protocol", "task_set")
    search_fields = ("user__username", "agent__name")
    readonly_fields = ("user", "task_set", "kind", "tasks", "episodes_per_task", "protocol", "sealed", "agent",
                       "status", "submission", "created", "submitted_at")
    inlines = [HostedEpisodeInline]

    @admin.display(description="agent")
    def agent_name(self, obj):
        return obj.agent.get("name", "?")

    def has_add_permission(self, request):
        return False
