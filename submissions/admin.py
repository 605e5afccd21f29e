from django.contrib import admin

from catalogue.admin import SiteSettingsAdmin

from . import moderation
from .models import ApiToken, Run, Submission, SubmissionEvent, UploadLimits


class RunInline(admin.TabularInline):
    model = Run
    fields = ("task", "seed", "commitment", "status", "claimed_progress", "progress", "claimed_success", "success",
              "mismatch")
    readonly_fields = fields
    extra = 0
    can_delete = False


class SubmissionEventInline(admin.TabularInline):
    model = SubmissionEvent
    fields = ("at", "message")
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0
    verbose_name_plural = "verification log"


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "task_set", "interface", "provenance", "status", "runs_done", "runs_total",
                    "copy_of", "hidden", "is_baseline", "created")
    list_filter = ("provenance", "status", "interface", "task_set", "hidden", "is_baseline")
    search_fields = ("agent_name", "model_name", "organisation", "content_sha256")
    fields = ("agent_name", "model_name", "organisation", "interface", "protocol", "provenance", "task_set", "user",
              "status", "runs_done", "runs_total", "reason", "content_sha256", "copy_of", "flag_reason", "hidden",
              "is_baseline", "created", "updated")
    readonly_fields = ("agent_name", "model_name", "organisation", "interface", "protocol", "provenance", "task_set",
                       "user", "status", "runs_done", "runs_total", "reason", "content_sha256", "copy_of", "created",
                       "updated")
    inlines = [SubmissionEventInline, RunInline]
    actions = ["reverify"]

    def has_add_permission(self, request):
        return False  # submissions come from uploads

    @admin.action(description="Re-verify: replay every run again, replacing its figures")
    def reverify(self, request, queryset):
        for submission in queryset:
            moderation.reverify_submission(actor=request.user, submission=submission)
        self.message_user(request, f"{queryset.count()} submission(s) queued for verification again.")

    def save_model(self, request, submission, form, change):
        moderation.moderate_submission(actor=request.user, submission=Submission.objects.get(pk=submission.pk),
                                     flag_reason=form.cleaned_data["flag_reason"],
                                     hidden=form.cleaned_data["hidden"], is_baseline=form.cleaned_data["is_baseline"])


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created", "last_used", "revoked_at")
    readonly_fields = ("user", "hint", "created", "last_used")
    fields = ("user", "name", "hint", "created", "last_used", "revoked_at")

    def has_add_permission(self, request):
        return False  # keys are issued by their owners on the account page, shown once


@admin.register(UploadLimits)
class UploadLimitsAdmin(SiteSettingsAdmin):
    list_display = ("__str__", "max_file_bytes", "max_runs", "max_actions_per_run", "max_submissions_per_day")


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ("__str__", "submission", "status", "progress", "success", "attempts", "mismatch")
    list_filter = ("status", "mismatch")
