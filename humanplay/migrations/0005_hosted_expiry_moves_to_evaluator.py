"""The hosted evaluation expiry setting now lives in evaluator.HostedEvaluationSettings (copied there by
evaluator 0006)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('humanplay', '0004_hosted_evaluation_moves_to_evaluator'),
        ('evaluator', '0006_hosted_evaluation'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='humanplaysettings',
            name='hosted_expiry_hours',
        ),
    ]
