from django import forms
from django.contrib import admin

from .models import Curriculum, Entry, Round, task_problems


class CurriculumForm(forms.ModelForm):
    class Meta:
        model = Curriculum
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        task_set = cleaned.get("task_set")
        training, held_out = list(cleaned.get("training_tasks") or []), list(cleaned.get("held_out_tasks") or [])
        for problem in task_problems(task_set=task_set, training=training, held_out=held_out):
            self.add_error(None, problem)
        return cleaned


@admin.register(Curriculum)
class CurriculumAdmin(admin.ModelAdmin):
    """Maintainers define curricula; once an entry has begun one, only its wording and listing may change (its
    entries' figures rest on the tasks, rounds and episodes it had)."""

    form = CurriculumForm
    list_display = ("title", "slug", "task_set", "rounds", "episodes_per_round", "published", "entry_count")
    list_filter = ("published",)
    filter_horizontal = ("training_tasks", "held_out_tasks")
    prepopulated_fields = {"slug": ("title",)}

    @admin.display(description="entries")
    def entry_count(self, curriculum):
        return curriculum.entries.count()

    def get_readonly_fields(self, request, curriculum=None):
        if curriculum is not None and curriculum.entries.exists():
            return ("slug", "task_set", "training_tasks", "held_out_tasks", "rounds", "episodes_per_round",
                    "artifact_max_chars")
        return ()


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("index", "artifact", "evaluation", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Agents' ways through a curriculum: read-only (each round's submission is reviewed as any other)."""

    list_display = ("pk", "curriculum", "user", "agent_name", "created")
    list_filter = ("curriculum",)
    readonly_fields = ("curriculum", "user", "agent", "protocol", "created")
    inlines = [RoundInline]

    @admin.display(description="agent")
    def agent_name(self, entry):
        return entry.agent.get("name", "?")

    def has_add_permission(self, request):
        return False
