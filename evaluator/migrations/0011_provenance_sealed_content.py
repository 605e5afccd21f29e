"""Provenance, sealed episodes and duplicates by content. Existing submissions become `hosted` when a hosted
evaluation made them, else `uploaded` (no sealed evaluation existed before); each gets its content hash from its
stored runs, and one with the same runs as an earlier entry (the old board's copies, by file hash) becomes a
copy of it. The file hash goes: the content hash is the one identity of a submission."""
import django.db.models.deletion
from django.db import migrations, models

from submissions.uploads import content_sha256


def provenance_and_content(apps, schema_editor):
    Submission = apps.get_model("evaluator", "Submission")
    Run = apps.get_model("evaluator", "Run")
    Submission.objects.filter(hosted_evaluation__isnull=False).update(provenance="hosted")
    originals = {}
    for submission in Submission.objects.select_related("task_set").order_by("pk").iterator():
        runs = Run.objects.filter(submission=submission).select_related("task__game").order_by("pk")
        submission.content_sha256 = content_sha256(
            task_set=submission.task_set.slug, protocol=submission.protocol, interface=submission.interface,
            runs=((f"{run.task.game.slug}/{run.task.slug}@{run.task.version}", run.seed, run.actions)
                  for run in runs.iterator()))
        if submission.status != "rejected":
            submission.copy_of_id = originals.setdefault((submission.task_set_id, submission.content_sha256),
                                                         submission.pk)
            if submission.copy_of_id == submission.pk:
                submission.copy_of_id = None
        submission.save(update_fields=["content_sha256", "copy_of"])


class Migration(migrations.Migration):

    dependencies = [
        ('evaluator', '0010_submission_entry_facts'),
    ]

    operations = [
        migrations.AddField(
            model_name='hostedepisode',
            name='commitment',
            field=models.CharField(blank=True, help_text="A sealed episode's commitment to its seed.", max_length=64),
        ),
        migrations.AddField(
            model_name='hostedepisode',
            name='number',
            field=models.PositiveIntegerField(blank=True, help_text="A sealed episode's number (1, 2, ...) within its task.", null=True),
        ),
        migrations.AddField(
            model_name='hostedepisode',
            name='salt',
            field=models.CharField(blank=True, help_text='Secret until the evaluation is submitted.', max_length=32),
        ),
        migrations.AddField(
            model_name='hostedevaluation',
            name='sealed',
            field=models.BooleanField(default=False, help_text="The server draws each episode's seed and reveals it on submission; the agent asks for an episode number."),
        ),
        migrations.AddField(
            model_name='run',
            name='commitment',
            field=models.CharField(blank=True, help_text='sha256 of f"{seed}:{salt}", shown when the episode opened.', max_length=64),
        ),
        migrations.AddField(
            model_name='run',
            name='salt',
            field=models.CharField(blank=True, help_text='Revealed with the seed on submission.', max_length=32),
        ),
        migrations.AddField(
            model_name='submission',
            name='content_sha256',
            field=models.CharField(blank=True, db_index=True, help_text="The identity of the runs whatever the bytes: task set, protocol, interface and every run's task, seed and actions, canonically (submissions/uploads.py content_sha256).", max_length=64),
        ),
        migrations.AddField(
            model_name='submission',
            name='copy_of',
            field=models.ForeignKey(blank=True, help_text='The earlier entry with the same runs (any account, baselines included): a copy is shown, never ranked.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='copies', to='evaluator.submission'),
        ),
        migrations.AddField(
            model_name='submission',
            name='provenance',
            field=models.CharField(choices=[('sealed', 'Sealed (hosted, seeds drawn by the server)'), ('hosted', 'Hosted on public seeds'), ('uploaded', 'Uploaded')], db_index=True, default='uploaded', help_text='How the runs were made, set by the server from the path the submission came by (never read from a file): only sealed entries rank on the default board.', max_length=10),
        ),
        migrations.AlterField(
            model_name='hostedepisode',
            name='seed',
            field=models.PositiveBigIntegerField(help_text='In a sealed evaluation: secret until it is submitted.'),
        ),
        migrations.AddConstraint(
            model_name='hostedepisode',
            constraint=models.UniqueConstraint(condition=models.Q(('number__isnull', False)), fields=('evaluation', 'task', 'number'), name='one_sealed_episode_per_number'),
        ),
        migrations.RunPython(provenance_and_content, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='submission',
            name='payload_sha256',
        ),
    ]
