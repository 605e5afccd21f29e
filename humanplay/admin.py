from django.contrib import admin
from django.db.models import Count, Q

from evaluator.admin import AuditedAdmin, SiteSettingsAdmin
from evaluator.models import Run

from .models import BaselineCoverage, ExpertDesignation, HumanPlaySettings, PlayerProfile, PlaySession


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "experience", "about")
    list_filter = ("experience",)
    search_fields = ("user__username",)


@admin.register(ExpertDesignation)
class ExpertDesignationAdmin(AuditedAdmin):
    list_display = ("user", "game", "genre", "since", "note", "granted_by")
    list_filter = ("genre", "game")
    search_fields = ("user__username", "note")
    autocomplete_fields = ("user",)
    exclude = ("granted_by",)

    def save_model(self, request, obj, form, change):
        obj.granted_by = obj.granted_by or request.user
        super().save_model(request, obj, form, change)


@admin.register(HumanPlaySettings)
class HumanPlaySettingsAdmin(SiteSettingsAdmin):
    list_display = ("__str__", "session_expiry_minutes", "practice_sessions_for_expert")


@admin.register(PlaySession)
class PlaySessionAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "task", "mode", "baseline_kind", "status", "progress", "run", "created")
    list_filter = ("mode", "baseline_kind", "status")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in PlaySession._meta.fields]


@admin.register(BaselineCoverage)
class BaselineCoverageAdmin(admin.ModelAdmin):
    """For each task, how many verified novice and expert runs exist: where to recruit players."""

    list_display = ("task_id_display", "title", "novice_runs", "expert_runs")
    list_filter = ("game__genre", "game")
    ordering = ("game__level", "game__title", "target")

    def get_queryset(self, request):
        verified = Q(runs__status=Run.Status.VERIFIED)
        return super().get_queryset(request).select_related("game").annotate(
            novice=Count("runs", filter=verified & Q(runs__kind=Run.Kind.NOVICE)),
            expert=Count("runs", filter=verified & Q(runs__kind=Run.Kind.EXPERT)))

    @admin.display(description="task", ordering="game__slug")
    def task_id_display(self, task):
        return task.task_id

    @admin.display(description="novice runs", ordering="novice")
    def novice_runs(self, task):
        return task.novice

    @admin.display(description="expert runs", ordering="expert")
    def expert_runs(self, task):
        return task.expert

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
