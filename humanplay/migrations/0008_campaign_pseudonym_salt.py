import secrets

from django.db import migrations, models

import humanplay.models


def give_each_campaign_its_salt(apps, schema_editor):
    """A default given by AddField is one value for every existing row: each campaign draws its own here."""
    Campaign = apps.get_model("humanplay", "Campaign")
    for campaign in Campaign.objects.only("pk"):
        Campaign.objects.filter(pk=campaign.pk).update(pseudonym_salt=secrets.token_hex(32))


class Migration(migrations.Migration):

    dependencies = [
        ('humanplay', '0007_recorded_attempts_sealed'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='pseudonym_salt',
            field=models.CharField(default='', editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(give_each_campaign_its_salt, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='campaign',
            name='pseudonym_salt',
            field=models.CharField(default=humanplay.models.new_pseudonym_salt, editable=False, help_text='Keys the volunteers\' pseudonyms; never shown.', max_length=64),
        ),
    ]
