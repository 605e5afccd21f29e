import base64
from pathlib import Path

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from . import bundle_loading, curation, roms
from .bundles import BundleRejected
from .models import (GAMEBOY_BUTTONS, ApiToken, AuditEntry, Game, HostedEpisode, HostedEvaluation,
                     HostedEvaluationSettings, RegisteredRom, Run, Submission, SubmissionEvent, Task, TaskSet,
                     TaskValidation, UploadLimits)
from sandbox import ManifestError, registry
from .selectors import latest_tasks


class TaskInline(admin.TabularInline):
    model = Task
    fields = ("slug", "version", "title", "score_field", "target", "max_actions", "step_ms")
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


class AuditedAdmin(admin.ModelAdmin):
    """Admin edits of curation settings and records go to the audit log, with the fields that changed."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        changes = {name: str(form.cleaned_data.get(name)) for name in form.changed_data}
        curation.audit(actor=request.user, action=f"{'changed' if change else 'added'} {self.opts.verbose_name}",
                       target=obj, changes=changes)

    def delete_model(self, request, obj):
        curation.audit(actor=request.user, action=f"deleted {self.opts.verbose_name}", target=obj)
        super().delete_model(request, obj)


def queue_validations(modeladmin, request, tasks):
    """Validation replays take seconds a task: the worker runs them; results appear on each task."""
    from .tasks import validate_task

    curation.require(request.user, "validate_task")
    tasks = list(tasks)
    for task in tasks:
        validate_task.delay(task.pk, request.user.pk)
    curation.audit(actor=request.user, action="queued validation", target=tasks[0] if len(tasks) == 1 else
                   f"{len(tasks)} tasks", changes={"tasks": [t.task_id for t in tasks]})
    modeladmin.message_user(request, f"Validation of {len(tasks)} task(s) queued: reference, null and a "
                                     "determinism replay each. Reload to see the results.")


class BundleImportForm(forms.Form):
    bundled = forms.ChoiceField(required=False, label="A bundle of games/",
                                help_text="Import it, or its new version.")
    archive = forms.FileField(required=False, label="…or an archive (.zip, .tar.gz) of a bundle folder",
                              help_text="manifest.json at its top or in one folder; nothing outside the bundle.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bundled"].choices = [("", "–")] + [(slug, slug) for slug in registry.slugs()]

    def clean(self):
        cleaned = super().clean()
        if bool(cleaned.get("bundled")) == bool(cleaned.get("archive")):
            raise forms.ValidationError("Choose one: a bundled game or an archive.")
        return cleaned


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    list_display = ("title", "slug", "version", "genre", "level", "backend", "task_count")
    list_filter = ("genre", "level", "backend")
    search_fields = ("title", "slug")
    readonly_fields = ("frame", "manifest", "created", "updated")
    inlines = [TaskInline]
    actions = ["validate_tasks"]
    change_list_template = "admin/evaluator/game/change_list.html"

    @admin.display(description="tasks")
    def task_count(self, game):
        return game.tasks.count()

    @admin.display(description="frame")
    def frame(self, game):
        if not game.frame_png:
            return "none captured (run load_games)"
        return format_html('<img src="/games/{}/frame.png" style="max-width:320px;image-rendering:pixelated">',
                           game.slug)

    @admin.action(description="Validate every current task of the selected games")
    def validate_tasks(self, request, queryset):
        tasks = [t for game in queryset for t in latest_tasks(list(game.tasks.order_by("target", "slug")))]
        queue_validations(self, request, tasks)

    def get_urls(self):
        return [path("import/", self.admin_site.admin_view(self.import_bundle), name="evaluator_game_import")] \
            + super().get_urls()

    def import_bundle(self, request):
        if not request.user.has_perm("evaluator.validate_task"):
            raise PermissionDenied("maintainers only: needs the validate task permission")
        form = BundleImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                if form.cleaned_data["bundled"]:
                    spec, report = curation.import_bundle(
                        actor=request.user, source_dir=registry.game(form.cleaned_data["bundled"]).bundle_dir)
                else:
                    upload = form.cleaned_data["archive"]
                    spec, report = curation.import_archive(actor=request.user, data=upload.read(), name=upload.name)
            except (ManifestError, BundleRejected, bundle_loading.BundleConflict) as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"Imported {spec.title} {spec.version}: " + "; ".join(report.lines))
                return redirect("admin:evaluator_game_changelist")
        context = {**self.admin_site.each_context(request), "form": form, "title": "Import a game bundle",
                   "opts": self.model._meta}
        return TemplateResponse(request, "admin/evaluator/game/import.html", context)


class TaskValidationInline(admin.TabularInline):
    model = TaskValidation
    fields = ("created", "game_version", "ok", "reference_progress", "null_progress", "deterministic", "problems",
              "last_frame", "requested")
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0

    @admin.display(description="requested by")
    def requested(self, validation):
        return validation.requested_by or "the site's set-up (load_games)"

    @admin.display(description="reference's last frame")
    def last_frame(self, validation):
        if not validation.frame_png:
            return "–"
        data = base64.b64encode(bytes(validation.frame_png)).decode()
        return format_html('<img src="data:image/png;base64,{}" style="max-width:240px">', data)


class TaskForm(forms.ModelForm):
    class Meta:
        model = Task
        fields = ["title", "instruction", "score_field", "start", "target", "max_actions", "step_ms", "seeds",
                  "reference", "null"]


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    """A published version is never edited in place: changing what it measures saves a new version."""

    form = TaskForm
    list_display = ("__str__", "title", "score_field", "start", "target", "max_actions", "step_ms", "published",
                    "validation")
    list_filter = ("game",)
    search_fields = ("slug", "title", "instruction")
    inlines = [TaskValidationInline]
    actions = ["validate"]
    readonly_fields = ("calibration_card",)

    @admin.display(description="calibration card")
    def calibration_card(self, task):
        summary = task.calibration_summary()
        if summary is None:
            return (f"Not calibrated: run `python -m sandbox calibrate {task.game.slug}` on the bundle and import "
                    "it again (a new task version made here needs a new card).")
        return render_to_string("admin/evaluator/task/calibration_card.html", {"card": summary})

    @admin.display(boolean=True)
    def published(self, task):
        return task.is_published

    @admin.display(description="validation")
    def validation(self, task):
        latest = curation.latest_validation(task)
        if latest is None:
            return "not validated"
        return "passed" if latest.ok else f"FAILED: {latest.problems.splitlines()[0]}"

    @admin.action(description="Validate: reference reaches, null does not, replays identical, calibration gate")
    def validate(self, request, queryset):
        queue_validations(self, request, queryset)

    def has_add_permission(self, request):
        return False  # tasks come from game bundles; new versions from edits here

    def save_model(self, request, task, form, change):
        original = Task.objects.get(pk=task.pk)
        changes = {name: form.cleaned_data[name] for name in form.changed_data}
        saved = curation.edit_task(actor=request.user, task=original, changes=changes)
        task.pk = saved.pk  # the response goes to the version that now holds the change
        if saved.pk != original.pk:
            self.message_user(request, f"{original.task_id} is published or has runs, so the change was saved as "
                                       f"{saved.task_id}; the old version and its figures are unchanged.",
                              messages.WARNING)


@admin.register(TaskSet)
class TaskSetAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "status", "is_default", "task_count", "published_at")
    list_filter = ("status",)
    filter_horizontal = ("tasks",)
    actions = ["validate_tasks", "publish", "retire", "make_default"]

    def get_readonly_fields(self, request, task_set=None):
        # A published task set is a frozen list: leaderboards computed on it must stay reproducible.
        frozen = ("tasks", "slug", "status", "is_default", "created", "published_at")
        return frozen if task_set and task_set.frozen else ("status", "is_default", "created", "published_at")

    @admin.display(description="tasks")
    def task_count(self, task_set):
        return task_set.tasks.count()

    @admin.action(description="Validate every task of the selected task sets")
    def validate_tasks(self, request, queryset):
        queue_validations(self, request, Task.objects.filter(task_sets__in=queryset).distinct())

    def _each(self, request, queryset, action, done):
        for task_set in queryset:
            try:
                action(actor=request.user, task_set=task_set)
                self.message_user(request, f"{task_set}: {done}.")
            except curation.CurationRefused as exc:
                self.message_user(request, str(exc), messages.ERROR)

    @admin.action(description="Publish (every task must pass validation)")
    def publish(self, request, queryset):
        self._each(request, queryset, curation.publish_task_set, "published")

    @admin.action(description="Retire (stays browsable, takes no new submissions)")
    def retire(self, request, queryset):
        self._each(request, queryset, curation.retire_task_set, "retired")

    @admin.action(description="Make the default task set of the leaderboard")
    def make_default(self, request, queryset):
        self._each(request, queryset, curation.make_default, "now the default")

    def save_model(self, request, task_set, form, change):
        super().save_model(request, task_set, form, change)
        curation.audit(actor=request.user, action="edited task set" if change else "created task set",
                       target=task_set, changes={"fields": form.changed_data})


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
            curation.reverify_submission(actor=request.user, submission=submission)
        self.message_user(request, f"{queryset.count()} submission(s) queued for verification again.")

    def save_model(self, request, submission, form, change):
        curation.moderate_submission(actor=request.user, submission=Submission.objects.get(pk=submission.pk),
                                     flag_reason=form.cleaned_data["flag_reason"],
                                     hidden=form.cleaned_data["hidden"], is_baseline=form.cleaned_data["is_baseline"])


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "by", "action", "target_type", "target", "changes")
    list_filter = ("action", "target_type", "actor")
    search_fields = ("target", "action")
    date_hierarchy = "at"

    @admin.display(description="by", ordering="actor")
    def by(self, entry):
        return entry.actor or "the site's set-up (load_games)"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created", "last_used", "revoked_at")
    readonly_fields = ("user", "hint", "created", "last_used")
    fields = ("user", "name", "hint", "created", "last_used", "revoked_at")

    def has_add_permission(self, request):
        return False  # keys are issued by their owners on the account page, shown once


class SiteSettingsAdmin(AuditedAdmin):
    """One row: it can be edited, not added twice or deleted."""

    def has_add_permission(self, request):
        return not self.model.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(UploadLimits)
class UploadLimitsAdmin(SiteSettingsAdmin):
    list_display = ("__str__", "max_file_bytes", "max_runs", "max_actions_per_run", "max_submissions_per_day")


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

    list_display = ("pk", "user", "agent_name", "protocol", "sealed", "task_set", "status", "submission", "created")
    list_filter = ("status", "sealed", "protocol", "task_set")
    search_fields = ("user__username", "agent__name")
    readonly_fields = ("user", "task_set", "protocol", "sealed", "agent", "status", "submission", "created",
                       "submitted_at")
    inlines = [HostedEpisodeInline]

    @admin.display(description="agent")
    def agent_name(self, obj):
        return obj.agent.get("name", "?")

    def has_add_permission(self, request):
        return False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ("__str__", "submission", "status", "progress", "success", "attempts", "mismatch")
    list_filter = ("status", "mismatch")


# Registered Game Boy ROMs: uploaded from a maintainer's own legal copy, stored privately, never served.

class RegisteredRomForm(forms.ModelForm):
    rom_file = forms.FileField(
        required=False, label="ROM file",
        help_text="A Game Boy ROM (.gb/.gbc) dumped from your own legal copy. It is stored outside the static and "
                  "media roots, pinned by its sha256, and never served or offered for download.")

    DECLARED = ["title", "slug", "version", "genre", "level", "description", "provenance", "keys",
                "semantic_actions", "fields", "state_fields", "rules", "seed", "press_frames", "release_frames",
                "tasks", "boot_frames", "start_actions"]

    class Meta:
        model = RegisteredRom
        fields = ["title", "slug", "version", "genre", "level", "description", "provenance", "keys",
                  "semantic_actions", "fields", "state_fields", "rules", "seed", "press_frames", "release_frames",
                  "tasks", "boot_frames", "start_actions"]

    # Where a manifest error's field lands in this form.
    ERROR_FIELDS = (("gameboy.fields", "fields"), ("gameboy.actionable", "rules"), ("gameboy.status", "rules"),
                    ("gameboy.terminal", "rules"), ("gameboy.seed", "seed"), ("gameboy.press_frames", "press_frames"),
                    ("gameboy.release_frames", "release_frames"), ("state_fields", "state_fields"), ("tasks", "tasks"),
                    ("keys", "keys"), ("semantic_actions", "semantic_actions"), ("slug", "slug"),
                    ("title", "title"), ("version", "version"))

    def clean(self):
        from sandbox import ManifestError, RomError, registry

        cleaned = super().clean()
        self.rom_upload = None
        upload = cleaned.get("rom_file")
        data = None
        if upload:
            data = upload.read(roms.ROM_UPLOAD_MAX_BYTES + 1)
            try:
                info = roms.inspect_rom_upload(data=data, name=upload.name)
            except RomError as exc:
                self.add_error("rom_file", str(exc))
                return cleaned
            if self.instance.pk and info.sha256 != self.instance.sha256:
                self.add_error("rom_file", "This registration is pinned to another ROM (its start state and tasks "
                                           "belong to it): register this file as a new ROM.")
                return cleaned
            other = RegisteredRom.objects.filter(sha256=info.sha256).exclude(pk=self.instance.pk).first()
            if other is not None:
                self.add_error("rom_file", f"This ROM is already registered as “{other.title}” ({other.slug}).")
                return cleaned
            self.rom_upload = (data, info)
        elif not self.instance.pk:
            self.add_error("rom_file", "Choose the ROM file (from your own legal copy).")
            return cleaned
        slug = cleaned.get("slug")
        if slug and slug in registry.slugs():
            self.add_error("slug", f"“{slug}” is the slug of a bundled game.")
        if self.errors:
            return cleaned
        candidate = RegisteredRom(**{name: cleaned.get(name) for name in self.DECLARED},
                                  sha256=self.rom_upload[1].sha256 if self.rom_upload else self.instance.sha256,
                                  start_state=self.instance.start_state)
        try:
            roms.validate_rom_declarations(rom=candidate,
                                               rom_bytes=data if data is not None else self.instance.rom_path.read_bytes())
        except ManifestError as exc:
            target = next((form_field for prefix, form_field in self.ERROR_FIELDS if exc.field.startswith(prefix)), None)
            self.add_error(target, f"{exc.field}: {exc.problem}")
        except OSError as exc:
            self.add_error(None, f"The stored ROM file cannot be read ({exc}): upload it again.")
        return cleaned


@admin.register(RegisteredRom)
class RegisteredRomAdmin(AuditedAdmin):
    form = RegisteredRomForm
    list_display = ("title", "slug", "header_title", "cartridge", "short_sha256", "has_start_state", "task_count",
                    "uploaded_by")
    search_fields = ("title", "slug", "header_title", "sha256")
    readonly_fields = ("sha256", "size", "header_title", "cartridge", "has_rtc", "storage", "start_state_summary",
                       "play_to_start", "uploaded_by", "created", "updated")
    fieldsets = (
        (None, {"fields": ("rom_file", "title", "slug", "version", "genre", "level", "description", "provenance")}),
        ("Pinned ROM", {"fields": ("sha256", "size", "header_title", "cartridge", "has_rtc", "storage")}),
        ("State fields (RAM)", {"fields": ("fields", "state_fields", "rules", "seed")}),
        ("Actions", {"fields": ("keys", "semantic_actions", "press_frames", "release_frames")}),
        ("Tasks", {"fields": ("tasks",)}),
        ("Start state", {"fields": ("play_to_start", "boot_frames", "start_actions", "start_state_summary"),
                         "description": "Captured from power-on: boot frames, then the start actions. Play the ROM "
                                        "to its start in the play page (it records the start actions and saves the "
                                        "state), or write the actions here and use the “Capture the start "
                                        "state” action."}),
        (None, {"fields": ("uploaded_by", "created", "updated")}),
    )
    actions = ["capture_start_state", "check_tasks", "add_to_library"]

    def get_changeform_initial_data(self, request):
        return {"keys": list(GAMEBOY_BUTTONS), "fields": {"score": {"address": "0xC0A0", "size": 2}},
                "state_fields": {"score": "What the score counts."},
                "rules": {"actionable": {"field": "score", "ge": 0}},
                "tasks": [], "semantic_actions": [], "start_actions": []}

    @admin.display(description="sha256")
    def short_sha256(self, rom):
        return rom.sha256[:12]

    @admin.display(boolean=True, description="start state")
    def has_start_state(self, rom):
        return bool(rom.start_state)

    @admin.display(description="tasks")
    def task_count(self, rom):
        return len(rom.tasks or [])

    @admin.display(description="stored")
    def storage(self, rom):
        if not rom.sha256:
            return "—"
        present = rom.rom_path.is_file()
        return f"privately, as <DATA_DIR>/roms/{rom.sha256}.gb ({'present' if present else 'MISSING'}); never served"

    @admin.display(description="start state")
    def start_state_summary(self, rom):
        from sandbox.backends.gameboy.state import read_header

        if not rom.start_state:
            return "none yet: save, then run the “Capture the start state” action"
        header, _ = read_header(bytes(rom.start_state))
        return (f"{len(rom.start_state)} bytes, sha256 {rom.start_state_sha256[:12]}, after {header.get('frames')} "
                f"frames and {len(header.get('actions') or [])} actions, for ROM {header['rom_sha256'][:12]}")

    def save_model(self, request, rom, form, change):
        upload = getattr(form, "rom_upload", None)
        if upload is not None:
            data, _ = upload
            info = roms.store_rom_file(data=data)
            rom.sha256, rom.size, rom.header_title = info.sha256, info.size, info.title[:16]
            rom.cartridge, rom.has_rtc = info.cartridge_name, info.has_rtc
        if not change:
            rom.uploaded_by = request.user
        super().save_model(request, rom, form, change)

    @admin.display(description="play to the start")
    def play_to_start(self, rom):
        if not rom.pk:
            return "save the ROM first"
        return format_html('<a href="{}">Play the ROM to its start and save the start state</a>',
                           reverse("humanplay:rom_capture", args=[rom.pk]))

    @admin.action(description="Capture the start state (power-on, boot frames, start actions)")
    def capture_start_state(self, request, queryset):
        from sandbox import SandboxError

        for rom in queryset:
            try:
                header = roms.capture_rom_start_state(rom=rom)
            except (SandboxError, OSError) as exc:
                self.message_user(request, f"{rom.slug}: no start state: {exc}", messages.ERROR)
                continue
            self.message_user(request, f"{rom.slug}: start state captured after {header['frames']} frames and "
                                       f"{len(header.get('actions') or [])} actions.")

    @admin.action(description="Check the tasks (reference reaches the target, null does not)")
    def check_tasks(self, request, queryset):
        for rom in queryset:
            lines = roms.check_rom_tasks(rom=rom)
            failed = any(not line.startswith("ok ") for line in lines)
            self.message_user(request, f"{rom.slug}: " + "; ".join(lines), messages.WARNING if failed else messages.SUCCESS)

    @admin.action(description="Add to the game library (import as a game version, private: the ROM is never served)")
    def add_to_library(self, request, queryset):
        import tempfile

        from sandbox import SandboxError

        for rom in queryset:
            if not rom.start_state:
                self.message_user(request, f"{rom.slug}: capture a start state first", messages.ERROR)
                continue
            with tempfile.TemporaryDirectory(prefix="gameworld-rom-") as scratch:
                try:
                    folder = roms.write_rom_bundle(rom=rom, folder=Path(scratch) / rom.slug).bundle_dir
                    spec, report = curation.import_bundle(actor=request.user, source_dir=folder)
                except (SandboxError, BundleRejected, bundle_loading.BundleConflict) as exc:
                    self.message_user(request, f"{rom.slug}: not added: {exc}", messages.ERROR)
                    continue
            frame = bundle_loading.capture_frame(game_spec=curation.stored_game(spec))
            bundle_loading.store_frame(game=Game.objects.get(slug=spec.slug), png=frame)
            self.message_user(request, f"{rom.slug}: in the library as {spec.title} {spec.version} with "
                                       f"{len(spec.tasks)} task(s); it plays, uploads and verifies like any game.")
