from django.contrib import admin
from django.utils.html import format_html

from . import services
from .models import ApiToken, Game, Run, Submission, Task, TaskSet, UploadLimits


class TaskInline(admin.TabularInline):
    model = Task
    fields = ("slug", "version", "title", "score_field", "target", "max_actions", "step_ms")
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "version", "genre", "level", "backend", "task_count")
    list_filter = ("genre", "level", "backend")
    search_fields = ("title", "slug")
    readonly_fields = ("frame", "manifest", "created", "updated")
    inlines = [TaskInline]

    @admin.display(description="tasks")
    def task_count(self, game):
        return game.tasks.count()

    @admin.display(description="frame")
    def frame(self, game):
        if not game.frame_png:
            return "none captured (run load_games)"
        return format_html('<img src="/games/{}/frame.png" style="max-width:320px;image-rendering:pixelated">',
                           game.slug)


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("__str__", "title", "score_field", "start", "target", "max_actions", "step_ms", "published")
    list_filter = ("game",)
    search_fields = ("slug", "title", "instruction")

    @admin.display(boolean=True)
    def published(self, task):
        return task.is_published

    def get_readonly_fields(self, request, task=None):
        # A published version is frozen: only its wording may change.
        if task is not None and task.is_published:
            return [f.name for f in Task._meta.fields if f.name not in ("title", "instruction")]
        return ["created"]


@admin.register(TaskSet)
class TaskSetAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "status", "is_default", "task_count", "published_at")
    list_filter = ("status",)
    filter_horizontal = ("tasks",)

    def get_readonly_fields(self, request, task_set=None):
        # A published task set is a frozen list: leaderboards computed on it must stay reproducible.
        return ("tasks", "slug", "created", "published_at") if task_set and task_set.frozen else ("created",)

    @admin.display(description="tasks")
    def task_count(self, task_set):
        return task_set.tasks.count()


class RunInline(admin.TabularInline):
    model = Run
    fields = ("task", "seed", "status", "claimed_progress", "progress", "claimed_success", "success", "mismatch")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "user", "task_set", "interface", "status", "runs_done", "runs_total", "created")
    list_filter = ("status", "interface", "task_set")
    search_fields = ("agent_name", "model_name", "organisation")
    readonly_fields = ("status", "runs_done", "runs_total", "reason", "payload_sha256", "created", "updated")
    inlines = [RunInline]
    actions = ["reverify"]

    @admin.action(description="Re-verify: replay every run again, replacing its figures")
    def reverify(self, request, queryset):
        for submission in queryset:
            services.reverify_submission(submission=submission)
        self.message_user(request, f"{queryset.count()} submission(s) queued for verification again.")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created", "last_used", "revoked_at")
    readonly_fields = ("user", "hint", "created", "last_used")
    fields = ("user", "name", "hint", "created", "last_used", "revoked_at")

    def has_add_permission(self, request):
        return False  # keys are issued by their owners on the account page, shown once


@admin.register(UploadLimits)
class UploadLimitsAdmin(admin.ModelAdmin):
    list_display = ("__str__", "max_file_bytes", "max_runs", "max_actions_per_run", "max_submissions_per_day")

    def has_add_permission(self, request):
        return not UploadLimits.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ("__str__", "submission", "status", "progress", "success", "attempts", "mismatch")
    list_filter = ("status", "mismatch")
