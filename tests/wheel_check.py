"""``make dist``'s check of the built wheels: each installed into a fresh virtual environment, then run from an empty
folder (so nothing is read from the source tree): ``tabletop --version``, ``tabletop demo --quiet``, ``tabletop
check`` on every game, a smoke subset of the test suite (``SMOKE``: every golden game replayed, the conformance
suite of each game, the flow driver) copied beside it and run against the installed package, and whether the C
accelerator is in use (a wheel built with a compiler) or not (without).

Usage: ``python -m tests.wheel_check WHEEL [WHEEL ...]`` (a wheel whose folder name ends in ``-pure`` is expected
to run on the pure-Python path). Exits 1 on the first failure.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("unbroken", "runebound_coop", "unrest")
TESTS = Path(__file__).resolve().parent
#: The tests run against the installed wheel: files and folders of ``tests/``, copied with the package markers and
#: the shared ``conftest.py`` they need (and nothing that imports from the source tree).
SMOKE = (
    "golden",
    "core/flowgame.py",
    "core/test_flow.py",
    "unbroken/test_conformance.py",
    "runebound_coop/test_conformance.py",
    "unrest/test_conformance.py",
)
#: What the smoke tests import beyond the package itself (the test extra's versions).
SMOKE_REQUIREMENTS = ("pytest>=8.0", "hypothesis>=6.90", "pytest-timeout>=2.3")


def copy_smoke_tests(work: Path) -> Path:
    """Copy the ``SMOKE`` tests, with their folders' ``__init__.py`` and the shared ``conftest.py``, under ``work``."""
    target = work / "tests"
    target.mkdir()
    for name in ("__init__.py", "conftest.py"):
        shutil.copy2(TESTS / name, target / name)
    for entry in SMOKE:
        source = TESTS / entry
        dest = target / entry
        dest.parent.mkdir(parents=True, exist_ok=True)
        marker = source.parent / "__init__.py"
        if source.parent != TESTS and marker.is_file() and not (dest.parent / "__init__.py").exists():
            shutil.copy2(marker, dest.parent / "__init__.py")
        if source.is_dir():
            shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, dest)
    return target


def _run(argv: list[str], cwd: Path) -> str:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    shown = " ".join(Path(argv[0]).name if i == 0 else a for i, a in enumerate(argv))
    print(f"  {shown}: exit {done.returncode} in {time.perf_counter() - start:.1f} s", flush=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise SystemExit(1)
    return done.stdout


def check(wheel: Path, *, compiled: bool) -> None:
    """Install ``wheel`` into a new environment and run the command line and the games from an empty folder."""
    print(f"{wheel.name} ({'with' if compiled else 'without'} the C accelerator)", flush=True)
    with tempfile.TemporaryDirectory(prefix="tabletop-wheel-") as tmp:
        root = Path(tmp)
        env, work = root / "venv", root / "work"
        work.mkdir()
        _run([sys.executable, "-m", "venv", str(env)], root)
        python, tabletop = env / "bin" / "python", env / "bin" / "tabletop"
        _run([str(python), "-m", "pip", "install", "--quiet", str(wheel.resolve())], root)
        where = _run([str(python), "-c", "import tabletop_core; print(tabletop_core.__file__)"], work)
        if str(Path(__file__).resolve().parents[1]) in where:
            raise SystemExit(f"the package was imported from the source tree: {where}")
        _run([str(tabletop), "--version"], work)
        _run([str(tabletop), "demo", "--quiet"], work)
        for game in GAMES:
            _run([str(tabletop), "check", game, "--games", "3"], work)
        _run([str(python), "-m", "pip", "install", "--quiet", *SMOKE_REQUIREMENTS], root)
        copy_smoke_tests(work)
        smoke = _run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "300", "tests"], work)
        print(f"    {smoke.strip().splitlines()[-1]}", flush=True)
        flag = _run([str(python), "-c", "import tabletop_core.fastcopy as f; print(f.COMPILED)"], work).strip()
        if flag != str(compiled):
            raise SystemExit(f"C accelerator in use: {flag}, expected {compiled}")


def main(argv: list[str]) -> int:
    """Check every wheel named on the command line."""
    if not argv:
        sys.stderr.write(__doc__ or "")
        return 2
    for name in argv:
        wheel = Path(name)
        check(wheel, compiled=not wheel.parent.name.endswith("-pure"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
