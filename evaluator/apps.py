from django.apps import AppConfig


class EvaluatorConfig(AppConfig):
    """Holds no code: its models moved to catalogue, submissions and hosted (evaluator migration 0013). Its
    migrations stay, so that a database made before the move migrates forward with every row kept."""
    name = "evaluator"
