"""The layout of docs/architecture.md ("The layers"): imports run one way down the list of packages, no two
modules import each other in a circle (function-local imports count), the sandbox imports no Django, and no
package outgrows the others. Every module is read with `ast`, so an import inside a function is seen too."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top to bottom: a package may import the packages below it, never one above.
LAYERS = ["gameworld_site", "evaluator", "rounds", "humanplay", "leaderboard", "hosted", "submissions", "catalogue",
          "gameworld_client", "sandbox", "games"]
# Standing aside: these import only the packages listed, and no other package imports them. gameworld_client is
# the agent developer's package; a game's files (its solver, a player that drives the sandbox) are data to the
# site, found by path and never imported by a package.
ASIDE = {"gameworld_client": {"sandbox"}, "games": {"sandbox"}}
DJANGO_STACK = {"django", "channels", "celery", "daphne", "asgiref", "kombu"}
LARGEST_SHARE = 0.40


def module_name(path, root=ROOT):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root=ROOT):
    """{module name: path} of every Python file of the packages of LAYERS."""
    return {module_name(path, root): path for layer in LAYERS for path in sorted((root / layer).rglob("*.py"))}


def imported_names(tree, module, is_package):
    """(name, line) of every import in the module, at any depth, relative ones made absolute. For
    `from a import b` both `a.b` and `a` are candidates: `b` may be a module or a name in `a`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield [alias.name], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module
            for alias in node.names:
                yield [f"{base}.{alias.name}", base], node.lineno


def import_graph(modules):
    """{module: {imported project module: first line}}, and the third-party top-level names each imports."""
    graph, external = {}, {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges, outside = {}, set()
        for candidates, line in imported_names(tree, name, path.name == "__init__.py"):
            target = next((_deepest_module(c, modules) for c in candidates if _deepest_module(c, modules)), None)
            if target is None:
                outside.add(candidates[-1].split(".")[0])
            elif target != name:
                edges.setdefault(target, line)
        graph[name], external[name] = edges, outside
    return graph, external


def _deepest_module(dotted, modules):
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def circles(graph):
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph.get(child, ()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def layering_breaches(graph, modules, root=ROOT):
    breaches = []
    for module, edges in graph.items():
        source = module.split(".")[0]
        for target, line in edges.items():
            destination = target.split(".")[0]
            if source == destination:
                continue
            if source in ASIDE:
                allowed = destination in ASIDE[source]
            else:
                allowed = destination not in ASIDE and LAYERS.index(destination) > LAYERS.index(source)
            if not allowed:
                breaches.append(f"{modules[module].relative_to(root)}:{line}: {module} imports {target}")
    return breaches


@pytest.fixture(scope="module")
def layout():
    modules = project_modules()
    graph, external = import_graph(modules)
    return modules, graph, external


def test_no_module_imports_another_in_a_circle(layout):
    _, graph, _ = layout
    assert circles(graph) == []


def test_imports_run_down_the_layers(layout):
    modules, graph, _ = layout
    assert layering_breaches(graph, modules) == []


def test_the_sandbox_imports_nothing_of_django(layout):
    modules, _, external = layout
    found = [f"{modules[m].relative_to(ROOT)} imports {', '.join(sorted(external[m] & DJANGO_STACK))}"
             for m in modules if m.split(".")[0] == "sandbox" and external[m] & DJANGO_STACK]
    assert found == []


def test_the_checks_catch_a_circle_an_upward_import_and_django_in_the_sandbox(tmp_path):
    """The checks above pass on the project only if they can fail: a small tree with each fault."""
    files = {
        "sandbox/__init__.py": "", "sandbox/a.py": "def f():\n    from . import b\n",
        "sandbox/b.py": "from sandbox.a import f\nimport django.conf\n",
        "catalogue/__init__.py": "", "catalogue/x.py": "from leaderboard import y\n",
        "leaderboard/__init__.py": "", "leaderboard/y.py": "import sandbox.b\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = project_modules(tmp_path)
    graph, external = import_graph(modules)
    assert circles(graph) == [["sandbox.a", "sandbox.b"]]
    assert layering_breaches(graph, modules, tmp_path) == ["catalogue/x.py:1: catalogue.x imports leaderboard.y"]
    assert "django" in external["sandbox.b"]


@pytest.mark.parametrize("code", [
    "import sandbox",
    "import runpy, sys; sys.argv = ['sandbox', 'list']\n"
    "try:\n    runpy.run_module('sandbox', run_name='__main__', alter_sys=True)\nexcept SystemExit as exc:\n"
    "    assert not exc.code, exc.code",
])
def test_the_sandbox_runs_without_loading_django(code):
    check = "\nimport sys; print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % sorted(DJANGO_STACK)
    done = subprocess.run([sys.executable, "-c", code + check], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def python_lines(root=ROOT):
    """Non-blank lines of Python per top-level package; tests, bench, migrations and games/ not counted."""
    counts = {}
    for layer in LAYERS:
        if layer == "games":
            continue
        counts[layer] = sum(
            sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
            for path in (root / layer).rglob("*.py") if "migrations" not in path.parts)
    return counts


def test_no_package_holds_more_than_two_fifths_of_the_code():
    counts = python_lines()
    total = sum(counts.values())
    assert {name: round(lines / total, 3) for name, lines in counts.items() if lines > LARGEST_SHARE * total} == {}


if __name__ == "__main__":  # print the figures: python tests/test_layout.py
    counts = python_lines()
    for name, lines in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"{name:18} {lines:6} lines  {lines / sum(counts.values()):6.1%}")
    graph, _ = import_graph(project_modules())
    print("circles:", circles(graph) or "none")
    print("\n".join(layering_breaches(graph, project_modules())) or "no import against the layering")
