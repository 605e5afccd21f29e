from django.apps import AppConfig


class EvaluatorConfig(AppConfig):
    name = "evaluator"
