"""``tabletop options GAME`` as a player reads it, through the real installed command: every option of every game
shows its allowed values (a pack's characters, heroes and enemies included), an example that the game accepts, and
a meaning in the player's words, never the code's names; a list option takes comma-separated names, and a wrong
name is one line that names the closest one.

(``test_cli_product.py`` covers the table's header, the difficulty row, ``heroes=Elian,Lissa`` played and recorded,
and an unknown option's name; this file covers each row of each game and each wrong value.)
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

import attrs
import pytest

from runebound_coop.content.loader import builtin_content
from tabletop_core.cli.common import parse_options
from tabletop_core.cli.completion import complete_options
from tabletop_core.cli.options import allowed_values, describe_options
from tabletop_core.errors import OptionError
from tabletop_core.registry import installed_game, load_game
from unbroken.content.loader import default_pack

#: The console script the install put beside the interpreter: the command a player types.
TABLETOP = str(Path(sys.executable).with_name("tabletop"))
GAMES = ("unbroken", "runebound_coop", "unrest")
#: The options an example needs beside its own, which the option's meaning must name.
NEEDS = {("unbroken", "easy_se15"): "difficulty=easy", ("unrest", "research"): "variant=capitol"}
#: Names of the code, not of the game: none belongs in what an option means.
INTERNAL = ("make_options", "bind_pack", "GAME.", "new_game", "PACKS", "pathlib", "load_pack", "load_content")
MARKUP = re.compile(r"``|:class:|:func:|:mod:|:meth:|:data:|\*\*")
#: A dotted name with an underscore (``unbroken.setup_x``, ``runebound_coop.content``) or two dots (``a.b.c``).
DOTTED = re.compile(r"\b\w*_\w*\.\w|\b[a-z]\w*\.[a-z]\w*\.\w")


def tabletop(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command in ``cwd``, with no input (not a terminal: a plain table 120 characters wide)."""
    return subprocess.run(
        [TABLETOP, *argv], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180, check=False
    )


@attrs.frozen
class Row:
    """One option's row of the printed table, each cell's wrapped pieces joined by a space."""

    option: str
    type: str
    default: str
    allowed: str
    example: str
    meaning: str


def compact(text: str) -> str:
    """``text`` without whitespace: a cell's pieces compare so whether the table wrapped a word or folded it."""
    return re.sub(r"\s+", "", text)


def rows(text: str) -> dict[str, Row]:
    """The rows of the table ``tabletop options`` printed: a row starts where the option column is filled."""
    pieces: list[list[list[str]]] = []
    for line in text.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        assert len(cells) == 6, line
        if cells[0]:
            pieces.append([[] for _ in cells])
        for column, cell in zip(pieces[-1], cells, strict=True):
            if cell:
                column.append(cell)
    found = [Row(*(" ".join(column) for column in row)) for row in pieces]
    return {row.option: row for row in found}


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Row]]:
    """``tabletop options GAME`` of each game, read back into rows."""
    out = {}
    for name in GAMES:
        done = tabletop("options", name, cwd=tmp_path_factory.mktemp(name))
        assert done.returncode == 0 and not done.stderr, done.stderr
        out[name] = rows(done.stdout)
    return out


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("tabletop: ")
    return done.stderr


# ----- the table --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_option_shows_its_allowed_values_an_example_and_a_meaning(
    name: str, printed: dict[str, dict[str, Row]]
) -> None:
    game = load_game(name)
    shown = printed[name]
    assert list(shown) == [f.name for f in attrs.fields(game.options_type) if f.init]
    for option, row in shown.items():
        assert row.allowed and row.example and row.meaning, row
        assert compact(row.example).lstrip("'").startswith(f"{option}="), row  # as typed, quoted for the shell


@pytest.mark.parametrize("name", GAMES)
def test_every_example_is_accepted_by_the_game_as_typed(name: str, printed: dict[str, dict[str, Row]]) -> None:
    game = load_game(name)
    for option, _kind, _default, _allowed, example, meaning in describe_options(game):
        assert compact(printed[name][option].example) == compact(example)  # the command shows these examples
        needs = NEEDS.get((name, option))
        if needs:  # the example works with another option, which the meaning names
            assert needs in compact(meaning), meaning
        typed = [*([needs] if needs else []), *shlex.split(example)]
        made = game.make_options(**parse_options(typed))
        value = getattr(made, option)
        assert value != getattr(game.make_options(), option) or option in ("pack", "pack_sha256"), (option, value)


@pytest.mark.parametrize("name", GAMES)
def test_no_meaning_names_the_code(name: str, printed: dict[str, dict[str, Row]]) -> None:
    for row in printed[name].values():
        for said in (row.meaning, compact(row.meaning)):
            assert not any(word in said for word in INTERNAL), row
            assert not MARKUP.search(said), row
        assert not DOTTED.search(row.meaning), row


def test_the_characters_heroes_and_enemies_are_the_packs(printed: dict[str, dict[str, Row]]) -> None:
    characters = printed["unbroken"]["character"]
    assert compact(characters.allowed) == compact(", ".join(c.id for c in default_pack().characters))
    pack = builtin_content()
    for option, names in (("heroes", pack.heroes), ("enemies", pack.enemies)):
        assert compact(printed["runebound_coop"][option].allowed) == compact(", ".join(sorted(names)))
    # Another pack (tabletop compare --pack) has other names: each meaning says the names are the pack's.
    for row in (characters, printed["runebound_coop"]["heroes"], printed["runebound_coop"]["enemies"]):
        assert "from the pack" in row.meaning, row
    assert "comma separated" in printed["runebound_coop"]["heroes"].meaning


def test_the_plain_words_of_the_cryptic_options(printed: dict[str, dict[str, Row]]) -> None:
    easy = printed["unbroken"]["easy_se15"].meaning
    assert "15 Small Effort" in easy and "Easy" in easy
    assert "leave it empty" in printed["unbroken"]["pack_sha256"].meaning
    assert compact(printed["runebound_coop"]["max_rounds"].allowed) == "1to50"
    assert compact(printed["runebound_coop"]["hand"].allowed) == "0to10"
    assert "Short Bow" in printed["runebound_coop"]["assets"].allowed


# ----- lists and wrong values -------------------------------------------------------------------------------------


def test_a_list_option_takes_names_with_spaces_and_repeats_comma_separated(tmp_path: Path) -> None:
    typed = ("--option", "enemies=Ogre,Orc Brigand,Ogre")
    done = tabletop("check", "runebound_coop", "--games", "1", *typed, cwd=tmp_path)
    assert done.returncode == 0 and "conformance passed" in done.stdout, done.stderr
    game = load_game("runebound_coop")
    made: Any = game.make_options(**parse_options(["enemies=Ogre, Orc Brigand,Ogre"]))
    assert made.enemies == ("Ogre", "Orc Brigand", "Ogre")
    assert game.make_options(**parse_options(['heroes=["Elian","Lissa"]'])) == game.make_options(heroes="Elian,Lissa")


@pytest.mark.parametrize(
    ("name", "option", "says", "lists"),
    [
        ("runebound_coop", "heroes=Elian,Lisa", "unknown hero 'Lisa'; did you mean 'Lissa'?", "heroes: Corbin, "),
        (
            "runebound_coop",
            "enemies=Sorcerer,Orc Brigant",
            "unknown enemy 'Orc Brigant'; did you mean 'Orc Brigand'?",
            "enemies: Ashfang Marauder, ",
        ),
        (
            "runebound_coop",
            'assets=[["Short Bo"]]',
            "unknown asset 'Short Bo'; did you mean 'Short Bow'?",
            "Mana Armor",
        ),
        (
            "runebound_coop",
            "enemy_choices=dmage",
            "unknown enemy_choices 'dmage'; did you mean 'damage'?",
            "evaluate, damage, player",
        ),
        ("unbroken", "character=snaek", "unknown character 'snaek'; did you mean 'sneak'?", "sneak, sage, hunter"),
        ("unbroken", "difficulty=hadr", "unknown difficulty 'hadr'; did you mean 'hard'?", "easy, normal, hard"),
        ("unrest", "variant=capitl", "unknown variant 'capitl'; did you mean 'capitol'?", "standard, capitol"),
    ],
)
def test_a_wrong_value_is_one_line_naming_the_closest(
    name: str, option: str, says: str, lists: str, tmp_path: Path
) -> None:
    err = one_line_refusal(tabletop("play", name, "--bots", "--option", option, cwd=tmp_path))
    assert says in err and lists in err, err
    assert "(options: " not in err and "{" not in err, err  # the mistake, not a dump of everything typed


def test_completion_offers_the_packs_names() -> None:
    assert complete_options("heroes=Elian,Li", Namespace(game="runebound_coop")) == ["heroes=Elian,Lissa"]
    assert complete_options("character=s", Namespace(game="unbroken")) == ["character=sneak", "character=sage"]


def test_every_game_refuses_a_value_outside_an_allowed_list_naming_the_closest() -> None:
    """The core checks every option with a list of allowed values, so a new game needs no code of its own."""
    from tabletop_core.testing.kuhn import GAME as KUHN

    assert KUHN.option_help() == {}  # the core declares it; a game without explanations has none
    for name in ("unbroken", "runebound_coop", "unrest"):
        game = installed_game(name)
        fields = attrs.fields(game.options_type)
        listed = {f.name: allowed_values(f.validator) or () for f in fields}
        texts = {k: v for k, v in listed.items() if v and all(isinstance(c, str) for c in v)}
        assert texts, name  # each game has at least one option with a list of allowed texts
        for option, allowed in texts.items():
            typo = allowed[0][:-1] + "x"
            with pytest.raises(OptionError) as refused:
                game.make_options(**{option: typo})
            assert f"unknown {option} {typo!r}" in str(refused.value), (name, option, refused.value)
