"""What each interface is told, checked: a computer-use agent reads a task's instruction (and the key names), a
generalist agent also reads the semantic actions' descriptions. Both must carry the same facts, and the figure a
task measures must be on the screen a pixel agent sees (the manifest's `hud` says where it is drawn)."""
import re

# A fact is a number with a unit: a duration, a distance, a count of steps (not an argument's index).
UNITS = r"(?:px|pixels?|ms|s|seconds?|steps?|tiles?|cells?|columns?|rows?|ticks?|points?|degrees?|frames?)"
NUMBER = r"\d+(?:\.\d+)?(?:/\d+)?"
FACT = re.compile(rf"(?<![\w.=/])({NUMBER})(?:\s*(?:-|to)\s*{NUMBER})?\s*{UNITS}\b")
NUMBER_TOKEN = re.compile(rf"(?<![\w.])(?:{NUMBER})")


def semantic_facts(game):
    """[(action name, number)] for every fact-bearing number in the semantic actions' descriptions."""
    return [(action["name"], number) for action in game.manifest["semantic_actions"]
            for number in FACT.findall(action.get("description", ""))]


def parity_problems(game):
    """A task whose instruction lacks a fact its game's semantic descriptions give the generalist agent."""
    problems = []
    for task in game.tasks.values():
        told = set(NUMBER_TOKEN.findall(task.instruction))
        missing = [f"{number} ({name})" for name, number in semantic_facts(game) if number not in told]
        if missing:
            problems.append(f"{task.id}: the instruction a computer-use agent reads lacks what the semantic "
                            f"actions tell a generalist: {', '.join(dict.fromkeys(missing))}")
    return problems


def hud_problems(game):
    """A task whose score_field the game does not declare as drawn on its HUD (`hud` in the manifest)."""
    hud = game.manifest.get("hud", {})
    return [f"{task.id}: score_field {task.score_field!r} is not in the manifest's \"hud\" (where the frame "
            "shows it): draw it on the HUD and declare where" for task in game.tasks.values()
            if task.score_field not in hud]
