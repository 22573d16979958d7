"""The terminal game through a real pseudo-terminal, typed exactly as a person types (pexpect)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

import runebound_coop
import unbroken
import unrest

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT = 60


def spawn(*argv: str, cwd: Path) -> pexpect.spawn[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "tabletop_core.cli", *argv],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 120),
    )


def plain(text: str | None) -> str:
    return ANSI.sub("", text or "")


def prompt_of(game: Any, seat: int) -> str:
    return re.escape(f"{game.seat_name(game.new_game(seed=0), seat)}> ")


def play_out(child: pexpect.spawn[str], prompt: str, answer: str = "1", *, at_prompt: bool = False) -> str:
    """Answer every prompt with ``answer`` until the program ends (``at_prompt``: a prompt is already waiting);
    everything it printed, without colour."""
    seen = []
    if at_prompt:
        child.sendline(answer)
    while True:
        i = child.expect([prompt, pexpect.EOF])
        seen.append(plain(child.before))
        if i == 1:
            break
        child.sendline(answer)
    child.close()
    return "".join(seen)


@pytest.mark.usefixtures("sigint_for_children")
def test_unrest_as_the_rebellion_typo_pair_undo_save_ctrl_c_resume(tmp_path: Path) -> None:
    prompt = prompt_of(unrest.GAME, 0)
    child = spawn("play", "unrest", "--seat", "0", "--seed", "5", "--save-to", "auto.json", cwd=tmp_path)
    child.expect(prompt)
    first = child.before or ""
    assert "\x1b[" in first  # colour on a terminal
    assert "Ministry of Plenty" in plain(first) and "[AoI]" in plain(first)  # the table and its key
    child.sendline("targt Plenty and Capitol")
    child.expect(prompt)
    assert "did you mean: target Plenty and Capitol" in plain(child.before)
    child.sendline("target capitol and plenty")  # the pair in the other order
    child.expect(prompt)
    assert "plan step" in plain(child.before) and "Ministry of Plenty [AoI]" in plain(child.before)
    child.sendline("rules")
    child.expect(prompt)
    assert "the rule now: Plan:" in plain(child.before) and "Mission: Revolution" in plain(child.before)
    child.sendline("undo")
    child.expect(prompt)
    assert "undone: back to your decision before 'target Plenty and Capitol'" in plain(child.before)
    child.sendline("2")
    child.expect(prompt)
    child.sendline("pl")
    child.expect(prompt)
    listed = re.search(r"begins \d+ moves: (plan (\S+) revealed)", plain(child.before))
    assert listed  # a prefix of several moves asks for more, naming them
    child.send(f"plan {listed.group(2)} r\t")  # Tab completes the only move that begins so
    child.expect(re.escape(listed.group(1)))
    child.sendcontrol("u")  # and Ctrl-U clears the line again
    child.sendline("1")
    child.expect(prompt)
    child.sendline("save mine.json")
    child.expect(prompt)
    assert "game saved to mine.json; go on with: tabletop resume mine.json" in plain(child.before)
    child.sendintr()  # Ctrl-C
    child.expect(pexpect.EOF)
    out = plain(child.before)
    child.close()
    assert "interrupted: game saved to auto.json" in out and "Traceback" not in out
    assert child.exitstatus == 130
    resumed = spawn("resume", "auto.json", cwd=tmp_path)
    resumed.expect(prompt)
    assert "resumed Unrest after" in plain(resumed.before) and "plan step" in plain(resumed.before)
    rest = play_out(resumed, prompt, at_prompt=True)
    assert resumed.exitstatus == 0 and "Traceback" not in rest
    assert "the end, as" in rest and re.search(r"The (Rebellion|Empire) wins", rest)
    assert "Deck (unordered)" not in rest  # the Rebellion never sees the deck's order, not even at the end


def test_unrest_as_the_empire_sees_the_rebellions_hidden_cards_as_hidden(tmp_path: Path) -> None:
    prompt = prompt_of(unrest.GAME, 1)
    child = spawn("play", "unrest", "--seat", "1", "--seed", "3", cwd=tmp_path)
    out = play_out(child, prompt)
    assert child.exitstatus == 0 and "Traceback" not in out
    assert "(??)" in out and re.search(r"Hand: \d cards", out) and "Deck (unordered)" not in out
    assert "The Empire wins" in out or "The Rebellion wins" in out


def test_unbroken_solo_with_undo_and_rules_to_the_end(tmp_path: Path) -> None:
    prompt = prompt_of(unbroken.GAME, 0)
    child = spawn("play", "unbroken", "--seat", "0", "--seed", "3", cwd=tmp_path)
    child.expect(prompt)
    assert "se=13" in plain(child.before) and "Small Effort" in plain(child.before)  # the key explains se
    child.sendline("rules")
    child.expect(prompt)
    assert "the rule now: Preparation:" in plain(child.before) and "Weapon: Bare Hands" in plain(child.before)
    child.sendline("2")
    child.expect(prompt)
    child.sendline("undo")
    child.expect(prompt)
    assert "undone" in plain(child.before)
    out = play_out(child, prompt, at_prompt=True)
    assert child.exitstatus == 0 and "Traceback" not in out
    assert re.search(r"You (win|lose)", out)


def test_runebound_as_a_hero_to_the_end(tmp_path: Path) -> None:
    prompt = prompt_of(runebound_coop.GAME, 0)
    child = spawn("play", "runebound_coop", "--seat", "0", "--seed", "3", "--vs", "random", cwd=tmp_path)
    child.expect(prompt)
    assert "physical damage" in plain(child.before)  # the key to the token letters
    out = play_out(child, prompt, "2", at_prompt=True)
    assert child.exitstatus == 0 and "Traceback" not in out
    assert re.search(r"The party (wins|loses)|A draw", out)


def test_end_of_input_saves_and_says_so(tmp_path: Path) -> None:
    prompt = prompt_of(unrest.GAME, 0)
    child = spawn("play", "unrest", "--seat", "0", "--seed", "1", cwd=tmp_path)
    child.expect(prompt)
    child.sendeof()  # Ctrl-D
    child.expect(pexpect.EOF)
    child.close()
    assert "input ended: game saved to tabletop-unrest-1.json" in plain(child.before) and child.exitstatus == 1
    assert (tmp_path / "tabletop-unrest-1.json").exists()


def test_replay_step_through_a_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    done = spawn("play", "unrest", "--bots", "--seed", "4", "--record", str(record), cwd=tmp_path)
    done.expect(pexpect.EOF)
    done.close()
    child = spawn("replay", str(record), "--step", "--seat", "1", cwd=tmp_path)
    child.expect(r"move 0/\d+> ")
    child.sendline("")
    child.expect(r"move 1/\d+> ")
    assert "1. " in plain(child.before) and "is laid in the row" in plain(child.before)  # a public chance event
    child.sendline("20")
    child.expect(r"move 20/\d+> ")
    child.sendline("b")
    child.expect(r"move 19/\d+> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("argv", [("play", "unrest", "--seat", "7"), ("replay", "missing.json")])
def test_errors_in_a_terminal_are_one_line(tmp_path: Path, argv: tuple[str, ...]) -> None:
    child = spawn(*argv, cwd=tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    out = plain(child.before).strip()
    assert child.exitstatus == 2 and out.count("\n") == 0 and out.startswith("tabletop: ")
