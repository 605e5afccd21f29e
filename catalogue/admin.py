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

from sandbox import ManifestError, registry

from . import bundle_loading, curation, roms
from .bundles import BundleRejected
from .models import GAMEBOY_BUTTONS, AuditEntry, Game, RegisteredRom, Task, TaskSet, TaskValidation
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

    curation.require(request.user, "catalogue.validate_task")
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
    change_list_template = "admin/catalogue/game/change_list.html"

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
        return [path("import/", self.admin_site.admin_view(self.import_bundle), name="catalogue_game_import")] \
            + super().get_urls()

    def import_bundle(self, request):
        if not request.user.has_perm("catalogue.validate_task"):
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
                return redirect("admin:catalogue_game_changelist")
        context = {**self.admin_site.each_context(request), "form": form, "title": "Import a game bundle",
                   "opts": self.model._meta}
        return TemplateResponse(request, "admin/catalogue/game/import.html", context)


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
    # What a maintainer looks for first (validated? published?) right after the task, in view on a laptop's width;
    # what the task measures in full is on its page.
    list_display = ("__str__", "validation", "published", "title", "target", "max_actions", "step_ms")
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
        return render_to_string("admin/catalogue/task/calibration_card.html", {"card": summary})

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


class SiteSettingsAdmin(AuditedAdmin):
    """One row: it can be edited, not added twice or deleted."""

    def has_add_permission(self, request):
        return not self.model.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


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
                           reverse("catalogue:rom_capture", args=[rom.pk]))

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
