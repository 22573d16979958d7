"""The game as a whole: a scripted winning game, the bot, the protocol, properties of random play."""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unbroken
from tabletop_core import from_json, play, to_json
from tabletop_core.errors import IllegalActionError, StateFormatError
from tests.playouts import random_playout
from tests.unbroken.helpers import REFERENCE
from unbroken.bots import HeuristicAgent
from unbroken.rules.scoring import score, title

LINE = Path(__file__).parent / "data" / "winning_line.txt"


def test_scripted_winning_game_from_a_fixed_seed() -> None:
    """Every action of the line is scripted, chance outcomes included (cards and rolls by name): no generator."""
    moves = [x for x in LINE.read_text(encoding="utf-8").splitlines() if x and not x.startswith("#")]
    assert sum(m.startswith(("draw ", "roll ")) for m in moves) >= 20
    state = unbroken.new_game(difficulty="normal", character="brawler", pack=REFERENCE)
    for text in moves:
        assert not unbroken.is_terminal(state)
        state = unbroken.step(state, unbroken.parse_action(state, text))
    assert unbroken.is_terminal(state) and state.outcome == 1 and state.level == 4
    points = score(state)
    assert unbroken.returns(state) == (float(points),) and points > 0
    assert f"WON with {points} points ({title(points)})" in unbroken.render(state)


def test_default_agents_are_the_heuristic_bot() -> None:
    state = unbroken.new_game(seed=1)
    agents = unbroken.GAME.default_agents(state)
    assert len(agents) == 1 and isinstance(agents[0], HeuristicAgent)


def test_heuristic_bot_wins_sometimes_and_beats_random_play() -> None:
    bot_levels, wins = [], 0
    for seed in range(40):
        character = ["sneak", "sage", "hunter", "brawler"][seed % 4]
        s, _ = play(
            unbroken.GAME, [HeuristicAgent()], seed=seed, options={"difficulty": "easy", "character": character}
        )
        bot_levels.append(s.level)
        wins += s.outcome > 0
    assert wins >= 1 and np.mean(bot_levels) >= 2.5


def test_action_ids_decode_and_unknown_ids_raise() -> None:
    state = unbroken.new_game(seed=2)
    for action in unbroken.legal_actions(state):
        assert unbroken.action_from_id(state, unbroken.action_id(action)) == action
    try:
        unbroken.action_from_id(state, unbroken.GAME.spec.num_distinct_actions)
    except IllegalActionError:
        pass
    else:
        raise AssertionError("an out-of-range id must raise")


def test_observation_tensor_shape_and_render() -> None:
    state = unbroken.new_game(seed=3)
    tensor = unbroken.observation_tensor(state, 0)
    assert tensor.shape == unbroken.GAME.spec.observation_shape and tensor.dtype == np.float32
    assert "Level 1 travel/preparation" in unbroken.render(state)
    assert unbroken.GAME.describe_step(state) == "Level 1 travel/preparation"


@pytest.mark.parametrize(
    ("old", "new"),
    [('"bare_hands"', '"laser_sword"'), ('"uses":1', '"uses":9'), ('"round":1', '"round":7')],
)
def test_broken_state_json_is_refused(old: str, new: str) -> None:
    state = unbroken.new_game(seed=4)
    text = to_json(state)
    assert old in text
    with pytest.raises(StateFormatError):
        from_json(unbroken.GAME, text.replace(old, new, 1))


def test_unknown_skill_in_json_is_refused() -> None:
    state = attrs.evolve(unbroken.new_game(seed=4), skills=("daring",))
    with pytest.raises(StateFormatError):
        from_json(unbroken.GAME, to_json(state).replace('"daring"', '"flying"'))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), difficulty=st.sampled_from(["easy", "normal", "hard"]))
def test_random_playouts_stay_in_bounds_and_round_trip(seed: int, difficulty: str) -> None:
    rng = np.random.default_rng(seed)
    start = unbroken.new_game(
        rng=rng, difficulty=difficulty, character=["sneak", "sage", "hunter", "brawler"][seed % 4]
    )
    states = list(random_playout(unbroken.GAME, start, rng, chance="settle"))
    for steps, state in enumerate(states):
        if steps and steps % 7 == 0:
            assert from_json(unbroken.GAME, to_json(state)) == state
        assert all(t.low <= t.value <= t.high for t in state.res)
    spec = unbroken.GAME.spec
    assert spec.min_utility <= unbroken.returns(states[-1])[0] <= spec.max_utility


def test_rolls_read_as_what_they_mean_and_parse_back() -> None:
    """A newcomer reading a game sees which monster a roll reveals and which Combat Action it is."""
    from tests.unbroken.helpers import at_battle, at_prep, cond, do, texts, with_res
    from unbroken.content.loader import default_pack

    pack = default_pack()
    s = with_res(at_prep(1), time=1)
    s = do(s, "fight")  # the Trickery Step reveals the monster by a roll
    names = texts(s)
    assert names == [f"roll {f}: {pack.monster_for(1, f).name}" for f in range(1, 7)]
    assert unbroken.parse_action(s, names[1]) == unbroken.parse_action(s, "roll 2")
    s = at_battle("basilisk", 4, character="hunter", difficulty="hard", advance=True)
    basilisk = next(m for m in pack.monsters if m.id == "basilisk")
    assert texts(s)[5] == f"roll 6: {basilisk.table[5].text}"
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter", conditions=cond("paralyzed", tokens=2))
    assert texts(s)[:1] == ["roll 1: Paralyzed: skip turn"] and texts(s)[5] == "roll 6: Paralyzed: no effect"
    s = unbroken.new_game(difficulty="easy")
    assert texts(s) == [
        "roll 1: +1 Metal",
        "roll 2: +1 Wood",
        "roll 3: +1 Food",
        "roll 4: +1 Cunning",
        "roll 5: +1 Medium Effort",
        "roll 6: +1 Treasure",
    ]


def test_render_names_cards_and_says_why_the_game_was_lost() -> None:
    from tests.unbroken.helpers import at_battle, cond, roll, with_res

    s = at_battle("dark_elf", 2, character="hunter", skills=("daring",), conditions=cond("poisoned", tokens=2))
    text = unbroken.render(s)
    assert "monster: Dark Elf armor" in text and "skills: Daring" in text and "Poisoned (2 tokens)" in text
    s = with_res(at_battle("hyena", 1, pack=REFERENCE, character="hunter"), se=0)
    s = roll(unbroken.step(s, unbroken.parse_action(s, "skip")), 6)  # WOUND with no Effort
    assert unbroken.is_terminal(s) and "LOST (could not pay the Effort required)" in unbroken.render(s)


def test_bot_goes_to_the_trickery_step_before_an_ambush_can_take_it_away() -> None:
    from tests.unbroken.helpers import at_prep, with_res
    from unbroken.actions import EXPLORE, FIGHT, Act

    s = with_res(at_prep(3, character="hunter", monster="gargoyle"), cunning=4, time=3, se=6)  # Trickery: 4 Cunning
    s = attrs.evolve(s, uses=0)  # no Forage left to take first
    legal = list(unbroken.legal_actions(s))
    assert HeuristicAgent().choose(s, legal) == Act(FIGHT)
    assert HeuristicAgent().choose(with_res(s, cunning=3), legal) == Act(EXPLORE)  # cannot trick: keep exploring


def test_bot_spends_little_on_an_attack_the_monster_will_ignore() -> None:
    """Against DEFEND ("ignore your next attack") the bot clears it with its cheapest attack."""
    from tests.unbroken.helpers import at_battle, texts, with_res

    s = at_battle("troll", 4, character="hunter", weapons=("bare_hands", "knife", "sword"))
    assert s.combat is not None
    # 5 Health left: the Sword's Cleave (5 Wounds) would kill.
    s = with_res(attrs.evolve(s, combat=attrs.evolve(s.combat, armor=0, health=5), uses=0), se=10, me=1, le=1)
    assert {"attack slash", "attack lunge", "attack cleave"} <= set(texts(s))
    legal = list(unbroken.legal_actions(s))
    bot = HeuristicAgent()
    assert unbroken.action_to_str(s, bot.choose(s, legal)) != "attack slash"  # a bigger hit when it lands
    assert s.combat is not None
    defended = attrs.evolve(s, combat=attrs.evolve(s.combat, defend=True))
    assert unbroken.action_to_str(defended, bot.choose(defended, legal)) == "attack slash"  # 2 Small Effort
