"""Every file the code, the READMEs, the docs, the templates and the messages point to is in this repository: a
reader following a reference never lands outside it (nor on a file that was moved or never written)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sandbox", "evaluator", "catalogue", "submissions", "hosted", "humanplay", "leaderboard", "gameworld_client",
            "gameworld_site", "games", "docs", "templates", "tests", "bin", "bench", "static")
SCANNED = [ROOT / "README.md", *(  # the tests are left out: their paths are made-up examples
    path for package in PACKAGES if package != "tests" for path in (ROOT / package).rglob("*")
    if path.suffix in (".py", ".md", ".html", ".txt") or path.parent.name == "bin")]
# A repository file (placeholders such as games/<slug>/ and globs are not one file), or any Markdown file. Template
# and static file names are relative to their folders.
REPO_PATH = re.compile(rf"(?<![\w/.-])(?:{'|'.join(PACKAGES)})/[\w./-]*\.(?:md|py|json|js|css|html|c|sh|svg)\b")
LOOKUP_DIRS = (ROOT, ROOT / "templates", ROOT / "static")
MARKDOWN_FILE = re.compile(r"(?<![\w/.-])[\w./-]+\.md\b")
MARKDOWN_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def references(path, text):
    for match in REPO_PATH.finditer(text):
        name = match.group()
        yield next((folder / name for folder in LOOKUP_DIRS if (folder / name).exists()), ROOT / name)
    for match in MARKDOWN_FILE.finditer(text):
        name = match.group()
        yield (path.parent / name) if (path.parent / name).exists() else ROOT / name
    if path.suffix == ".md":
        for target in MARKDOWN_LINK.findall(text):
            if "://" not in target:
                yield (path.parent / target).resolve()


def missing_references(paths):
    return sorted({f"{shown(path)}: {shown(target)}" for path in paths if path.is_file()
                   for target in references(path, path.read_text(errors="replace")) if not target.exists()})


def shown(path):
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name


def test_every_referenced_repository_file_exists():
    assert missing_references(SCANNED) == []


def test_a_reference_to_a_file_outside_the_repository_is_caught(tmp_path):
    note = ROOT / "docs" / "README.md"
    text = note.read_text()
    assert missing_references([note]) == []
    stray = tmp_path / "stray.md"
    stray.write_text(text + "\nThe contract is DESIGN.md; see [the shared notes](../shared/NOTES.md) and sandbox/nowhere.py.\n")
    found = [line.split(": ", 1)[1] for line in missing_references([stray])]
    assert {"DESIGN.md", "sandbox/nowhere.py"} <= set(found) and any("NOTES.md" in line for line in found)


def test_the_readme_leads_to_every_guide():
    readme = (ROOT / "README.md").read_text()
    for guide in ROOT.glob("docs/*.md"):
        assert f"docs/{guide.name}" in readme, guide.name
