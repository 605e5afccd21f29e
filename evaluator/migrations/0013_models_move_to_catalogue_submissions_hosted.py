"""The evaluator app splits by concern: its models move to catalogue, submissions and hosted with every row. Here
their tables are renamed to the new apps' names (the database keeps every key pointing at them), the models
leave this app's state (the new apps' 0001 migrations took them in), and their content types follow them, so
permissions, groups and the admin's log are kept."""
from django.db import migrations

MOVED = {
    "catalogue": ("game", "task", "taskset", "registeredrom", "taskvalidation", "auditentry"),
    "submissions": ("submission", "run", "apitoken", "uploadlimits", "submissionevent"),
    "hosted": ("hostedevaluationsettings", "hostedevaluation", "hostedepisode", "hostedaction"),
}


def relabel_content_types(*, back=False):
    """Move the models' content types (and with them their permissions and the admin's log) between apps."""
    def relabel(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for app, models in MOVED.items():
            source, target = (app, "evaluator") if back else ("evaluator", app)
            ContentType.objects.filter(app_label=source, model__in=models).update(app_label=target)
    return relabel


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('hosted', '0001_initial'),
        ('submissions', '0001_initial'),
        ('catalogue', '0001_initial'),
        ('evaluator', '0012_run_claimed_by'),
        ('humanplay', '0010_catalogue_and_submissions'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.AlterModelTable(name=model, table=f"{app}_{model}")
                                 for app, models in MOVED.items() for model in models],
            state_operations=[
                migrations.RemoveField(
                    model_name='apitoken',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='auditentry',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='task',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='hostedaction',
                    name='episode',
                ),
                migrations.RemoveField(
                    model_name='hostedepisode',
                    name='evaluation',
                ),
                migrations.RemoveField(
                    model_name='hostedepisode',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='hostedevaluation',
                    name='submission',
                ),
                migrations.RemoveField(
                    model_name='hostedevaluation',
                    name='task_set',
                ),
                migrations.RemoveField(
                    model_name='hostedevaluation',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='HostedEvaluationSettings',
                ),
                migrations.RemoveField(
                    model_name='registeredrom',
                    name='uploaded_by',
                ),
                migrations.RemoveField(
                    model_name='run',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='run',
                    name='submission',
                ),
                migrations.RemoveField(
                    model_name='run',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='submission',
                    name='copy_of',
                ),
                migrations.RemoveField(
                    model_name='submission',
                    name='task_set',
                ),
                migrations.RemoveField(
                    model_name='submission',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='submissionevent',
                    name='submission',
                ),
                migrations.RemoveField(
                    model_name='taskset',
                    name='tasks',
                ),
                migrations.RemoveField(
                    model_name='taskvalidation',
                    name='task',
                ),
                migrations.RemoveField(
                    model_name='taskvalidation',
                    name='requested_by',
                ),
                migrations.DeleteModel(
                    name='UploadLimits',
                ),
                migrations.DeleteModel(
                    name='ApiToken',
                ),
                migrations.DeleteModel(
                    name='AuditEntry',
                ),
                migrations.DeleteModel(
                    name='Game',
                ),
                migrations.DeleteModel(
                    name='HostedAction',
                ),
                migrations.DeleteModel(
                    name='HostedEpisode',
                ),
                migrations.DeleteModel(
                    name='HostedEvaluation',
                ),
                migrations.DeleteModel(
                    name='RegisteredRom',
                ),
                migrations.DeleteModel(
                    name='Run',
                ),
                migrations.DeleteModel(
                    name='Submission',
                ),
                migrations.DeleteModel(
                    name='SubmissionEvent',
                ),
                migrations.DeleteModel(
                    name='TaskSet',
                ),
                migrations.DeleteModel(
                    name='Task',
                ),
                migrations.DeleteModel(
                    name='TaskValidation',
                ),

            ],
        ),
        migrations.RunPython(relabel_content_types(), relabel_content_types(back=True)),
    ]
