"""The documentation cannot rot: every code block on the site and in the README runs, the site builds with
``--strict``, every public module has an API page, and the how-to-play pages state each content entry's source
exactly as the content files record it.

Fenced blocks say what they hold (see docs/contributing.md): ``python`` blocks are run, each as a script in its own
process; ``toml`` blocks are parsed; ``sh`` (shell commands) and ``text`` (output) blocks are not run. A fence with
no language, or another one, fails the tests, so nothing on the site escapes unmarked.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)]
RUN, PARSE, SHOWN = {"python"}, {"toml"}, {"sh", "text"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})(?P<lang>[^`\s]*)[^`]*$")


def _blocks(page: Path) -> list[tuple[str, int, str]]:
    """Every fenced block of ``page`` as (language, line number, dedented code)."""
    found: list[tuple[str, int, str]] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, lang = opening["indent"], opening["fence"], opening["lang"]
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        found.append((lang, start, "\n".join(body) + "\n"))
        i += 1
    return found


def _all_blocks(languages: set[str]) -> list[tuple[str, int, str]]:
    return [
        (page.relative_to(ROOT).as_posix(), line, code)
        for page in PAGES
        for lang, line, code in _blocks(page)
        if lang in languages
    ]


def test_the_docs_have_examples() -> None:
    assert len(_all_blocks(RUN)) >= 40


def test_every_fenced_block_is_marked() -> None:
    unmarked = [
        f"{page.relative_to(ROOT)}:{line} ({lang or 'no language'})"
        for page in PAGES
        for lang, line, _ in _blocks(page)
        if lang not in RUN | PARSE | SHOWN
    ]
    assert not unmarked, f"fenced blocks must say python, toml, sh or text: {unmarked}"


@pytest.mark.parametrize(("page", "line", "code"), _all_blocks(RUN), ids=lambda v: str(v)[:40])
def test_doc_example_runs(page: str, line: int, code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, f"{page}:{line} failed:\n{done.stderr}"


@pytest.mark.parametrize(("page", "line", "code"), _all_blocks(PARSE), ids=lambda v: str(v)[:40])
def test_doc_toml_parses(page: str, line: int, code: str) -> None:
    tomllib.loads(code)


def test_the_readme_names_every_example() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in sorted((ROOT / "examples").glob("*.py")) if f"`{p.name}`" not in readme]
    assert not missing


def test_the_site_builds_strict(tmp_path: Path) -> None:
    """A broken link, anchor, nav entry or API reference fails the build, and so this test."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "api" / "unrest" / "index.html").exists()


_MOVED = re.compile(r"^warnings\.warn\(\"[\w.]+ moved to [\w.]+\", DeprecationWarning", re.M)


def _public_modules() -> list[str]:
    """The core's public modules (no segment starts with ``_``; the CLI is a command, not an API)."""
    found = []
    for path in sorted((ROOT / "src" / "tabletop_core").rglob("*.py")):
        parts = list(path.relative_to(ROOT / "src").with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(p.startswith("_") for p in parts) or parts[:2] == ["tabletop_core", "cli"]:
            continue
        if _MOVED.search(path.read_text()):
            continue  # an old name kept for a moved module: its page is the new module's
        found.append(".".join(parts))
    return found


def test_every_public_module_has_an_api_page() -> None:
    documented = set(re.findall(r"^::: ([\w.]+)", "\n".join(p.read_text() for p in (DOCS / "api").glob("*.md")), re.M))
    wanted = [*_public_modules(), *(f"{g}{m}" for g in ("unbroken", "runebound_coop", "unrest") for m in ("", ".bots"))]
    assert len(wanted) > 20
    missing = [m for m in wanted if m not in documented]
    assert not missing, f"public modules with no '::: module' on an API page in docs/api/: {missing}"


CONTENT: dict[str, tuple[str, dict[str, tuple[str, str, str | None]]]] = {
    "unbroken": (
        "src/unbroken/content/data",
        {
            "characters": ("characters.toml", "character", None),
            "weapons": ("weapons.toml", "weapon", None),
            "monsters": ("monsters.toml", "monster", None),
            "skills": ("skills.toml", "skill", None),
            "conditions": ("conditions.toml", "condition", None),
            "encounters": ("encounters.toml", "encounter", None),
        },
    ),
    "runebound_coop": (
        "src/runebound_coop/content",
        {
            "token sets": ("token_sets.toml", "token_set", None),
            "combat boards": ("boards.toml", "board", None),
            "heroes": ("heroes.toml", "hero", None),
            "hero abilities": ("heroes.toml", "hero", "abilities"),
            "enemies": ("enemies.toml", "enemy", None),
            "enemy abilities": ("enemies.toml", "enemy", "abilities"),
            "skill cards": ("cards.toml", "card", None),
            "assets": ("assets.toml", "asset", None),
        },
    ),
}
SOURCES = ("rulebook", "public", "standin")


def _entries(folder: str, file: str, section: str, nested: str | None) -> list[tuple[str, str]]:
    data = tomllib.loads((ROOT / folder / file).read_text(encoding="utf-8"))[section]
    items = [sub for entry in data for sub in entry.get(nested, ())] if nested else data
    return [(str(item.get("name") or item.get("trait") or item["id"]), str(item["source"])) for item in items]


def _cell(names: set[str], every: int) -> str:
    return "-" if not names else f"all {every}" if len(names) == every else ", ".join(sorted(names))


@pytest.mark.parametrize("game", sorted(CONTENT))
def test_how_to_play_states_the_source_of_every_content_entry(game: str) -> None:
    page = (DOCS / "how-to-play" / f"{game}.md").read_text(encoding="utf-8")
    table = page[page.index("## The content, by source") :]
    rows = {
        cells[0]: cells[1:]
        for line in table.splitlines()
        if line.startswith("| ") and not line.startswith("|---")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    folder, kinds = CONTENT[game]
    for kind, (file, section, nested) in kinds.items():
        entries = _entries(folder, file, section, nested)
        assert kind in rows, f"{game}: the content table has no row for {kind}"
        stated = [
            _cell({n.strip() for n in cell.split(",")} - {"-"}, len(entries)) if not cell.startswith("all ") else cell
            for cell in rows[kind]
        ]
        actual = [_cell({n for n, s in entries if s == source}, len(entries)) for source in SOURCES]
        assert stated == actual, f"{game} {kind}: the page says {stated}, {folder}/{file} says {actual}"


def test_the_api_pages_show_doctests_as_code_and_sphinx_roles_as_names() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_docstrings", DOCS / "_ext" / "griffe_docstrings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (
        "See :class:`~tabletop_core.game.Game` and :meth:`Game.step`.\n\n>>> 1 + 1\n2\n\n"
        "After.\n\n```text\n:class:`X`\n```"
    )
    assert module.rewrite(text).splitlines() == [
        "See `Game` and `Game.step`.",
        "",
        "```pycon",
        ">>> 1 + 1",
        "2",
        "```",
        "",
        "After.",
        "",
        "```text",
        ":class:`X`",
        "```",
    ]
