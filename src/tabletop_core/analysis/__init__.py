"""Game analysis: exact values of small games, and the game study behind ``tabletop analyze``.

A study plays seeded games with the separate chance stream and reports, each number with its 95% interval and
the games behind it: seat advantage, game length and real choices, branching over the game, a skill ladder rated
with openskill and the rise of the win rate with the search budget, luck against skill, drama, and restricted play
over the content a game declares. The ``sim`` extra (SciPy, openskill) computes the statistics and the ``plot``
extra (matplotlib) draws the plots.

>>> from tabletop_core.analysis import Study, analyze
>>> study = Study.build("tabletop_core.testing.kuhn:GAME", ["random"], games=300, ladder_games=4,
...                     budgets=(4, 8, 16), drama_games=2)
>>> result = analyze(study)  # add workers=2, backend="ray" as needed
>>> row = result["seat_advantage"]["rows"][0]  # the first seat's advantage, against the exact value
>>> row["games"], row["return_interval"][0] < 0.125 < row["return_interval"][1]
(300, True)
>>> [round(v, 12) for v in result["seat_advantage"]["exact_uniform"]["mean_returns"]]
[0.125, -0.125]
>>> result["branching"]["mean"]["value"], result["length"]["chance_events"]["mean"]
(2.0, 2.0)

:func:`~tabletop_core.analysis.report.write_report` (given :func:`run_study`'s result and traces) writes the
Markdown report, its plots and the numbers as JSON; ``docs/analysis/`` holds the reports of the three games.
"""

from tabletop_core.analysis.exact import Policy, expected_returns, uniform_policy
from tabletop_core.analysis.study import (
    DEFAULT_BUDGETS,
    SECTIONS,
    Study,
    analyze,
    dumps,
    run_study,
    study_from_json,
    study_seed,
    summarize,
)
from tabletop_core.analysis.trace import trace_game, win_chances
from tabletop_core.restrict import RestrictedGame, Restriction, find_hook, load_restrictions

__all__ = [
    "DEFAULT_BUDGETS",
    "SECTIONS",
    "Policy",
    "RestrictedGame",
    "Restriction",
    "Study",
    "analyze",
    "dumps",
    "expected_returns",
    "find_hook",
    "load_restrictions",
    "run_study",
    "study_from_json",
    "study_seed",
    "summarize",
    "trace_game",
    "uniform_policy",
    "win_chances",
]
