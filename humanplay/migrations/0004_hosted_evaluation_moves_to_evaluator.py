"""Hosted agent evaluation moves to the evaluator app: its tables are renamed to the evaluator's names and
the models leave this app's state; evaluator 0006 takes them over with every row kept."""
from django.db import migrations

MOVED = ("hostedaction", "hostedepisode", "hostedevaluation")


class Migration(migrations.Migration):

    dependencies = [
        ('humanplay', '0003_retention_and_hosted_expiry'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.AlterModelTable(name=name, table=f"evaluator_{name}") for name in MOVED],
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]
