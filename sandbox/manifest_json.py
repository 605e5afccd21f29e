"""Writing a manifest back after a solver filled in its trajectories: indented JSON with each action (and
any other flat object, or short list of numbers) kept on one line, so trajectories stay readable."""
import json
from pathlib import Path

SCALARS = (str, int, float, bool, type(None))


def _flat(value):
    if isinstance(value, dict):
        return all(isinstance(v, SCALARS) for v in value.values())
    return isinstance(value, list) and len(value) <= 4 and all(isinstance(v, (int, float)) for v in value)


def _render(value, indent):
    if isinstance(value, SCALARS) or _flat(value) or not value:
        return json.dumps(value)
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_render(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    return "[\n" + ",\n".join(f"{inner}{_render(v, indent + 2)}" for v in value) + f"\n{pad}]"


def dumps(manifest):
    return _render(manifest, 0) + "\n"


def write(path, manifest):
    Path(path).write_text(dumps(manifest))
