"""The ``tabletop`` command as a newcomer meets it, through the real installed command in a temporary folder:
help that explains every command with examples that parse, options with their allowed values and an example,
lists as comma-separated values, one clear line (with "did you mean") for each mistake, a closed pipe that ends
quietly, ``play`` that seats the person, long work that shows progress in a terminal and nothing when piped,
shell completion, and install instructions that work from a clone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tabletop_core.cli import build_parser
from tabletop_core.cli.helptext import COMMAND_HELP

ROOT = Path(__file__).resolve().parents[2]
#: The console script the install put beside the interpreter: the command a user types.
TABLETOP = str(Path(sys.executable).with_name("tabletop"))
TIMEOUT = 180
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
#: What a docstring's markup looks like; none of it belongs in a command's help.
MARKUP = re.compile(r"``|:class:|:func:|:mod:|:meth:|:data:|\*\*")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "120", **extra}


def tabletop(*argv: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The real command in ``cwd``, with no input (not a terminal)."""
    return subprocess.run(
        [TABLETOP, *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=_env(**env),
    )


def spawn(*argv: str, cwd: Path) -> pexpect.spawn[str]:
    """The real command on a pseudo-terminal, as a person runs it."""
    env = {**_env(), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(TABLETOP, list(argv), cwd=str(cwd), env=env, encoding="utf-8", timeout=TIMEOUT)


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("tabletop: ")
    return done.stderr


# ----- help -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(COMMAND_HELP))
def test_every_command_has_a_description_and_examples_without_markup(command: str, tmp_path: Path) -> None:
    done = tabletop(command, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    description = text.split("\n\n")[1]  # after the usage, before the arguments
    assert not description.startswith(("positional arguments", "options:")), text
    assert len(description.split()) >= 8 and not MARKUP.search(text), text
    examples = text.split("examples:\n", 1)[1].splitlines()
    assert all(line.startswith("  tabletop ") for line in examples if line.strip())
    assert any(line.startswith(f"  tabletop {command}") for line in examples)


def test_every_example_in_the_help_parses() -> None:
    # private: argparse lists its subcommands only through its private fields
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(COMMAND_HELP) == set(commands.choices)
    for command, (_, examples) in COMMAND_HELP.items():
        for example in examples:
            argv = shlex.split(example)[1:]
            args = parser.parse_args(argv)
            assert args.command == argv[0], example
        assert any(shlex.split(example)[1] == command for example in examples)


def test_the_top_level_help_says_how_to_start_and_how_to_turn_on_completion(tmp_path: Path) -> None:
    done = tabletop("--help", cwd=tmp_path)
    assert done.returncode == 0 and "tabletop play unbroken" in done.stdout
    assert "register-python-argcomplete tabletop" in done.stdout


# ----- shell completion -------------------------------------------------------------------------------------------


def complete(line: str, cwd: Path) -> list[str]:
    """What the shell would be offered for ``line`` (argcomplete's protocol: the answer goes to a file)."""
    answer = cwd / "completions.txt"
    done = subprocess.run(
        [TABLETOP],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=_env(
            _ARGCOMPLETE="1",
            COMP_LINE=line,
            COMP_POINT=str(len(line)),
            _ARGCOMPLETE_IFS="\n",
            _ARGCOMPLETE_STDOUT_FILENAME=str(answer),
        ),
    )
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in answer.read_text().split("\n")]


def test_completion_offers_commands_games_options_their_values_and_agents(tmp_path: Path) -> None:
    assert "simulate" in complete("tabletop si", tmp_path)
    assert set(complete("tabletop play un", tmp_path)) == {"unbroken", "unrest"}
    offered = complete("tabletop play runebound_coop --option ", tmp_path)
    assert {"heroes=", "enemy_choices=", "retreat="} <= set(offered)
    assert set(complete("tabletop check unbroken --option difficulty=", tmp_path)) == {
        "difficulty=easy",
        "difficulty=normal",
        "difficulty=hard",
    }
    agents = complete("tabletop simulate unrest --agent ", tmp_path)
    assert {"random", "heuristic", "mcts", "ismcts", "unrest-empire"} <= set(agents)


# ----- options ----------------------------------------------------------------------------------------------------


def test_options_show_every_choice_and_an_example_as_typed(tmp_path: Path) -> None:
    done = tabletop("options", "unbroken", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if "option" in line and "allowed" in line)
    assert "example" in header
    row = next(line for line in done.stdout.splitlines() if "difficulty" in line and "│" in line)
    assert "easy, normal, hard" in row and "difficulty=easy" in row and "'" not in row
    lists = tabletop("options", "runebound_coop", cwd=tmp_path).stdout
    heroes = next(line for line in lists.splitlines() if line.startswith("│ heroes"))
    assert "list of names" in heroes and "Elian,Corbin" in heroes
    assert "true or false" in next(line for line in lists.splitlines() if line.startswith("│ retreat"))


def test_a_list_option_takes_comma_separated_names(tmp_path: Path) -> None:
    done = tabletop(
        "play", "runebound_coop", "--bots", "--seed", "1", "--option", "heroes=Elian,Lissa", "--record", "g.json",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    options = json.loads((tmp_path / "g.json").read_text())["record"]["options"]
    assert options["heroes"] == ["Elian", "Lissa"]
    assert "seat 1 (Lissa)" in done.stdout


# ----- errors -----------------------------------------------------------------------------------------------------


def test_an_unknown_option_is_one_line_with_the_closest_name(tmp_path: Path) -> None:
    err = one_line_refusal(tabletop("play", "unbroken", "--option", "dificulty=hard", cwd=tmp_path))
    assert "unknown option 'dificulty'; did you mean 'difficulty'?" in err and "__init__" not in err
    err = one_line_refusal(tabletop("play", "unbroken", "--option", "foo=bar", cwd=tmp_path))
    assert "unknown option 'foo'" in err and "options: difficulty, character" in err


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("mcts:iterations=abc", "iterations must be a whole number, not 'abc'"),
        ("mcts:seconds=soon", "seconds must be a number, not 'soon'"),
        ("ismcts:iteratons=5", "unknown parameter 'iteratons'; did you mean 'iterations'?"),
        ("random:depth=2", "unknown parameter 'depth' (takes no parameters)"),
    ],
)
def test_a_bad_agent_parameter_is_one_line_in_words(spec: str, says: str, tmp_path: Path) -> None:
    err = one_line_refusal(tabletop("play", "unrest", "--seat", "0", "--vs", spec, cwd=tmp_path))
    assert says in err and "not supported between" not in err and "__init__" not in err


def test_a_results_folder_of_another_run_is_refused_naming_what_differs(tmp_path: Path) -> None:
    assert tabletop("simulate", "runebound_coop", "--games", "2", "--out", "r", "--quiet", cwd=tmp_path).returncode == 0
    err = one_line_refusal(
        tabletop("simulate", "runebound_coop", "--games", "2", "--seed", "3", "--out", "r", cwd=tmp_path)
    )
    assert "r holds results of another simulation (seed 0 there, 3 here)" in err
    assert "{" not in err and "tabletop-rules/simulation" not in err


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert tabletop("play", "unrest", "--bots", "--seed", "4", "--record", str(record), cwd=tmp_path).returncode == 0
    done = subprocess.run(
        f"{shlex.quote(TABLETOP)} replay game.json --reveal | head -n 2",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=_env(),
    )
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2
    assert done.stderr == "", done.stderr


# ----- play seats the person --------------------------------------------------------------------------------------


@pytest.mark.usefixtures("sigint_for_children")
def test_play_in_a_terminal_seats_the_person_in_a_one_player_game(tmp_path: Path) -> None:
    child = spawn("play", "unbroken", "--seed", "1", cwd=tmp_path)
    child.expect(r"you> ")  # the prompt of the solo seat: nobody else is asked to move
    seen = ANSI.sub("", child.before or "")
    assert "your moves" in seen and "HeuristicAgent" not in seen
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and (tmp_path / "tabletop-unbroken-1.json").exists()


@pytest.mark.usefixtures("sigint_for_children")
def test_play_in_a_terminal_seats_the_person_at_seat_0_of_several_and_says_how_to_pick(tmp_path: Path) -> None:
    child = spawn("play", "unrest", "--seed", "1", cwd=tmp_path)
    child.expect(r"Rebellion> ")
    assert "you play seat 0 (Rebellion); --seat picks another" in ANSI.sub("", child.before or "")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()


def test_play_without_a_terminal_or_with_bots_lets_bots_play(tmp_path: Path) -> None:
    done = tabletop("play", "unbroken", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0 and "seat 0 (you): the bot" in done.stdout
    bots = tabletop("play", "unbroken", "--bots", "--seed", "1", cwd=tmp_path)
    assert bots.returncode == 0 and bots.stdout.splitlines()[:3] == done.stdout.splitlines()[:3]
    assert "--seat and --bots" in one_line_refusal(tabletop("play", "unrest", "--bots", "--seat", "0", cwd=tmp_path))


# ----- long work speaks -------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("sigint_for_children")
def test_check_shows_progress_in_a_terminal_and_nothing_when_piped(tmp_path: Path) -> None:
    child = spawn("check", "unrest", "--games", "2", cwd=tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    seen = ANSI.sub("", child.before or "")
    assert child.exitstatus == 0 and "checking unrest" in seen and "/2 games" in seen
    piped = tabletop("check", "unrest", "--games", "2", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout.count("\n") == 1 and "checking" not in piped.stdout


@pytest.mark.usefixtures("sigint_for_children")
def test_a_search_bot_shows_that_it_is_thinking(tmp_path: Path) -> None:
    child = spawn("play", "unrest", "--seat", "Empire", "--vs", "mcts:iterations=300", "--seed", "2", cwd=tmp_path)
    child.expect(r"Empire> ")
    assert "Rebellion is thinking" in ANSI.sub("", child.before or "")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()


def test_simulate_has_a_default_folder_and_a_finished_rerun_has_nothing_to_do(tmp_path: Path) -> None:
    first = tabletop("simulate", "runebound_coop", "--games", "3", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    folder = "tabletop-results-runebound_coop-0"
    assert f"-> {folder}" in first.stdout and (tmp_path / folder / "games.jsonl").is_file()
    again = tabletop("simulate", "runebound_coop", "--games", "3", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"all 3 games are already in {folder}: nothing to play" in again.stdout
    assert "games/s" not in again.stdout and "ETA" not in again.stdout
    other = tabletop("simulate", "runebound_coop", "--games", "2", "--agent", "random", cwd=tmp_path)
    assert other.returncode == 0 and f"-> {folder}-2" in other.stdout  # another plan: the next free folder


# ----- install ----------------------------------------------------------------------------------------------------


def test_the_docs_install_from_a_clone_or_a_wheel_not_from_an_index() -> None:
    pages = [
        ROOT / "README.md",
        ROOT / "docs" / "getting-started.md",
        *sorted((ROOT / "docs" / "adapters").glob("*.md")),
    ]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install '?\"?tabletop-rules", text), page  # not published on an index
    guide = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert "pip install -e ." in guide and "dist/tabletop_rules-" in guide


def test_getting_started_lists_every_extra_and_what_it_adds() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    guide = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    table = [line for line in guide.splitlines() if line.startswith("| `")]
    listed = {line.split("`")[1] for line in table}
    assert listed == set(extras) - {"cli"}, listed ^ (set(extras) - {"cli"})
    assert all(len(line.split("|")[2].split()) >= 3 for line in table)  # each says what it adds
    assert "rich" in guide and "only attrs, cattrs and numpy" not in guide
