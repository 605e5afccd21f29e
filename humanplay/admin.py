from django.contrib import admin
from django.db.models import Count, Q
from django.utils.html import format_html

from catalogue.admin import AuditedAdmin, SiteSettingsAdmin
from submissions.models import Run

from .models import (Assignment, BaselineCoverage, Campaign, CampaignMember, ExpertDesignation, HumanPlaySettings,
                      PlayerProfile, PlaySession)


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


class CampaignMemberInline(admin.TabularInline):
    model = CampaignMember
    extra = 0
    fields = ("user", "joined_at", "consented_at", "consent_withdrawn_at", "show_name")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Campaign)
class CampaignAdmin(AuditedAdmin):
    """Open a campaign for a task set: runs needed per task and kind, an optional sign-up code, the consent text,
    dates. Coverage and the exports are on the campaign's own page."""

    list_display = ("title", "task_set", "starts_on", "ends_on", "runs_per_task", "volunteers", "runs_done", "page")
    list_filter = ("task_set",)
    search_fields = ("title", "slug")
    prepopulated_fields = {"slug": ("title",)}
    inlines = [CampaignMemberInline]
    fieldsets = [
        (None, {"fields": ("title", "slug", "description", "task_set")}),
        ("Runs each task needs", {"fields": ("novice_runs_per_task", "expert_runs_per_task", "hold_minutes")}),
        ("Volunteers", {"fields": ("signup_code", "consent_text", "starts_on", "ends_on")}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("task_set").annotate(
            n_members=Count("members", distinct=True),
            n_done=Count("assignments", filter=Q(assignments__status=Assignment.Status.DONE), distinct=True))

    @admin.display(description="runs per task")
    def runs_per_task(self, campaign):
        return f"{campaign.novice_runs_per_task} novice · {campaign.expert_runs_per_task} expert"

    @admin.display(description="volunteers", ordering="n_members")
    def volunteers(self, campaign):
        return campaign.n_members

    @admin.display(description="runs done", ordering="n_done")
    def runs_done(self, campaign):
        return campaign.n_done

    @admin.display(description="page")
    def page(self, campaign):
        return format_html('<a href="{}">coverage</a>', campaign.get_absolute_url())


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("pk", "campaign", "user", "task", "kind", "slot", "status", "held_until", "run", "release_reason")
    list_filter = ("campaign", "kind", "status")
    search_fields = ("user__username",)
    readonly_fields = [f.name for f in Assignment._meta.fields]

    def has_add_permission(self, request):
        return False
