"""``make dist``'s check of the built wheels: each installed into a fresh virtual environment, then run from an empty
folder (so nothing is read from the source tree): ``tabletop --version``, ``tabletop demo --quiet``, ``tabletop
check`` on every game, and whether the C accelerator is in use (a wheel built with a compiler) or not (without).

Usage: ``python -m tests.wheel_check WHEEL [WHEEL ...]`` (a wheel whose folder name ends in ``-pure`` is expected
to run on the pure-Python path). Exits 1 on the first failure.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("unbroken", "runebound_coop", "unrest")


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
