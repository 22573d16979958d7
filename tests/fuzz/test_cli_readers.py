"""The command line's file readers on hostile input: random bytes, random JSON of any shape, and real saves,
records and results folders with a value changed anywhere. ``tabletop replay`` and ``tabletop resume`` read saves
and records, ``tabletop report`` reads a results folder; whatever the file holds, only the project's typed errors
(``TabletopError`` and its subclasses) may escape, so the command says one line instead of a traceback.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unrest
from tabletop_core.agents import RandomAgent
from tabletop_core.cli import replay as replay_command
from tabletop_core.cli import report as report_command
from tabletop_core.cli import resume as resume_command
from tabletop_core.cli.session import Session
from tabletop_core.cli.table import HumanTable
from tabletop_core.errors import TabletopError
from tabletop_core.records import play
from tabletop_core.simulation import Simulation
from tabletop_core.simulation import run as simulate
from tests.fuzz.games import examples
from tests.fuzz.mutate import MUTATIONS, mutate, paths

FUZZ = settings(
    max_examples=examples(30), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None
)

#: Any JSON value: scalars of every kind (huge and negative numbers, odd text), lists and objects of them.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["human", "unrest", "this:GAME", "os:system", "random", "tabletop-rules/session"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=25,
)


@functools.cache
def documents() -> dict[str, dict[str, Any]]:
    """A saved game at the table (Unrest, 20 moves in) and a bots' record of a whole game, as parsed JSON."""
    game = unrest.GAME
    _, record = play(game, [RandomAgent(), RandomAgent()], seed=3)
    saved = Session("unrest", attrs.evolve(record, actions=record.actions[:20], returns=None), ("human", "heuristic"))
    return {"save": json.loads(saved.to_json()), "record": json.loads(record.to_json())}


@functools.cache
def results() -> tuple[str, tuple[str, ...]]:
    """A results folder's plan (``run.json``) and game lines (``games.jsonl``): four games of Unrest's bots."""
    sim = Simulation.build("unrest", pool=["random", "first"], games=2, seed=1)
    lines = simulate(sim).lines
    return sim.to_json() + "\n", tuple(json.dumps(line, sort_keys=True) for line in lines)


def only_typed_errors(read: Callable[[Path], object], data: bytes) -> None:
    """Write ``data`` to a file and read it with ``read``: it reads, or raises a TabletopError."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file.json"
        path.write_bytes(data)
        try:
            read(path)
        except TabletopError as exc:
            assert str(exc)


def read_for_replay(path: Path) -> None:
    """What ``tabletop replay FILE --at 0 --reveal`` reads and checks (and the table it prints)."""
    args = argparse.Namespace(
        file=str(path), at=0, step=False, seat=None, reveal=True, game=None, html=None, force=False
    )
    replay_command.run(args, io.StringIO())


def read_for_resume(path: Path) -> None:
    """What ``tabletop resume FILE`` reads and checks, up to the table's first prompt (every saved move replayed,
    every seat's bot resolved)."""
    args = argparse.Namespace(file=str(path), save_to=None, record=None, force=False)
    with mock.patch.object(HumanTable, "run", return_value=0):
        resume_command.run(args, io.StringIO())


READERS = {"replay": read_for_replay, "resume": read_for_resume}


def read_results(plan: bytes, games: bytes) -> None:
    """``tabletop report DIR`` (tables only) on a folder holding ``plan`` and ``games``."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "run.json").write_bytes(plan)
        (Path(folder) / "games.jsonl").write_bytes(games)
        args = argparse.Namespace(dir=folder, plots=None, no_plots=True, html=None, force=False)
        try:
            with mock.patch("sys.stderr", io.StringIO()):
                report_command.run(args, io.StringIO())
        except TabletopError as exc:
            assert str(exc)


# ----- saves and records --------------------------------------------------------------------------------------------


def test_the_unchanged_files_read(tmp_path: Path) -> None:
    """The fuzzed files start from ones every reader takes, so a refusal is the mutation's doing."""
    for kind, readers in (("save", READERS.values()), ("record", [read_for_replay])):
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(documents()[kind]))
        for read in readers:
            read(path)
    plan, lines = results()
    (tmp_path / "run.json").write_text(plan)
    (tmp_path / "games.jsonl").write_text("".join(line + "\n" for line in lines))
    out = io.StringIO()
    args = argparse.Namespace(dir=str(tmp_path), plots=None, no_plots=True, html=None, force=False)
    assert report_command.run(args, out) == 0 and "4 of 4 games" in out.getvalue()


@FUZZ
@given(reader=st.sampled_from(sorted(READERS)), data=st.binary(max_size=3000))
def test_random_bytes_as_a_save_or_record_raise_only_typed_errors(reader: str, data: bytes) -> None:
    only_typed_errors(READERS[reader], data)


@FUZZ
@given(reader=st.sampled_from(sorted(READERS)), doc=JSON)
def test_random_json_as_a_save_or_record_raises_only_typed_errors(reader: str, doc: Any) -> None:
    only_typed_errors(READERS[reader], json.dumps(doc).encode())


@FUZZ
@given(
    reader=st.sampled_from(sorted(READERS)),
    kind=st.sampled_from(["save", "record"]),
    key=st.sampled_from(["format", "version", "game", "seats", "record", "seat"]),
    value=JSON,
)
def test_a_save_or_record_with_an_envelope_field_of_any_shape_raises_only_typed_errors(
    reader: str, kind: str, key: str, value: Any
) -> None:
    doc = dict(documents()[kind])
    doc[key] = value
    only_typed_errors(READERS[reader], json.dumps(doc).encode())


@FUZZ
@given(
    reader=st.sampled_from(sorted(READERS)),
    kind=st.sampled_from(["save", "record"]),
    family=st.sampled_from(sorted(MUTATIONS)),
    data=st.data(),
)
def test_a_save_or_record_with_any_value_changed_raises_only_typed_errors(
    reader: str, kind: str, family: str, data: st.DataObject
) -> None:
    doc = documents()[kind]
    places = list(paths(doc))
    at = places[data.draw(st.integers(0, len(places) - 1), label="place")]
    mutant = mutate(doc, at, family, data.draw(st.integers(0, 50), label="pick"))
    if mutant is not None:
        only_typed_errors(READERS[reader], json.dumps(mutant).encode())


@FUZZ
@given(reader=st.sampled_from(sorted(READERS)), cut=st.integers(0, 10**6), junk=st.binary(max_size=40))
def test_a_save_or_record_cut_short_or_spliced_raises_only_typed_errors(reader: str, cut: int, junk: bytes) -> None:
    text = json.dumps(documents()["save" if cut % 2 else "record"]).encode()
    at = cut % (len(text) + 1)
    only_typed_errors(READERS[reader], text[:at] + junk + text[at + len(junk) :])


# ----- results folders ------------------------------------------------------------------------------------------------


@FUZZ
@given(plan=st.binary(max_size=500) | JSON.map(lambda d: json.dumps(d).encode()), games=st.binary(max_size=2000))
def test_a_results_folder_of_random_bytes_raises_only_typed_errors(plan: bytes, games: bytes) -> None:
    read_results(plan, games)


@FUZZ
@given(
    rows=st.lists(
        st.one_of(
            st.integers(0, 3).map(lambda i: results()[1][i]),
            JSON.map(json.dumps),
            st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
        ),
        max_size=8,
    ),
    torn=st.booleans(),
)
def test_result_lines_of_any_shape_raise_only_typed_errors(rows: list[str], torn: bool) -> None:
    plan, _ = results()
    text = "\n".join(rows) + ("" if torn else "\n")
    read_results(plan.encode(), text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(family=st.sampled_from(sorted(MUTATIONS)), data=st.data())
def test_a_result_line_or_plan_with_any_value_changed_raises_only_typed_errors(
    family: str, data: st.DataObject
) -> None:
    plan, lines = results()
    docs = [json.loads(plan), *(json.loads(line) for line in lines)]
    which = data.draw(st.integers(0, len(docs) - 1), label="document")
    places = list(paths(docs[which]))
    at = places[data.draw(st.integers(0, len(places) - 1), label="place")]
    mutant = mutate(docs[which], at, family, data.draw(st.integers(0, 50), label="pick"))
    if mutant is None:
        return
    docs[which] = mutant
    games = "".join(json.dumps(d) + "\n" for d in docs[1:])
    read_results(json.dumps(docs[0]).encode(), games.encode())
