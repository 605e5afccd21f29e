"""Rounds evaluations: an agent plays a site's curriculum round by round and learns from its own play.

    entry = play_rounds(site, token, "counter-basics", agent, agent_block, play=...)

Round 0 is played cold. After each round the agent reflects: the same model reads summaries of its own runs and
rewrites its notes (`agent.reflect`), which it carries into the next round, the only thing the site sees cross
rounds. The best notes are kept: after a sharp drop (DROP points of mean progress below the best round) the
reflection starts again from the best round's notes instead of the last ones (a rollback). After the last round the
agent plays the held-out tasks with its best notes. Each round is a sealed hosted evaluation, submitted and verified
by replay on the site, which computes every figure of the curve; the scores the agent sees here only steer it.

An agent for rounds has, besides `reset` and `act`: `begin_round(index, artifact)` (the notes it plays a round
with) and `reflect(summaries, notes=..., max_chars=..., round_index=...)` returning the notes for the next round.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .hosted import HostedEvaluation

DROP = 10.0  # a round this many points of mean progress below the best one is a sharp drop: roll the notes back


def describe(action: dict[str, Any]) -> str:
    if action.get("type") == "semantic":
        args = ", ".join(f"{k}={v}" for k, v in (action.get("args") or {}).items())
        return f"{action['name']}({args})"
    if action.get("type") in ("press_key", "press_keys"):
        return action.get("key") or "+".join(action.get("keys", []))
    return action.get("type", "?")


def summaries(runs: list[dict[str, Any]], tasks: dict[str, dict[str, Any]]) -> str:
    """One paragraph a run: the task and its instruction (once), how far it got, and the actions it used most."""
    lines, told = [], set()
    for run in runs:
        task, claimed = run["task"], run.get("claimed") or {}
        if task not in told:
            told.add(task)
            lines.append(f"Task {task}: {tasks[task]['instruction']}")
        used = Counter(describe(a) for a in run["actions"]).most_common(4)
        lines.append(f"- an episode: progress {claimed.get('progress', 0):.0%}, "
                     f"{'target reached' if claimed.get('success') else 'target not reached'}, "
                     f"{len(run['actions'])} actions; most used: " + ", ".join(f"{name} x{n}" for name, n in used))
    return "\n".join(lines)


def mean_progress(runs: list[dict[str, Any]]) -> float:
    claimed = [r["claimed"]["progress"] for r in runs if "claimed" in r]
    return 100.0 * sum(claimed) / len(claimed) if claimed else 0.0


def play_rounds(site: str, token: str, curriculum: str, agent: Any, agent_block: dict[str, Any], *,
                play: Callable[[Any, Callable, list], list[dict[str, Any]]], protocol: str = "paused",
                interface: str | None = None, entry: int | None = None,
                say: Callable[[str], object] = print) -> dict[str, Any]:
    """Play every round of the curriculum (or go on with `entry`); returns {"entry", "scores", "notes",
    "best_round", "rollbacks"} as the agent saw them. `play(agent, make_env, plan)` plays a plan of
    (task, episode numbers) and returns the run records."""
    begin: dict[str, Any] = ({"rounds_entry": entry} if entry is not None else
                             {"curriculum": curriculum, "agent": agent_block, "protocol": protocol})
    notes, best, scores, rollbacks, carried = "", None, [], [], []
    while True:
        hosted = HostedEvaluation(site, token, begin=begin)
        with hosted:
            state = hosted.round
            index, held_out = state["index"], state["held_out"]
            label = "held-out round" if held_out else f"round {index} of 0-{state['last_round']}"
            say(f"rounds entry {state['entry']}: {label} (evaluation {hosted.id}), carrying "
                f"{len(state['artifact'])} characters of notes")
            agent.begin_round(index, state["artifact"])
            played = {(e["task"], e["episode_number"]) for e in hosted.episodes if e["status"] == "finished"}
            plan = [(task, [n for n in hosted.env(task).episode_keys() if (task, n) not in played])
                    for task in hosted.tasks]
            runs = play(agent, lambda t: hosted.env(t, interface=interface), [p for p in plan if p[1]])
            submitted = hosted.submit()
            tasks = hosted.tasks
        score = mean_progress(runs)
        scores.append(score)
        carried.append(state["artifact"])
        say(f"  {label}: mean progress {score:.1f} % over {len(runs)} episodes (as the client saw them; the site "
            f"verifies them by replay); submission {submitted['submission']}")
        upcoming = submitted["round"]["next"]
        if upcoming is None:
            return {"entry": state["entry"], "scores": scores, "notes": carried,
                    "best_round": best[0] if best else None, "rollbacks": rollbacks}
        if best is None or score > best[1]:
            best = (index, score, state["artifact"])
        base = state["artifact"]
        if score < best[1] - DROP:
            rollbacks.append(index)
            base = best[2]
            say(f"  a sharp drop from round {best[0]} ({best[1]:.1f} %): the notes roll back to that round's")
        if upcoming == "held-out":
            notes = best[2]
            say(f"  the held-out round plays with the notes of round {best[0]}, the best")
        else:
            notes = agent.reflect(summaries(runs, tasks), notes=base, max_chars=state["artifact_max_chars"],
                                  round_index=index)
            say(f"  reflected: {len(notes)} characters of notes for {upcoming}")
        begin = {"rounds_entry": state["entry"], "artifact": notes}
