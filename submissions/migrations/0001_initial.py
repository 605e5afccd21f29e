"""Submissions, runs, API tokens and upload limits, moved here from the evaluator app: this only takes them into
the state. Their tables are renamed and their content types carried over by evaluator 0013, so no row is lost."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('evaluator', '0012_run_claimed_by'),
        ('catalogue', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='UploadLimits',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('max_file_bytes', models.PositiveIntegerField(default=5242880)),
                        ('max_runs', models.PositiveIntegerField(default=1000, help_text='Runs per submission.')),
                        ('max_actions_per_run', models.PositiveIntegerField(default=1000)),
                        ('max_submissions_per_day', models.PositiveIntegerField(default=20, help_text='Per user, over the last 24 hours.')),
                    ],
                    options={
                        'verbose_name': 'upload limits',
                        'verbose_name_plural': 'upload limits',
                    },
                ),
                migrations.CreateModel(
                    name='ApiToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=60)),
                        ('key_hash', models.CharField(editable=False, max_length=64, unique=True)),
                        ('hint', models.CharField(editable=False, help_text="The key's first characters.", max_length=12)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_used', models.DateTimeField(blank=True, null=True)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['-created'],
                    },
                ),
                migrations.CreateModel(
                    name='Submission',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('agent_name', models.CharField(max_length=80)),
                        ('model_name', models.CharField(max_length=120)),
                        ('organisation', models.CharField(blank=True, max_length=120)),
                        ('interface', models.CharField(choices=[('cua', 'Computer-use'), ('generalist', 'Generalist')], max_length=12)),
                        ('memory_rounds', models.PositiveIntegerField(default=0)),
                        ('url', models.URLField(blank=True)),
                        ('notes', models.TextField(blank=True)),
                        ('code_url', models.URLField(blank=True)),
                        ('paper_url', models.URLField(blank=True)),
                        ('weights', models.CharField(blank=True, choices=[('open', 'Open weights'), ('closed', 'Closed weights')], max_length=8)),
                        ('tuned_on_benchmark', models.BooleanField(blank=True, null=True)),
                        ('reported_tokens_per_step', models.FloatField(blank=True, null=True)),
                        ('reported_seconds_per_step', models.FloatField(blank=True, null=True)),
                        ('reported_cost_per_step_usd', models.FloatField(blank=True, null=True)),
                        ('protocol', models.CharField(choices=[('paused', 'Paused clock'), ('realtime', 'Realtime')], default='paused', max_length=12)),
                        ('status', models.CharField(choices=[('received', 'Received'), ('queued', 'Queued'), ('verifying', 'Verifying'), ('verified', 'Verified'), ('rejected', 'Rejected')], db_index=True, default='received', max_length=12)),
                        ('runs_total', models.PositiveIntegerField(default=0)),
                        ('runs_done', models.PositiveIntegerField(default=0)),
                        ('reason', models.TextField(blank=True, help_text='Why the submission was rejected.')),
                        ('provenance', models.CharField(choices=[('sealed', 'Sealed (hosted, seeds drawn by the server)'), ('hosted', 'Hosted on public seeds'), ('uploaded', 'Uploaded')], db_index=True, default='uploaded', help_text='How the runs were made, set by the server from the path the submission came by (never read from a file): only sealed entries rank on the default board.', max_length=10)),
                        ('content_sha256', models.CharField(blank=True, db_index=True, help_text="The identity of the runs whatever the bytes: task set, protocol, interface and every run's task, seed and actions, canonically (submissions/uploads.py content_sha256).", max_length=64)),
                        ('flag_reason', models.TextField(blank=True, help_text='Shown publicly beside a flagged or hidden submission.')),
                        ('hidden', models.BooleanField(default=False, help_text='Kept out of every leaderboard figure.')),
                        ('is_baseline', models.BooleanField(default=False, help_text="A reference agent of the platform's own.")),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('updated', models.DateTimeField(auto_now=True)),
                        ('copy_of', models.ForeignKey(blank=True, help_text='The earlier entry with the same runs (any account, baselines included): a copy is shown, never ranked.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='copies', to='submissions.submission')),
                        ('task_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='submissions', to='catalogue.taskset')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'ordering': ['-created'],
                        'permissions': [('curate_submission', 'Can flag, hide, mark as baseline and re-verify submissions')],
                    },
                ),
                migrations.CreateModel(
                    name='Run',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('agent', 'Agent'), ('novice', 'Human (novice)'), ('expert', 'Human (expert)')], db_index=True, default='agent', help_text="An agent's run (from a submission) or a human baseline run.", max_length=10)),
                        ('seed', models.PositiveBigIntegerField()),
                        ('actions', models.JSONField()),
                        ('claimed_progress', models.FloatField(blank=True, null=True)),
                        ('claimed_success', models.BooleanField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('pending', 'Pending'), ('running', 'Replaying'), ('verified', 'Verified'), ('failed', 'Could not replay')], db_index=True, default='pending', max_length=12)),
                        ('progress', models.FloatField(blank=True, null=True)),
                        ('success', models.BooleanField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(blank=True, null=True)),
                        ('actions_used', models.PositiveIntegerField(blank=True, null=True)),
                        ('invalid_actions', models.PositiveIntegerField(blank=True, null=True)),
                        ('trace_sha256', models.CharField(blank=True, max_length=64)),
                        ('commitment', models.CharField(blank=True, help_text='sha256 of f"{seed}:{salt}", shown when the episode opened.', max_length=64)),
                        ('salt', models.CharField(blank=True, help_text='Revealed with the seed on submission.', max_length=32)),
                        ('mismatch', models.BooleanField(default=False, help_text='The claim differs from the verified replay.')),
                        ('error', models.TextField(blank=True)),
                        ('claimed_at', models.DateTimeField(blank=True, help_text='When a worker took it (a lease).', null=True)),
                        ('claimed_by', models.CharField(blank=True, help_text='The process holding the lease, as "host:pid".', max_length=255)),
                        ('verify_attempts', models.PositiveIntegerField(default=0)),
                        ('verified_at', models.DateTimeField(blank=True, null=True)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('player', models.ForeignKey(blank=True, help_text='The person who played a human run.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='baseline_runs', to=settings.AUTH_USER_MODEL)),
                        ('task', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='catalogue.task')),
                        ('submission', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='runs', to='submissions.submission')),
                    ],
                    options={
                        'ordering': ['task', 'seed', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='SubmissionEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('message', models.TextField()),
                        ('submission', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='submissions.submission')),
                    ],
                    options={
                        'ordering': ['at', 'pk'],
                    },
                ),

            ],
        ),
    ]
