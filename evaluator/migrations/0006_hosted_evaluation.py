"""Hosted agent evaluation, moved here from humanplay: the tables were renamed by humanplay 0004, so this
only takes the models into the evaluator's state (no table is created and no row is lost), carries the
content types (and so the admin permissions and log) over, and copies the expiry setting."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("hostedaction", "hostedepisode", "hostedevaluation")


def move_content_types(source, target):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        ContentType.objects.filter(app_label=source, model__in=MOVED).update(app_label=target)
    return move


def copy_expiry_setting(apps, schema_editor):
    old = apps.get_model("humanplay", "HumanPlaySettings").objects.filter(pk=1).first()
    if old is not None:
        apps.get_model("evaluator", "HostedEvaluationSettings").objects.update_or_create(
            pk=1, defaults={"hosted_expiry_hours": old.hosted_expiry_hours})


def copy_expiry_setting_back(apps, schema_editor):
    new = apps.get_model("evaluator", "HostedEvaluationSettings").objects.filter(pk=1).first()
    if new is not None:
        apps.get_model("humanplay", "HumanPlaySettings").objects.filter(pk=1).update(
            hosted_expiry_hours=new.hosted_expiry_hours)


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('evaluator', '0005_curation'),
        ('humanplay', '0004_hosted_evaluation_moves_to_evaluator'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='HostedEvaluationSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hosted_expiry_hours', models.PositiveIntegerField(default=24, help_text='An open hosted agent evaluation with no activity for this long expires: its episodes are kept, but it can no longer be played or submitted.')),
            ],
            options={
                'verbose_name': 'hosted evaluation settings',
                'verbose_name_plural': 'hosted evaluation settings',
            },
        ),
        migrations.RunPython(copy_expiry_setting, copy_expiry_setting_back),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='HostedEvaluation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('protocol', models.CharField(default='paused', max_length=12)),
                        ('agent', models.JSONField(help_text='The agent block of the submission it becomes (name, model, interface, ...).')),
                        ('status', models.CharField(choices=[('open', 'Open'), ('submitted', 'Submitted'), ('expired', 'Expired')], db_index=True, default='open', max_length=10)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_active_at', models.DateTimeField(default=django.utils.timezone.now, help_text='Its last begin, reset or action.')),
                        ('submitted_at', models.DateTimeField(blank=True, null=True)),
                        ('submission', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='hosted_evaluation', to='evaluator.submission')),
                        ('task_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_evaluations', to='evaluator.taskset')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hosted_evaluations', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['-created'],
                    },
                ),
                migrations.CreateModel(
                    name='HostedEpisode',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seed', models.PositiveBigIntegerField()),
                        ('status', models.CharField(choices=[('active', 'In play'), ('finished', 'Finished')], default='active', max_length=10)),
                        ('progress', models.FloatField(blank=True, help_text="The live sandbox's figure at the end.", null=True)),
                        ('success', models.BooleanField(blank=True, null=True)),
                        ('trace_sha256', models.CharField(blank=True, max_length=64)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_action_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('task', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_episodes', to='evaluator.task')),
                        ('evaluation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='episodes', to='evaluator.hostedevaluation')),
                    ],
                    options={
                        'ordering': ['pk'],
                        'constraints': [models.UniqueConstraint(fields=('evaluation', 'task', 'seed'), name='one_episode_per_task_seed')],
                    },
                ),
                migrations.CreateModel(
                    name='HostedAction',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveIntegerField()),
                        ('action', models.JSONField()),
                        ('applied_at', models.DateTimeField(auto_now_add=True)),
                        ('episode', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='evaluator.hostedepisode')),
                    ],
                    options={
                        'ordering': ['index'],
                        'abstract': False,
                        'constraints': [models.UniqueConstraint(fields=('episode', 'index'), name='one_hosted_action_per_step')],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types("humanplay", "evaluator"), move_content_types("evaluator", "humanplay")),
    ]
