"""Each adapter sits behind its extra: the core never imports a framework, and a missing one names the extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

_BLOCKED = {
    "openspiel": ("pyspiel",),
    "pettingzoo": ("pettingzoo", "gymnasium"),
    "gymnasium": ("gymnasium",),
}


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_importing_the_core_and_the_adapters_package_loads_no_framework() -> None:
    done = _run(
        "import sys, tabletop_core, tabletop_core.adapters, tabletop_core.testing.kuhn\n"
        "loaded = {'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium'} & set(sys.modules)\n"
        "print(sorted(loaded))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("adapter", sorted(_BLOCKED))
def test_a_missing_framework_names_the_extra_to_install(adapter: str) -> None:
    block = "".join(f"sys.modules[{name!r}] = None\n" for name in _BLOCKED[adapter])
    done = _run(
        f"import sys\n{block}"
        f"try:\n    import tabletop_core.adapters.{adapter}\n"
        f"except ImportError as exc:\n    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    assert f"pip install -e '.[{adapter}]' in a clone" in done.stdout
