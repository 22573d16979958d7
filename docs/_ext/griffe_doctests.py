"""A griffe extension: show the doctests in our docstrings as Python console blocks on the site.

The sources' docstrings hold doctests (``>>>`` lines and their output) in their descriptions, as pytest's
``--doctest-modules`` runs them; Markdown would read ``>>>`` as nested quotes and ``[0.125, -0.125]`` as a link.
This wraps each run of doctest lines, with the output lines that follow, in a fenced ``pycon`` block before the
docstring is parsed. The docstrings in the sources stay as they are.
"""

from __future__ import annotations

from typing import Any

import griffe

FENCE = "```"


def fence_doctests(text: str) -> str:
    """Return ``text`` with every doctest run (prompts and output) inside a fenced ``pycon`` block."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(FENCE):
            in_fence = not in_fence
        if in_fence or not stripped.startswith(">>>"):
            out.append(line)
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


class DoctestBlocks(griffe.Extension):
    """Fence the doctests of every docstring in a loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of ``pkg`` and everything in it, once it is loaded."""
        seen: set[int] = set()
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.docstring is not None and ">>>" in obj.docstring.value:
                obj.docstring.value = fence_doctests(obj.docstring.value)
            stack.extend(member for member in obj.members.values() if not isinstance(member, griffe.Alias))
