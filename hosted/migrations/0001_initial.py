"""Hosted evaluations, moved here from the evaluator app: this only takes them into the state. Their tables are
renamed and their content types carried over by evaluator 0013, so no row is lost."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('evaluator', '0012_run_claimed_by'),
        ('catalogue', '0001_initial'),
        ('submissions', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
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
                migrations.CreateModel(
                    name='HostedEvaluation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('protocol', models.CharField(choices=[('paused', 'Paused clock'), ('realtime', 'Realtime')], default='paused', max_length=12)),
                        ('sealed', models.BooleanField(default=False, help_text="The server draws each episode's seed and reveals it on submission; the agent asks for an episode number.")),
                        ('agent', models.JSONField(help_text='The agent block of the submission it becomes (name, model, interface, ...).')),
                        ('status', models.CharField(choices=[('open', 'Open'), ('submitted', 'Submitted'), ('expired', 'Expired')], db_index=True, default='open', max_length=10)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_active_at', models.DateTimeField(default=django.utils.timezone.now, help_text='Its last begin, reset or action.')),
                        ('submitted_at', models.DateTimeField(blank=True, null=True)),
                        ('submission', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='hosted_evaluation', to='submissions.submission')),
                        ('task_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_evaluations', to='catalogue.taskset')),
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
                        ('seed', models.PositiveBigIntegerField(help_text='In a sealed evaluation: secret until it is submitted.')),
                        ('number', models.PositiveIntegerField(blank=True, help_text="A sealed episode's number (1, 2, ...) within its task.", null=True)),
                        ('commitment', models.CharField(blank=True, help_text="A sealed episode's commitment to its seed.", max_length=64)),
                        ('salt', models.CharField(blank=True, help_text='Secret until the evaluation is submitted.', max_length=32)),
                        ('status', models.CharField(choices=[('active', 'In play'), ('finished', 'Finished')], default='active', max_length=10)),
                        ('progress', models.FloatField(blank=True, help_text="The live sandbox's figure at the end.", null=True)),
                        ('success', models.BooleanField(blank=True, null=True)),
                        ('trace_sha256', models.CharField(blank=True, max_length=64)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_action_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('task', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hosted_episodes', to='catalogue.task')),
                        ('evaluation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='episodes', to='hosted.hostedevaluation')),
                    ],
                    options={
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='HostedAction',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveIntegerField()),
                        ('action', models.JSONField()),
                        ('applied_at', models.DateTimeField(auto_now_add=True)),
                        ('episode', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='hosted.hostedepisode')),
                    ],
                    options={
                        'ordering': ['index'],
                        'abstract': False,
                        'constraints': [models.UniqueConstraint(fields=('episode', 'index'), name='one_hosted_action_per_step')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='hostedepisode',
                    constraint=models.UniqueConstraint(fields=('evaluation', 'task', 'seed'), name='one_episode_per_task_seed'),
                ),
                migrations.AddConstraint(
                    model_name='hostedepisode',
                    constraint=models.UniqueConstraint(condition=models.Q(('number__isnull', False)), fields=('evaluation', 'task', 'number'), name='one_sealed_episode_per_number'),
                ),

            ],
        ),
    ]
