"""OpenSpiel playthroughs of every game and variant: golden files checked by ``tests/adapters/test_playthroughs.py``.

Each ``<game>.txt`` (``<game>-<k>.txt`` for the k-th variant in ``tests/adapters/games.py``) is what OpenSpiel's
``generate_playthrough`` writes for one seeded random game, with every line longer than
:data:`~tests.adapters.playthroughs.record.LONG` characters (the Unrest information state tensor, float lists)
shortened to its opening and a digest. Regenerate them with ``make playthroughs`` (``python -m
tests.adapters.playthroughs.record``) after a rule or an encoding changes on purpose.
"""
