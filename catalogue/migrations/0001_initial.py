"""The catalogue's models, moved here from the evaluator app: this only takes them into the catalogue's state.
Their tables are renamed and their content types carried over by evaluator 0013, so no row is lost."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('evaluator', '0012_run_claimed_by'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Game',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(unique=True)),
                        ('title', models.CharField(max_length=80)),
                        ('version', models.CharField(help_text='The bundle version currently loaded.', max_length=20)),
                        ('genre', models.CharField(choices=[('arcade', 'Arcade'), ('platformer', 'Platformer'), ('puzzle', 'Puzzle'), ('runner', 'Runner'), ('simulation', 'Simulation')], max_length=20)),
                        ('level', models.PositiveSmallIntegerField(choices=[(1, '1 · basic control and timing'), (2, '2 · reactive control'), (3, '3 · spatial navigation'), (4, '4 · symbolic reasoning'), (5, '5 · open-world management')])),
                        ('backend', models.CharField(default='browser', max_length=20)),
                        ('description', models.TextField(blank=True)),
                        ('manifest', models.JSONField(help_text='The manifest the current version was loaded from.')),
                        ('frame_png', models.BinaryField(blank=True, help_text='A frame of the game, captured by the sandbox.', null=True)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('updated', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'ordering': ['level', 'title'],
                    },
                ),
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('action', models.CharField(max_length=60)),
                        ('target_type', models.CharField(max_length=40)),
                        ('target_id', models.CharField(blank=True, max_length=40)),
                        ('target', models.CharField(max_length=200)),
                        ('changes', models.JSONField(blank=True, default=dict)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'audit log',
                        'ordering': ['-at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='RegisteredRom',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('title', models.CharField(max_length=80)),
                        ('slug', models.SlugField(help_text="The game's slug, e.g. “tetris-dx”.", max_length=49, unique=True)),
                        ('version', models.CharField(default='1.0.0', max_length=20)),
                        ('genre', models.CharField(choices=[('arcade', 'Arcade'), ('platformer', 'Platformer'), ('puzzle', 'Puzzle'), ('runner', 'Runner'), ('simulation', 'Simulation')], max_length=20)),
                        ('level', models.PositiveSmallIntegerField(choices=[(1, '1 · basic control and timing'), (2, '2 · reactive control'), (3, '3 · spatial navigation'), (4, '4 · symbolic reasoning'), (5, '5 · open-world management')])),
                        ('description', models.TextField(blank=True)),
                        ('provenance', models.TextField(help_text='Whose legal copy this is and how it was dumped. The platform never ships a commercial ROM.')),
                        ('sha256', models.CharField(editable=False, max_length=64, unique=True)),
                        ('size', models.PositiveIntegerField(editable=False)),
                        ('header_title', models.CharField(blank=True, editable=False, max_length=16)),
                        ('cartridge', models.CharField(editable=False, max_length=40)),
                        ('has_rtc', models.BooleanField(default=False, editable=False)),
                        ('keys', models.JSONField(default=list, help_text='The buttons agents may press, of a, b, start, select, up, down, left, right.')),
                        ('semantic_actions', models.JSONField(blank=True, default=list, help_text='As in a manifest: [{"name", "description", "action"}].')),
                        ('fields', models.JSONField(help_text='RAM fields by name, one of them "score": {"score": {"address": "0xC0A0", "size": 2, "bcd": true, "endian": "big"}, ...}.')),
                        ('state_fields', models.JSONField(help_text='A sentence for each field shown to agents and people.')),
                        ('rules', models.JSONField(help_text='{"actionable": condition, "status": {...}, "terminal": {"lose": {"when": condition, "reason": "..."}}}')),
                        ('seed', models.JSONField(blank=True, help_text='Where the seed is written, if the game has such a place: {"address", "size"}.', null=True)),
                        ('press_frames', models.PositiveSmallIntegerField(default=5)),
                        ('release_frames', models.PositiveSmallIntegerField(default=14)),
                        ('tasks', models.JSONField(blank=True, default=list, help_text='Tasks as in a manifest (slug, title, instruction, score_field, start, target, ...).')),
                        ('boot_frames', models.PositiveIntegerField(default=0, help_text='Frames run from power-on before the start actions.')),
                        ('start_actions', models.JSONField(blank=True, default=list, help_text='Game Boy button actions from power-on to the start, e.g. [{"type": "press_key", "key": "start"}, {"type": "wait"}].')),
                        ('start_state', models.BinaryField(blank=True, help_text='The captured start state (a GameWorld state file of this ROM).', null=True)),
                        ('start_state_sha256', models.CharField(blank=True, editable=False, max_length=64)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('updated', models.DateTimeField(auto_now=True)),
                        ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registered_roms', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'registered Game Boy ROM',
                        'ordering': ['title'],
                    },
                ),
                migrations.CreateModel(
                    name='Task',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField()),
                        ('version', models.PositiveIntegerField()),
                        ('game_version', models.CharField(max_length=20)),
                        ('title', models.CharField(max_length=120)),
                        ('instruction', models.TextField()),
                        ('score_field', models.CharField(max_length=100)),
                        ('start', models.JSONField(help_text='A number, or "state": the score at the first ready frame.')),
                        ('target', models.FloatField()),
                        ('max_actions', models.PositiveIntegerField(default=100)),
                        ('step_ms', models.PositiveIntegerField(default=200)),
                        ('seeds', models.JSONField()),
                        ('reference', models.JSONField(help_text='A trajectory that reaches the target (seed + actions).')),
                        ('null', models.JSONField(help_text='A trajectory that must not reach the target.')),
                        ('calibration', models.JSONField(blank=True, editable=False, help_text="The task's calibration card from its bundle's calibration.json (random floor, solver, frames), checked when the task is validated.", null=True)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tasks', to='catalogue.game')),
                    ],
                    options={
                        'ordering': ['game__level', 'game__title', 'target', 'slug', 'version'],
                        'permissions': [('validate_task', 'Can validate tasks and import game bundles')],
                    },
                ),
                migrations.CreateModel(
                    name='TaskSet',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(unique=True)),
                        ('name', models.CharField(max_length=80)),
                        ('description', models.TextField(blank=True)),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('retired', 'Retired')], default='draft', max_length=12)),
                        ('is_default', models.BooleanField(default=False, help_text='The task set the leaderboard shows first.')),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('published_at', models.DateTimeField(blank=True, null=True)),
                        ('tasks', models.ManyToManyField(related_name='task_sets', to='catalogue.task')),
                    ],
                    options={
                        'ordering': ['-published_at', 'name'],
                        'permissions': [('publish_taskset', 'Can validate, publish, retire task sets and choose the default')],
                    },
                ),
                migrations.CreateModel(
                    name='TaskValidation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game_version', models.CharField(max_length=20)),
                        ('ok', models.BooleanField()),
                        ('reference_progress', models.FloatField(null=True)),
                        ('reference_success', models.BooleanField(null=True)),
                        ('null_progress', models.FloatField(null=True)),
                        ('null_success', models.BooleanField(null=True)),
                        ('deterministic', models.BooleanField(help_text='Two replays of the reference gave the same trace.', null=True)),
                        ('trace_sha256', models.CharField(blank=True, max_length=64)),
                        ('problems', models.TextField(blank=True)),
                        ('frame_png', models.BinaryField(help_text="The reference run's last frame.", null=True)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('task', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='validations', to='catalogue.task')),
                    ],
                    options={
                        'ordering': ['-created'],
                        'get_latest_by': 'created',
                    },
                ),
                migrations.AddConstraint(
                    model_name='task',
                    constraint=models.UniqueConstraint(fields=('game', 'slug', 'version'), name='unique_task_version'),
                ),
                migrations.AddConstraint(
                    model_name='taskset',
                    constraint=models.UniqueConstraint(condition=models.Q(('is_default', True)), fields=('is_default',), name='one_default_task_set'),
                ),

            ],
        ),
    ]
