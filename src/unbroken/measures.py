"""What one game of Unbroken measures, for comparisons and tuning (``tabletop compare``, ``tabletop tune``).

Each measure is a ``(numerator, denominator)`` pair of one game, so that a measure over many games is the ratio of
their sums (see :mod:`tabletop_core.design.paired`):

* ``score``: a win's points (denominator: won), the mean score of a win;
* ``level``: the Level the run reached or ended on;
* ``lethality:level:L``: lost on Level ``L`` (denominator: reached Level ``L``);
* ``lethality:MONSTER``: lost while that monster was on the Monster Tracker (denominator: fought it);
* ``title:NAME``: won with that title (denominator: won);
* ``held:ID``: each skill, weapon and condition of the pack held at some point of the game (denominator: 1);
* ``used:SOURCE``: an ability used by a decision at least once (denominator: its card was held, or it was used:
  skills, weapons, character abilities).

>>> import unbroken
>>> from tabletop_core.records import play
>>> steps = []
>>> final, _ = play(unbroken.GAME, [unbroken.bots.HeuristicAgent()], seed=4, on_step=steps.append)
>>> t = tally(steps, final)
>>> t["level"][1], sum(n for k, (n, d) in t.items() if k.startswith("lethality:level:")) == (final.outcome < 0)
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop_core.records import Step
from unbroken.actions import Respond, Use
from unbroken.rules.flow import DRIVER
from unbroken.rules.listing import action_abilities
from unbroken.rules.scoring import TITLES, TOP_TITLE, score, title
from unbroken.rules.triggers import Trig
from unbroken.state import State

__all__ = ["TITLE_NAMES", "tally"]

#: Every title a win can earn, lowest first.
TITLE_NAMES = (*(name for _, name in TITLES), TOP_TITLE)


def tally(steps: Sequence[Step[State, Any]], final: State) -> dict[str, tuple[float, float]]:
    """The measures of one finished game (see the module)."""
    fought: list[str] = []
    held: set[str] = set()
    used: set[str] = set()
    top = 1
    for step in steps:
        s, a = step.before, step.action
        top = max(top, step.after.level)
        after = step.after
        held.update(after.skills)
        held.update(after.weapons)
        held.update(c.id for c in (*after.conditions, *after.next_conditions))
        if after.combat is not None and after.combat.monster not in fought:
            fought.append(after.combat.monster)
        if step.player == 0:
            if isinstance(a, Respond):
                frame = DRIVER.frame(s)
                if isinstance(frame, Trig):
                    used.add(frame.cands[a.i].src)
            elif isinstance(a, Use):
                used.add(action_abilities(s)[a.i][0])
    won = final.outcome > 0
    lost = final.outcome < 0
    out: dict[str, tuple[float, float]] = {"level": (float(final.level), 1.0)}
    points = score(final) if won else 0
    out["score"] = (float(points), 1.0 if won else 0.0)
    for level in range(1, 5):
        out[f"lethality:level:{level}"] = (1.0 if lost and final.level == level else 0.0, 1.0 if top >= level else 0.0)
    ended = ""
    if lost:
        ended = final.combat.monster if final.combat is not None else final.monster
        if ended and ended not in fought:
            fought.append(ended)
    for monster in fought:
        out[f"lethality:{monster}"] = (1.0 if lost and monster == ended else 0.0, 1.0)
    mine = title(points) if won else ""
    for name in TITLE_NAMES:
        out[f"title:{name}"] = (1.0 if name == mine else 0.0, 1.0 if won else 0.0)
    pack = final.pack
    for item in (*(x.id for x in pack.skills), *(x.id for x in pack.weapons), *(x.id for x in pack.conditions)):
        out[f"held:{item}"] = (1.0 if item in held else 0.0, 1.0)
    for src in held | used:
        out[f"used:{src}"] = (1.0 if src in used else 0.0, 1.0)
    return out
