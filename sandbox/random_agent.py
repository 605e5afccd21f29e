"""Uniform random agents of both interfaces: the floor every task is calibrated against (DESIGN.md
"Task validity"). Pure functions of the action space and a `random.Random`, so a run is replayed from its
action seed."""
INTERFACES = ("cua", "generalist")


def random_action(space, rng, interface="cua"):
    """One uniform draw from a game's action space for an interface.

    `cua`: press one of the game's keys, wait, or (where the game uses the pointer) left-click at a uniform
    point. `generalist`: one of the game's semantic actions, its arguments uniform in their declared bounds.
    """
    if interface == "cua":
        choices = [{"type": "press_key", "key": key} for key in space.keys] + [{"type": "wait"}]
        if space.pointer:
            choices.append("click")
        action = rng.choice(choices)
        if action == "click":
            return {"type": "left_click", "x": rng.randrange(space.width), "y": rng.randrange(space.height)}
        return action
    if interface == "generalist":
        if not space.semantic:
            raise ValueError("this game has no semantic actions: the generalist interface cannot play it")
        name = rng.choice(list(space.semantic))
        declared = space.semantic[name].get("args", {})
        action = {"type": "semantic", "name": name}
        if declared:
            action["args"] = {arg: rng.randint(bounds["min"], bounds["max"]) for arg, bounds in declared.items()}
        return action
    raise ValueError(f"unknown interface {interface!r}; expected one of {', '.join(INTERFACES)}")
