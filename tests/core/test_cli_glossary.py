"""Each game's glossary: the rule of every step reached, a text for every card on the table, a legend
for the render's symbols, and why the game ended."""

from __future__ import annotations

import re
from typing import Any

import pytest

import runebound_coop
import unbroken
import unrest
from tabletop_core.records import play
from tabletop_core.spec import CHANCE

GAMES: dict[str, Any] = {"unbroken": unbroken.GAME, "runebound_coop": runebound_coop.GAME, "unrest": unrest.GAME}


def _states(game: Any, seed: int) -> list[Any]:
    from tabletop_core.records import replay

    _final, record = play(game, game.default_agents(game.new_game()), seed=seed)
    states: list[Any] = list(replay(record, game, states=True))
    return states


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_step_reached_has_its_rule_in_words(name: str) -> None:
    # private: the table of step rules is checked against every step a game reaches
    game = GAMES[name]
    module = {"unbroken": unbroken, "runebound_coop": runebound_coop, "unrest": unrest}[name]
    rules = module.glossary._STEP_RULES
    for seed in (1, 2):
        for state in _states(game, seed):
            if game.is_terminal(state):
                assert game.step_rules(state).startswith(("The game is over", "The encounter is over"))
                continue
            assert state.pos.step in rules, f"{name}: no rule text for step {state.pos.step!r}"
            assert game.step_rules(state).startswith(rules[state.pos.step])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_end_says_why_and_only_at_the_end(name: str) -> None:
    game = GAMES[name]
    for seed in (1, 2, 3):
        states = _states(game, seed)
        assert all(game.end_reason(s) == "" for s in states[:-1])
        reason = game.end_reason(states[-1])
        assert reason and any(word in reason for word in ("win", "lose", "draw")), reason


@pytest.mark.parametrize("name", sorted(GAMES))
def test_card_texts_are_never_empty(name: str) -> None:
    game = GAMES[name]
    for state in _states(game, 4)[::5]:
        player = game.current_player(state)
        texts = game.card_texts(state, None if player < 0 else player)
        assert texts and all(title and text for title, text in texts)


def test_unrest_cards_in_view_include_every_mission_on_the_table() -> None:
    for state in _states(unrest.GAME, 2)[20::10]:
        table = unrest.GAME.render(state, 1).split("\n")[1].removeprefix("Missions: ").split(", ")
        titles = {t for t, _ in unrest.GAME.card_texts(state, 1)}
        assert {f"Mission: {m}" for m in table} <= titles
        assert {"Power: Surveil", "Power: Destroy", "Power: Reroute", "Power: Blockade"} <= titles


def test_unbroken_cards_in_view_include_revealed_encounters_and_the_monster() -> None:
    seen_encounter = seen_monster = False
    for state in _states(unbroken.GAME, 3):
        titles = {t for t, _ in unbroken.GAME.card_texts(state)}
        text = unbroken.GAME.render(state)
        revealed = re.search(r"^revealed: (.*)$", text, re.M)
        if revealed:
            seen_encounter = True
            assert {f"Encounter: {n}" for n in revealed.group(1).split(", ")} <= titles
        monster = re.search(r"^(?:scouted )?monster: (.*?)(?: armor|$)", text, re.M)
        if monster:
            seen_monster = True
            assert f"Monster: {monster.group(1)}" in titles
            (sheet,) = [t for title, t in unbroken.GAME.card_texts(state) if title.startswith("Monster:")]
            assert "Combat Actions by roll: 1:" in sheet and "Rewards:" in sheet
    assert seen_encounter and seen_monster


def test_unbroken_effects_read_as_words() -> None:
    from unbroken.content.schema import Op
    from unbroken.glossary import cost_text, op_text

    assert op_text(Op("steal", res="food", n=1, alt=(Op("lose", res="se", n=2),))) == (
        "the monster steals 1 Food, returned with its Rewards (if you cannot: lose 2 Small Effort)"
    )
    assert cost_text((Op("spend", res="se", n=1), Op("spend", res="time", n=1))) == "1 Small Effort and 1 Time"
    assert op_text(Op("wound", n=2, pierce=True)) == "inflict 2 Wounds ignoring Armor"


def test_runebound_cards_in_view_name_the_enemies_their_boards_and_the_hand() -> None:
    state = runebound_coop.new_game(seed=3)
    titles = [t for t, _ in runebound_coop.GAME.card_texts(state, 0)]
    assert "Enemy: Sorcerer" in titles and "Combat board: mystic" in titles and "Combat board: warrior" in titles
    assert "Skill card of Elian: Twin Blades" in titles and "Hero: Corbin" in titles


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_legend_explains_the_abbreviations_the_render_prints(name: str) -> None:
    game = GAMES[name]
    symbols = {s for s, _ in game.legend(game.new_game(seed=1))}
    wanted = {
        "unbroken": {"se", "me", "le", "DEFEND", "roll N", "ability uses"},
        "runebound_coop": {"P", "M", "K", "S", "A", "D", "U", "B", "T", "C", "*", "x2", "(..)", "?"},
        "unrest": {"M", "[AoI]", "[Blockade]", "(5D)", "(??)"},
    }[name]
    assert wanted <= symbols
    if name == "unbroken":
        shown = set(re.findall(r"(\w+)=", game.render(game.new_game(seed=1))))
        assert shown - {"cunning", "food", "wood", "metal", "treasure"} <= symbols


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_headline_changes_at_each_chapter(name: str) -> None:
    game = GAMES[name]
    heads = [game.headline(s) for s in _states(game, 1) if game.current_player(s) != CHANCE]
    chapters = [h for i, h in enumerate(heads) if i == 0 or h != heads[i - 1]]
    if name == "unbroken":
        levels = [int(c.split()[1]) for c in chapters]
        assert levels == sorted(levels) and set(levels) == set(range(1, max(levels) + 1))
    assert len(chapters) >= 2
