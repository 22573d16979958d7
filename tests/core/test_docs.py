"""Every Python example in the README and docs/ runs, so the documentation cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _examples() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for i, code in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
            # Blocks inside list items are indented with the item: run them dedented.
            found.append((page.relative_to(ROOT).as_posix(), i, textwrap.dedent(code)))
    return found


def test_the_docs_have_examples() -> None:
    assert len(_examples()) >= 5


@pytest.mark.parametrize(("page", "index", "code"), _examples(), ids=lambda v: str(v)[:30])
def test_doc_example_runs(page: str, index: int, code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{page} example {index} failed:\n{done.stderr}"


def test_the_readme_names_every_example() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in sorted((ROOT / "examples").glob("*.py")) if f"`{p.name}`" not in readme]
    assert not missing
