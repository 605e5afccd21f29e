"""Moving hosted evaluation from humanplay to evaluator (and on to the hosted app) keeps every row: an
evaluation, its episode and its actions made before the move are there after it, with the expiry setting."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("humanplay", "0003_retention_and_hosted_expiry"), ("evaluator", "0005_curation")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def old_catalogue(old):
    """A game's task and a task set, made on the models of the migration state `old`."""
    game = old.get_model("evaluator", "Game").objects.create(slug="g", title="G", version="1", genre="arcade",
                                                             level=1, manifest={})
    task = old.get_model("evaluator", "Task").objects.create(game=game, slug="t", version=1, title="T",
                                                             instruction="do", score_field="score", start=0,
                                                             target=1, seeds=[1], game_version="1",
                                                             reference={}, null={})
    return task, old.get_model("evaluator", "TaskSet").objects.create(slug="ts", name="TS")


@pytest.mark.django_db(transaction=True)
def test_rows_made_before_the_move_survive_it():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="early-agent")
    task, task_set = old_catalogue(old)
    evaluation = old.get_model("humanplay", "HostedEvaluation").objects.create(
        user=user, task_set=task_set, agent={"name": "early"})
    episode = old.get_model("humanplay", "HostedEpisode").objects.create(evaluation=evaluation, task=task, seed=1)
    old.get_model("humanplay", "HostedAction").objects.create(episode=episode, index=0, action={"type": "wait"})
    old.get_model("humanplay", "HumanPlaySettings").objects.create(pk=1, hosted_expiry_hours=6)
    try:
        new = migrate(leaves)
        moved = new.get_model("hosted", "HostedEvaluation").objects.get(pk=evaluation.pk)
        assert (moved.agent, moved.user_id, moved.task_set_id) == ({"name": "early"}, user.pk, task_set.pk)
        moved_episode = new.get_model("hosted", "HostedEpisode").objects.get(evaluation=moved)
        assert moved_episode.pk == episode.pk and moved_episode.task_id == task.pk
        actions = new.get_model("hosted", "HostedAction").objects.filter(episode=moved_episode)
        assert list(actions.values_list("index", "action")) == [(0, {"type": "wait"})]
        assert new.get_model("hosted", "HostedEvaluationSettings").objects.get(pk=1).hosted_expiry_hours == 6
    finally:
        migrate(leaves)
