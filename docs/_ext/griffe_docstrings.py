"""A griffe extension: show our docstrings well on the site without changing them in the sources.

- Doctests. The docstrings hold doctests (``>>>`` lines and their output) in their descriptions, where pytest's
  ``--doctest-modules`` runs them; Markdown would read ``>>>`` as nested quotes and ``[0.125, -0.125]`` as a link.
  Each run of doctest lines, with the output that follows, is wrapped in a fenced ``pycon`` block.
- Sphinx roles. Some docstrings name things the Sphinx way (``:class:`Game```, ``:meth:`~Game.step```), which
  Markdown prints as is; each role becomes inline code of its target (``~`` keeps the last part only, as in
  Sphinx).

Both rewrite the docstring's text before it is parsed; fenced code is left alone.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

FENCE = "```"
ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match[2].strip()
    return f"`{target.rsplit('.', 1)[-1] if match[1] else target}`"


def rewrite(text: str) -> str:
    """Return ``text`` with doctest runs fenced as ``pycon`` blocks and Sphinx roles as inline code."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(FENCE):
            in_fence = not in_fence
        if in_fence:
            out.append(line)
            i += 1
            continue
        if not stripped.startswith(">>>"):
            out.append(ROLE.sub(_role, line))
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        out.append(f"{indent}{FENCE}pycon")
        # A doctest example runs until a blank line: prompts, continuations and expected output alike.
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}{FENCE}")
    return "\n".join(out)


class MarkdownDocstrings(griffe.Extension):
    """Rewrite the docstrings of every object in a loaded package (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of ``pkg`` and everything in it, once it is loaded."""
        seen: set[int] = set()
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = rewrite(obj.docstring.value)
            stack.extend(member for member in obj.members.values() if not isinstance(member, griffe.Alias))
