"""The agent socket with rounds evaluations: the hosted one (hosted.consumers.AgentConsumer), whose begin may also
open a round of a curriculum, and whose messages then say which round it is and what comes next.

      {"type": "begin", "curriculum": "<slug>", "agent": {...}}      (a new entry: round 0, cold)
      {"type": "begin", "rounds_entry": 7, "artifact": "..."}       (the next round, carrying the text; the entry's
                                                                     open round when it has one, without artifact)
          -> the evaluation message, with "round": {"entry", "index", "last_round", "held_out", "artifact", ...}
      {"type": "submit"}
          -> the submitted message, with "round": {"entry", "submitted", "next": "round 2" | "held-out" | null};
             the same connection may then begin the next round.

A round is a sealed evaluation of its round's tasks: reset, action and submit are the hosted socket's.
"""
from hosted import consumers
from hosted.models import HostedEvaluation

from . import services
from .models import Round

ROUNDS_KEYS = {"curriculum", "rounds_entry"}  # a begin message with one of them opens a round


class AgentConsumer(consumers.AgentConsumer):
    def begin(self, message):
        if ROUNDS_KEYS & message.keys():
            return services.begin(self.user, message)
        return super().begin(message)

    def evaluation_message(self, evaluation):
        message = super().evaluation_message(evaluation)
        if evaluation.kind == HostedEvaluation.Kind.ROUND:
            message["round"] = Round.objects.select_related("entry__curriculum").get(evaluation=evaluation).describe()
        return message

    def submitted(self, evaluation):
        if evaluation.kind != HostedEvaluation.Kind.ROUND:
            return super().submitted(evaluation)
        self.evaluation = None  # the entry's next round may begin on this connection
        return {"round": services.after_submit(evaluation.pk)}
