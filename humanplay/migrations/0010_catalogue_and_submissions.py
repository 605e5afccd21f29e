"""The foreign keys to tasks, task sets, games and runs now name the catalogue's and submissions' models. The
tables are the same (evaluator 0013 renames them and the database keeps the keys pointing at them), so this
changes the state only; the baseline coverage proxy is taken over by the catalogue's Task the same way."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0001_initial'),
        ('humanplay', '0009_consent_withdrawal'),
        ('submissions', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='assignment',
                    name='run',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='assignment', to='submissions.run'),
                ),
                migrations.AlterField(
                    model_name='assignment',
                    name='task',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='campaign_assignments', to='catalogue.task'),
                ),
                migrations.AlterField(
                    model_name='campaign',
                    name='task_set',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='campaigns', to='catalogue.taskset'),
                ),
                migrations.AlterField(
                    model_name='expertdesignation',
                    name='game',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, to='catalogue.game'),
                ),
                migrations.AlterField(
                    model_name='playsession',
                    name='run',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='play_session', to='submissions.run'),
                ),
                migrations.AlterField(
                    model_name='playsession',
                    name='task',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='play_sessions', to='catalogue.task'),
                ),

            ],
        ),
        migrations.DeleteModel(name='BaselineCoverage'),
        migrations.CreateModel(
            name='BaselineCoverage',
            fields=[],
            options={'verbose_name': 'baseline coverage', 'verbose_name_plural': 'baseline coverage', 'proxy': True,
                     'indexes': [], 'constraints': []},
            bases=('catalogue.task',),
        ),
    ]
