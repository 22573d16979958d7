"""The OpenSpiel adapter: registration, GameType/GameInfo, ids, observations, serialization, bots, random_sim_test."""

from __future__ import annotations

import base64
import json
import pickle
import pickletools
import subprocess
import sys
from typing import Any

import attrs
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from tabletop_core import CHANCE, Game, IllegalActionError, OptionError, StateFormatError, Utility, from_json
from tabletop_core.adapters import openspiel
from tabletop_core.serialize import unstructure
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.adapters.games import INSTALLED, RUNEBOUND_FIGHTS, Case, cases, installed
from tests.adapters.solo import GAME as SOLO
from tests.adapters.solo import KUHN_RECALL, NIM, Scoring

GT = pyspiel.GameType
NONE, SINGLE, ALL = (
    pyspiel.PrivateInfoType.NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS,
)


def _play_to(game: Any, ids: list[int]) -> Any:
    state = game.new_initial_state()
    for a in ids:
        state.apply_action(a)
    return state


# ----- registration, GameType and GameInfo ---------------------------------------------------------------------


def test_register_names_the_game_python_short_name_and_is_idempotent() -> None:
    assert openspiel.register(KUHN) == "python_kuhn"
    assert openspiel.register(KUHN) == "python_kuhn"
    assert "python_kuhn" in pyspiel.registered_names()
    game = pyspiel.load_game("python_kuhn")
    assert isinstance(game, openspiel.OpenSpielGame) and game.tabletop_game is KUHN


def test_register_refuses_a_second_game_under_the_same_name() -> None:
    openspiel.register(KUHN)

    class Impostor(type(KUHN)):  # type: ignore[misc]  # a subclass of the Kuhn rules with the same short name
        pass

    with pytest.raises(OptionError, match="already has a game"):
        openspiel.register(Impostor())


def test_game_type_and_info_come_from_the_spec() -> None:
    game = openspiel.load(KUHN)
    gt = game.get_type()
    assert gt.short_name == "python_kuhn"
    assert gt.dynamics == GT.Dynamics.SEQUENTIAL
    assert gt.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == GT.Information.IMPERFECT_INFORMATION
    assert gt.utility == GT.Utility.ZERO_SUM
    assert gt.reward_model == GT.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (2, 2)
    assert gt.provides_observation_string and gt.provides_observation_tensor
    assert gt.provides_information_state_string
    assert gt.provides_information_state_tensor  # Kuhn declares its view (own card + every bet) perfect recall
    spec = KUHN.spec
    assert game.num_distinct_actions() == spec.num_distinct_actions
    assert game.max_chance_outcomes() == spec.max_chance_outcomes
    assert (game.min_utility(), game.max_utility()) == (spec.min_utility, spec.max_utility)
    assert game.utility_sum() == 0.0
    assert game.max_game_length() == spec.max_game_length
    assert game.num_players() == 2
    assert game.observation_tensor_shape() == list(spec.observation_shape)


def test_game_type_of_a_one_player_perfect_information_game() -> None:
    game = openspiel.load(SOLO)
    gt = game.get_type()
    assert gt.information == GT.Information.PERFECT_INFORMATION
    assert gt.utility == GT.Utility.GENERAL_SUM
    assert game.utility_sum() is None
    assert game.num_players() == 1 and (gt.min_num_players, gt.max_num_players) == (1, 1)


def test_options_are_game_parameters_of_every_kind() -> None:
    openspiel.register(SOLO)
    spec = pyspiel.load_game("python_solo").get_type().parameter_specification
    assert dict(spec) == {
        "target": 8,
        "turns": 3,
        "bust_faces": "[1]",
        "scoring": "win",
    }
    game = pyspiel.load_game("python_solo(target=12,scoring=points,bust_faces=[1;2],turns=5)")
    assert game.tabletop_options == SOLO.make_options(target=12, turns=5, bust_faces=(1, 2), scoring=Scoring.POINTS)
    same = openspiel.load(SOLO, target=12, turns=5, bust_faces=(1, 2), scoring=Scoring.POINTS)
    assert same.tabletop_options == game.tabletop_options
    assert str(same) == str(game)


def test_bad_parameters_are_refused() -> None:
    openspiel.register(SOLO)
    with pytest.raises(OptionError):
        pyspiel.load_game("python_solo(target=99)")
    with pytest.raises(OptionError):
        pyspiel.load_game("python_solo(bust_faces=not json)")
    with pytest.raises(OptionError, match="unknown option"):
        openspiel.load(SOLO, colour="red")


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_every_variant_survives_openspiels_game_string(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    again = pyspiel.load_game(str(game))  # what serialize_game_and_state writes and reads back
    assert again.tabletop_options == game.tabletop_options == case.game.make_options(**case.options)


def test_a_game_string_number_for_a_text_or_float_option_gets_its_type_back() -> None:
    # private: the adapter's option converter is what this test is about
    assert openspiel._Param("pack", "plain", str, "").to_option(123) == "123"
    assert openspiel._Param("rate", "plain", float, 0.5).to_option(2) == 2.0
    assert openspiel._Param("flag", "plain", bool, False).to_option(True) is True


# ----- ids: decisions and chance outcomes are separate spaces --------------------------------------------------


def test_chance_outcome_ids_and_decision_ids_map_to_their_own_spaces() -> None:
    game = openspiel.load(SOLO)
    state = game.new_initial_state()
    tt = openspiel.tabletop_state(state)
    assert state.is_chance_node() and state.current_player() == CHANCE
    assert state.legal_actions() == list(SOLO.legal_action_ids(tt)) == [0, 1, 2, 3, 4, 5]
    assert [a for a, _ in state.chance_outcomes()] == list(range(6))
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
    assert state.action_to_string(CHANCE, 5) == "face 6"
    state.apply_action(5)  # chance id 5 = face 6 -> starting score 2
    assert openspiel.tabletop_state(state).score == 2
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["roll", "hold"]
    # An id read in the wrong space is described, not mis-decoded.
    assert state.action_to_string(CHANCE, 1) == "chance outcome 1"
    mask = state.legal_actions_mask()
    assert mask == [1, 1]
    state.apply_action(0)  # decision id 0 = roll: a chance node again
    assert state.is_chance_node() and state.legal_actions_mask() == [1] * 6


def test_an_illegal_id_raises_and_leaves_the_state_usable() -> None:
    game = openspiel.load(KUHN)
    state = _play_to(game, [0, 1])
    with pytest.raises(Exception, match=r"no action with id 7|illegal"):
        state.apply_action(7)
    assert state.legal_actions() == [0, 1]


def test_an_unknown_id_is_refused_naming_the_player_the_step_and_the_legal_ids() -> None:
    game = openspiel.load(KUHN)
    state = _play_to(game, [0, 1])
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(7)
    message = str(caught.value)
    assert message.startswith("kuhn: player 0 has no action with id 7 at ")
    assert KUHN.describe_step(openspiel.tabletop_state(state)) in message
    assert message.endswith("legal ids: [0, 1]") and message.count("kuhn:") == 1
    deal = game.new_initial_state()
    with pytest.raises(IllegalActionError, match=r"^kuhn: chance has no outcome with id 9 at .*ids: \[0, 1, 2\]$"):
        deal.apply_action(9)


def test_the_adapter_state_holds_the_tabletop_state_stepped_by_the_same_ids() -> None:
    game = openspiel.load(KUHN)
    ids = [2, 0, 1, 1]
    state = _play_to(game, ids)
    tt = KUHN.new_game()
    for i in ids:
        tt = KUHN.step(tt, KUHN.action_from_id(tt, i))
    assert openspiel.tabletop_state(state) == tt
    assert state.is_terminal() and state.returns() == list(KUHN.returns(tt))
    assert state.history() == ids
    assert str(state) == KUHN.render(tt)


# ----- observations and information states ---------------------------------------------------------------------


def test_observation_string_and_tensor_come_from_observe() -> None:
    game = openspiel.load(KUHN)
    state = _play_to(game, [2, 0, 1])
    tt = openspiel.tabletop_state(state)
    for p in (0, 1):
        assert state.observation_string(p) == KUHN.observation_string(tt, p) == KUHN.render(tt, p)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), KUHN.observation_tensor(tt, p))


def test_hidden_facts_do_not_reach_a_players_strings_or_tensors() -> None:
    game = openspiel.load(KUHN)
    # Player 0 holds K in both; player 1 holds J in one and Q in the other.
    a, b = _play_to(game, [2, 0, 1]), _play_to(game, [2, 1, 1])
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_string(1) != b.observation_string(1)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_information_state_is_perfect_recall_where_the_observation_is_not() -> None:
    game = openspiel.load(SOLO)
    # Two paths to the same view: bank 2+3 in turn 1 versus bank 5 in turn 1 (start score 0 both: face 1 -> 0).
    a = _play_to(game, [0, 0, 1, 0, 2, 1])  # setup face 1, roll 2, roll 3, hold
    b = _play_to(game, [0, 0, 4, 1])  # setup face 1, roll 5, hold
    assert openspiel.tabletop_state(a) == openspiel.tabletop_state(b)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(0).startswith(a.observation_string(0))
    # The same path gives the same information state, however it was reached (clone, fresh play).
    assert a.clone().information_state_string(0) == _play_to(game, [0, 0, 1, 0, 2, 1]).information_state_string(0)


def test_information_state_tensor_is_the_observation_when_the_game_declares_perfect_recall() -> None:
    # private: the recall chain is rebuilt the way the adapter builds it
    game = openspiel.load(KUHN_RECALL)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == list(KUHN_RECALL.spec.observation_shape)
    state = _play_to(game, [1, 2, 0])
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    # The seat's view in words, then a digest of the game's own information state (which here is the view).
    info = json.dumps(unstructure(KUHN_RECALL.information_state(openspiel.tabletop_state(state), 1)), sort_keys=True,
                      separators=(",", ":"))  # fmt: skip
    assert state.information_state_string(1) == f"{state.observation_string(1)}\nrecall {openspiel._chain('', info)}"


class _Secretive(type(KUHN)):  # type: ignore[misc]  # Kuhn's rules, not saying what is public
    spec = attrs.evolve(KUHN.spec, short_name="kuhn_secretive")

    def public_observation(self, state: Any) -> Any:
        return Game.public_observation(self, state)  # the core default: hidden information, no answer


def test_a_game_that_does_not_say_what_is_public_offers_only_the_players_own_observers() -> None:
    game = openspiel.load(_Secretive())
    assert not game.get_type().provides_factored_observation_string
    public_only = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=NONE)
    with pytest.raises(ValueError, match=r"^kuhn_secretive: no observer with public_info=True, private_info=none"):
        game.make_py_observer(public_only)
    own = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = _play_to(game, [2, 0])
    assert own.string_from(state, 0) == state.information_state_string(0)


# ----- serialization through our JSON --------------------------------------------------------------------------


def _pickle_globals(b64: str) -> set[str]:
    """The globals a pickle stream names, read with pickletools (nothing is unpickled)."""
    names: set[str] = set()
    strings: list[str] = []
    for op, arg, _ in pickletools.genops(base64.b64decode(b64)):
        if isinstance(arg, str):
            strings.append(arg)
        if op.name == "STACK_GLOBAL":
            names.add(f"{strings[-2]}.{strings[-1]}")
        elif op.name == "GLOBAL":
            names.add(str(arg).replace(" ", "."))
    return names


def test_serialization_carries_our_json_document_and_no_class_of_ours() -> None:
    game = openspiel.load(KUHN)
    state = _play_to(game, [2, 0, 1])
    text = pyspiel.serialize_game_and_state(game, state)
    b64 = text.split("__dict__=", 1)[1].strip()
    assert _pickle_globals(b64) <= {"builtins.str"}
    payload = next(
        arg for _, arg, _ in pickletools.genops(base64.b64decode(b64)) if isinstance(arg, str) and arg.startswith("{")
    )
    doc = json.loads(payload)
    assert doc["format"] == "tabletop-rules/openspiel-state"
    assert from_json(KUHN, doc["state"]) == openspiel.tabletop_state(state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert openspiel.tabletop_state(state2) == openspiel.tabletop_state(state)
    assert state2.history() == state.history()
    assert [state2.information_state_string(p) for p in (0, 1)] == [state.information_state_string(p) for p in (0, 1)]
    state2.apply_action(1)
    assert state2.is_terminal()


def test_a_tampered_payload_is_refused_by_our_json_checks() -> None:
    # private: the payload is set where OpenSpiel's deserializer sets it
    game = openspiel.load(KUHN)
    state = _play_to(game, [2, 0])
    bad = game.new_initial_state()
    with pytest.raises(StateFormatError):
        bad._node = '{"format":"tabletop-rules/openspiel-state","version":1,"state":"{}","recall":["",""]}'  # type: ignore[assignment]  # as OpenSpiel's deserializer sets it
    node = state._node
    doc = json.loads(node.payload())
    inner = json.loads(doc["state"])
    inner["data"]["hands"] = [2, 2]  # two kings: breaks the deck invariant
    doc["state"] = json.dumps(inner)
    with pytest.raises(StateFormatError):
        bad._node = json.dumps(doc)  # type: ignore[assignment]  # as OpenSpiel's deserializer sets it
    with pytest.raises(AttributeError):
        bad.something = 1


# ----- OpenSpiel's own conformance test and bots ---------------------------------------------------------------

_SIMS = {"kuhn": 30, "kuhn_recall": 30, "solo": 30}


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_random_sim_test_passes(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    pyspiel.random_sim_test(game, num_sims=_SIMS.get(case.name, 20), serialize=True, verbose=False)


def _rollout_evaluator(seed: int) -> Any:
    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))


def _play_with(game: Any, choose: Any, rng: np.random.RandomState) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            action = choose(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def test_openspiel_mcts_bot_plays_the_solo_game_better_than_chance() -> None:
    game = openspiel.load(SOLO, target=10, turns=2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 60, _rollout_evaluator(0), random_state=np.random.RandomState(1))
    always_roll = sum(_play_with(game, lambda s: s.legal_actions()[0], rng).returns()[0] for _ in range(40))
    searched = sum(_play_with(game, bot.step, rng).returns()[0] for _ in range(40))
    assert searched > always_roll


def test_the_resampler_keeps_the_players_view_and_information_state() -> None:
    game = openspiel.load(KUHN)
    state = _play_to(game, [2, 0, 1])
    resample = openspiel.make_resampler(7)
    seen = set()
    for _ in range(30):
        world = resample(state, 1)
        assert world.information_state_string(1) == state.information_state_string(1)
        assert world.observation_string(1) == state.observation_string(1)
        assert world.history() == state.history()
        seen.add(openspiel.tabletop_state(world).hands[0])
    assert seen == {1, 2}  # player 1 holds J, so player 0 holds Q or K
    # OpenSpiel's own entry point resamples through the same determinize.
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(1) == state.information_state_string(1)


def test_openspiel_ismcts_bot_plays_kuhn_with_our_resampler() -> None:
    game = openspiel.load(KUHN)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, _rollout_evaluator(3), 2.0, 40, random_state=np.random.RandomState(4))
    bot.set_resampler(openspiel.make_resampler(5))
    # Holding the king after a bet, ISMCTS always calls.
    state = _play_to(game, [2, 0, 0, 1])
    assert bot.step(state) == 1
    total = 0.0
    for _ in range(30):
        state = _play_with(
            game, lambda s: bot.step(s) if s.current_player() == 0 else rng.choice(s.legal_actions()), rng
        )
        total += state.returns()[0]
    assert total > 0


def test_openspiel_exploitability_of_uniform_play_matches_its_own_kuhn() -> None:
    """OpenSpiel's own Kuhn test: uniform random play has NashConv 11/12 (exploitability 11/24).

    Exploitability walks every information state, so this checks the perfect-recall strings as a whole.
    """
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = openspiel.load(KUHN)
    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) == pytest.approx(11 / 24)
    native = pyspiel.load_game("kuhn_poker")
    assert exploitability.exploitability(native, policy.UniformRandomPolicy(native)) == pytest.approx(11 / 24)


# ----- OpenSpiel's bots on the library's games -----------------------------------------------------------------

#: OpenSpiel's MCTS on the perfect-information games: solo always; Unbroken and a Runebound fight per trait once
#: installed.
MCTS_CASES = [pytest.param("solo", {}, id="solo")]
if installed("unbroken"):
    MCTS_CASES += [pytest.param("unbroken", {"difficulty": d}, id=f"unbroken-{d}") for d in ("easy", "hard")]
if installed("runebound_coop"):
    MCTS_CASES += [
        pytest.param("runebound_coop", dict(fight), id=f"runebound-{trait}")
        for trait, fight in RUNEBOUND_FIGHTS.items()
    ]
#: OpenSpiel's ISMCTS on the hidden-information games (Kuhn always; Unrest once installed).
ISMCTS_GAMES = ["kuhn", *installed("unrest")]
#: The seats that something is hidden from: both Kuhn players (the other's card); in Unrest only the Empire (seat 1):
#: "the Rebellion can peek at the card at any time, but the Empire cannot look at any Rebel card that is not
#: revealed", and the Rebel deck is drawn by chance, not stored.
HIDDEN_FROM = {"kuhn": {0, 1}, "unrest": {1}}


def _game_named(name: str) -> Any:
    return {"solo": SOLO, "kuhn": KUHN, **INSTALLED}[name]


@pytest.mark.parametrize(("name", "options"), MCTS_CASES)
def test_openspiel_mcts_bot_plays_complete_games(name: str, options: dict[str, Any]) -> None:
    tt = _game_named(name)
    game = openspiel.load(tt, **options)
    for seed in range(2):
        bot = mcts.MCTSBot(game, 2.0, 10, _rollout_evaluator(seed), random_state=np.random.RandomState(seed))
        state = _play_with(game, bot.step, np.random.RandomState(seed))
        returns = state.returns()
        assert all(tt.spec.min_utility <= r <= tt.spec.max_utility for r in returns)
        assert returns == list(tt.returns(openspiel.tabletop_state(state)))


@pytest.mark.parametrize("name", ISMCTS_GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_openspiel_ismcts_bot_plays_with_a_determinize_resampler(name: str, seat: int) -> None:
    tt = _game_named(name)
    game = openspiel.load(tt)
    resample = openspiel.make_resampler(seat)
    worlds = 0
    other_worlds = 0

    def checked(state: Any, player: int) -> Any:
        nonlocal worlds, other_worlds
        world = resample(state, player)
        # Every sampled world agrees with what the searching player knows, and only hidden facts vary.
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        worlds += 1
        other_worlds += openspiel.tabletop_state(world) != openspiel.tabletop_state(state)
        return world

    bot = ismcts.ISMCTSBot(game, _rollout_evaluator(seat), 2.0, 8, random_state=np.random.RandomState(seat))
    bot.set_resampler(checked)
    rng = np.random.RandomState(10 + seat)
    state = _play_with(
        game, lambda s: bot.step(s) if s.current_player() == seat else rng.choice(s.legal_actions()), rng
    )
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(tt.spec.utility_sum or 0.0)
    # The search ran on worlds drawn by determinize: where the seat has something hidden from it, some worlds differ
    # from the true state; where it sees everything, every world is the true state.
    assert worlds > 0
    assert (other_worlds > 0) == (seat in HIDDEN_FROM[name]), (name, seat, other_worlds, worlds)


# ----- the same promises, on every game and variant ------------------------------------------------------------

_OS_CHANCE = {"deterministic": GT.ChanceMode.DETERMINISTIC, "explicit_stochastic": GT.ChanceMode.EXPLICIT_STOCHASTIC}
_OS_INFORMATION = {
    "perfect_information": GT.Information.PERFECT_INFORMATION,
    "imperfect_information": GT.Information.IMPERFECT_INFORMATION,
}
_OS_UTILITY = {
    "zero_sum": GT.Utility.ZERO_SUM,
    "constant_sum": GT.Utility.CONSTANT_SUM,
    "identical": GT.Utility.IDENTICAL,
    "general_sum": GT.Utility.GENERAL_SUM,
}


def _walk(game: Any, seed: int, steps: int = 60) -> list[Any]:
    """Clones of the states of one random playout (at most ``steps`` of them)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) < steps:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_game_type_and_info_match_the_spec(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    spec, gt = case.game.spec_for(case.game.make_options(**case.options)), game.get_type()
    assert gt.short_name == f"python_{spec.short_name}"
    assert gt.chance_mode == _OS_CHANCE[spec.chance_mode.value]
    assert gt.information == _OS_INFORMATION[spec.information.value]
    assert gt.utility == _OS_UTILITY[spec.utility.value]
    assert gt.reward_model == GT.RewardModel.TERMINAL and gt.dynamics == GT.Dynamics.SEQUENTIAL
    assert (gt.min_num_players, gt.max_num_players) == (spec.min_num_players, spec.max_num_players)
    assert game.num_players() == case.game.num_players(case.game.initial_state(case.game.make_options(**case.options)))
    assert game.num_distinct_actions() == spec.num_distinct_actions
    assert game.max_chance_outcomes() == spec.max_chance_outcomes
    assert (game.min_utility(), game.max_utility()) == (spec.min_utility, spec.max_utility)
    assert game.max_game_length() == spec.max_game_length
    assert game.observation_tensor_shape() == list(spec.observation_shape)
    assert gt.provides_information_state_tensor == spec.provides_information_state
    if spec.provides_information_state:
        assert game.information_state_tensor_shape() == list(spec.information_state_tensor_shape)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_strings_and_tensors_are_the_views_and_resampled_worlds_keep_them(case: Case) -> None:
    # private: the recall chain is rebuilt the way the adapter builds it
    game = openspiel.load(case.game, **case.options)
    resample = openspiel.make_resampler(1)
    tt_game = case.game
    for state in _walk(game, seed=2)[::3]:
        tt = openspiel.tabletop_state(state)
        for p in range(game.num_players()):
            assert state.observation_string(p) == tt_game.observation_string(tt, p)
            assert np.array_equal(
                np.asarray(state.observation_tensor(p), np.float32), tt_game.observation_tensor(tt, p)
            )
            words, recall = state.information_state_string(p).split("\nrecall ")
            assert words == state.observation_string(p) and len(recall) == 32
            if tt_game.spec.provides_information_state:
                info = json.dumps(unstructure(tt_game.information_state(tt, p)), sort_keys=True, separators=(",", ":"))
                assert recall == openspiel._chain("", info)
                assert np.array_equal(
                    np.asarray(state.information_state_tensor(p), np.float32), tt_game.information_state_tensor(tt, p)
                )
            world = resample(state, p)
            assert world.observation_string(p) == state.observation_string(p)
            assert world.observation_tensor(p) == state.observation_tensor(p)
            assert world.information_state_string(p) == state.information_state_string(p)
            if tt_game.spec.provides_information_state:
                assert world.information_state_tensor(p) == state.information_state_tensor(p)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_serialization_round_trips_every_state_of_a_playout(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    for state in _walk(game, seed=3)[::4]:
        _game, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert openspiel.tabletop_state(back) == openspiel.tabletop_state(state)
        assert back.history() == state.history()
        for p in range(game.num_players()):
            assert back.information_state_string(p) == state.information_state_string(p)
        again = openspiel.loads(openspiel.dumps(state))  # the JSON-only document
        assert openspiel.tabletop_state(again) == openspiel.tabletop_state(state)
        assert again.history() == state.history() and str(again.get_game()) == str(game)


def test_the_library_games_register_under_their_python_names() -> None:
    expected = {"unrest": "python_unrest", "unbroken": "python_unbroken", "runebound_coop": "python_runebound_coop"}
    assert installed(*expected) == list(expected)  # all three games are part of the library
    for name, short_name in expected.items():
        assert openspiel.register(INSTALLED[name]) == short_name
        assert short_name in pyspiel.registered_names()


def test_search_can_start_from_any_tabletop_position() -> None:
    game = openspiel.load(KUHN)
    position = KUHN.new_game(seed=4)  # the deal resolved by the library's own seeding
    state = game.state_from_tabletop(position)
    assert openspiel.tabletop_state(state) == position and state.history() == []
    assert state.legal_actions() == list(KUHN.legal_action_ids(position))
    with pytest.raises(OptionError, match="other options"):
        openspiel.load(SOLO).state_from_tabletop(SOLO.new_game(seed=1, turns=5))
    played = _play_to(game, [0, 1, 0])
    swapped = openspiel.with_tabletop_state(played, KUHN.step(position, KUHN.action_from_id(position, 0)))
    assert swapped.history() == played.history()
    assert openspiel.tabletop_state(swapped) != openspiel.tabletop_state(played)
    with pytest.raises(TypeError):
        openspiel.tabletop_state(pyspiel.load_game("kuhn_poker").new_initial_state())


def test_json_only_documents_are_checked_and_load_in_a_fresh_process() -> None:
    game = openspiel.load(SOLO, turns=2)
    state = _play_to(game, [3, 0, 4])
    text = openspiel.dumps(state)
    assert "pickle" not in text and json.loads(text)["history"] == [3, 0, 4]
    doc = json.loads(text)
    for bad in (
        "not json",
        json.dumps({**doc, "version": 9}),
        json.dumps({**doc, "history": [3, 0, 9]}),  # chance id 9 does not exist
        json.dumps({**doc, "history": [3, 0, 5]}),  # legal, but reaches another state
        json.dumps({**doc, "game": "python_no_such_game()"}),
    ):
        with pytest.raises(StateFormatError):
            openspiel.loads(bad)
    # An installed game (found by its entry point) loads by name in a fresh process that registered nothing.
    unrest_state = openspiel.load(INSTALLED["unrest"]).new_initial_state()
    while len(unrest_state.history()) < 12:
        unrest_state.apply_action(unrest_state.legal_actions()[0])
    script = (
        "import sys\nfrom tabletop_core.adapters import openspiel\n"
        "state = openspiel.loads(sys.stdin.read())\nprint(state.history(), state.current_player())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=openspiel.dumps(unrest_state), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{unrest_state.history()} {unrest_state.current_player()}"


def test_a_deterministic_game_has_no_chance_outcomes_and_mcts_finds_the_winning_move() -> None:
    game = openspiel.load(NIM)
    gt = game.get_type()
    assert gt.chance_mode == GT.ChanceMode.DETERMINISTIC and game.max_chance_outcomes() == 0
    assert game.max_chance_nodes_in_history() == 0
    bot = mcts.MCTSBot(game, 2.0, 300, _rollout_evaluator(0), random_state=np.random.RandomState(0), solve=True)
    state = game.new_initial_state()  # a pile of 10: taking 2 leaves a multiple of 4, a lost position for the opponent
    assert state.action_to_string(0, bot.step(state)) == "take 2"


def test_games_and_states_pickle_and_load_in_a_fresh_process() -> None:
    """What multiprocessing and Ray do: pickle a game or a state here, unpickle it where nothing is registered."""
    game = openspiel.load(INSTALLED["unrest"], variant="capitol")
    state = _walk(game, seed=5, steps=30)[-1]
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.tabletop_options == game.tabletop_options
    back = pickle.loads(pickle.dumps(state))
    assert openspiel.tabletop_state(back) == openspiel.tabletop_state(state) and back.history() == state.history()
    assert [back.information_state_string(p) for p in (0, 1)] == [state.information_state_string(p) for p in (0, 1)]
    script = (
        "import pickle, sys\n"
        "state, game = pickle.loads(sys.stdin.buffer.read())  # the state first: it registers the game itself\n"
        "print(game, len(state.history()), state.current_player())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=pickle.dumps((state, game)), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == [str(game), str(len(state.history())), str(state.current_player())]


def test_a_state_started_from_a_position_survives_the_json_document() -> None:
    game = openspiel.load(KUHN)
    position = KUHN.new_game(seed=4)
    for state in (game.state_from_tabletop(position), openspiel.make_resampler(3)(_play_to(game, [2, 0, 1]), 1)):
        back = openspiel.loads(openspiel.dumps(state))
        assert openspiel.tabletop_state(back) == openspiel.tabletop_state(state)
        assert back.legal_actions() == state.legal_actions()
    # A document that claims no position must still replay to its state.
    doc = json.loads(openspiel.dumps(game.state_from_tabletop(position)))
    with pytest.raises(StateFormatError, match="does not lead"):
        openspiel.loads(json.dumps({**doc, "position": False}))
    # A position whose options are not the game string's is refused as bad input.
    solo = openspiel.load(SOLO, turns=2)
    doc = json.loads(openspiel.dumps(solo.state_from_tabletop(SOLO.new_game(seed=1, turns=2))))
    assert doc["position"] is True
    with pytest.raises(StateFormatError, match="other options"):
        openspiel.loads(json.dumps({**doc, "game": "python_solo(turns=3)"}))


@attrs.frozen
class _TargetOptions:
    """Solo's options with a target that has no default (as a user's own game may have)."""

    target: int = attrs.field(validator=attrs.validators.in_(range(1, 21)))
    turns: int = 3
    bust_faces: tuple[int, ...] = (1,)
    scoring: Scoring = Scoring.WIN


class _SoloNeedingATarget(type(SOLO)):  # type: ignore[misc]  # Solo's rules under another name and options class
    spec = attrs.evolve(SOLO.spec, short_name="solo_target")
    options_type = _TargetOptions


_SOLO_TARGET = _SoloNeedingATarget()


def test_an_option_without_a_default_needs_one_given_to_register() -> None:
    game = _SOLO_TARGET
    with pytest.raises(OptionError, match=r"option 'target' has no default.*defaults="):
        openspiel.register(game)
    assert openspiel.register(game, defaults={"target": 5}) == "python_solo_target"
    assert pyspiel.load_game("python_solo_target").tabletop_options.target == 5
    loaded = pyspiel.load_game("python_solo_target(target=9)")
    assert loaded.tabletop_options == _TargetOptions(target=9)
    state = loaded.new_initial_state()
    state.apply_action(5)  # setup face 6: a starting score of 2
    assert openspiel.tabletop_state(state).score == 2 and state.legal_actions() == [0, 1]


def test_a_game_without_a_perfect_recall_view_says_which_information_state_it_offers() -> None:
    state = openspiel.load(SOLO).new_initial_state()
    assert not state.get_game().get_type().provides_information_state_tensor
    with pytest.raises(ValueError, match=r"^solo: no information state tensor .* use information_state_string"):
        state.information_state_tensor(0)


@pytest.mark.parametrize("name", ["unrest", "unbroken", "runebound_coop"])
def test_openspiels_rl_environment_plays_every_library_game(name: str) -> None:
    """OpenSpiel's RL loop (what its DQN, NFSP and policy-gradient agents run in): on the information state tensor
    where the game offers one (Unrest), else on the observation tensor (rl_environment's own choice)."""
    from open_spiel.python import rl_environment

    tt = INSTALLED[name]
    options = {"heroes": ("Elian", "Tatianna"), "enemies": ("Sorcerer",)} if name == "runebound_coop" else {}
    game = openspiel.load(tt, **options)
    env = rl_environment.Environment(game, seed=1)
    step = env.reset()
    rng = np.random.default_rng(0)
    totals = np.zeros(game.num_players())
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        shape = (
            tt.spec.information_state_tensor_shape if tt.spec.provides_information_state else tt.spec.observation_shape
        )
        assert len(step.observations["info_state"][player]) == int(np.prod(shape))
        step = env.step([int(rng.choice(legal))])
        totals += np.asarray(step.rewards)
    assert totals.tolist() == list(tt.returns(openspiel.tabletop_state(env.get_state)))


# ----- registration on import, public observers, readable strings, utility from the options ----------


def test_importing_the_adapter_registers_every_installed_game_in_a_fresh_process() -> None:
    script = (
        "import pyspiel\nimport tabletop_core.adapters.openspiel as adapter\n"
        "for name in ('python_unrest', 'python_unbroken', 'python_runebound_coop'):\n"
        "    print(name, type(pyspiel.load_game(name)).__name__)\n"
        "print(sorted(adapter.INSTALLED))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[:3] == [
        f"{n} OpenSpielGame_{n.removeprefix('python_')}"
        for n in ("python_unrest", "python_unbroken", "python_runebound_coop")
    ]
    assert lines[3] == str(sorted(INSTALLED))


def test_an_installed_game_that_fails_to_load_is_skipped_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop_core.registry import load_game as real

    def load(name: str) -> Any:
        if name == "broken_plugin":
            raise ImportError("No module named 'broken_plugin'")
        return real(name)

    monkeypatch.setattr(openspiel, "available_games", lambda: ("broken_plugin", "unrest"))
    monkeypatch.setattr(openspiel, "load_game", load)
    with pytest.warns(RuntimeWarning, match=r"installed game 'broken_plugin' not registered: ImportError: No module"):
        registered = openspiel.register_installed()
    assert registered == {"unrest": "python_unrest"}


@pytest.mark.parametrize(
    ("module", "flags", "expected"),
    [
        ("open_spiel.python.examples.example", ["--game_string=python_unrest"], "Utility for player 1 is"),
        (
            "open_spiel.python.examples.mcts",
            ["--game=python_runebound_coop", "--max_simulations=10", "--num_games=1", "--quiet", "--seed=1"],
            "Overall returns",
        ),
    ],
)
def test_openspiels_own_example_scripts_run_on_our_games(module: str, flags: list[str], expected: str) -> None:
    cmd = [sys.executable, "-m", "tabletop_core.adapters.openspiel_run", module, *flags]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout


def test_the_runner_needs_a_module_name() -> None:
    from tabletop_core.adapters import openspiel_run

    with pytest.raises(SystemExit, match="usage"):
        openspiel_run.main([])


def test_kuhn_public_and_private_observations_split_the_players_view() -> None:
    game = openspiel.load(KUHN)
    assert game.get_type().provides_factored_observation_string
    public = game.make_py_observer(
        pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=NONE)
    )
    private = game.make_py_observer(
        pyspiel.IIGObservationType(public_info=False, perfect_recall=False, private_info=SINGLE)
    )
    # Player 0 holds K in both; player 1 holds J in one and Q in the other; the same betting.
    a, b = _play_to(game, [2, 0, 1]), _play_to(game, [2, 1, 1])
    assert (
        public.string_from(a, 0)
        == public.string_from(a, 1)
        == public.string_from(b, 0)
        == "card=- history=[1] player=-1"
    )
    assert private.string_from(a, 0) == private.string_from(b, 0) == "card=2 player=0"
    assert (private.string_from(a, 1), private.string_from(b, 1)) == ("card=0 player=1", "card=1 player=1")
    assert public.tensor is None and private.tensor is None
    with pytest.raises(ValueError, match="strings only"):
        public.set_from(a, 0)


_OBSERVATION_TYPES = [
    pyspiel.IIGObservationType(public_info=pub, perfect_recall=recall, private_info=priv)
    for pub in (True, False)
    for recall in (False, True)
    for priv in (NONE, SINGLE, ALL)
]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_every_observation_type_is_offered_and_public_strings_hide_what_is_private(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    observers = {
        (t.public_info, t.perfect_recall, t.private_info): game.make_py_observer(t) for t in _OBSERVATION_TYPES
    }
    players = range(game.num_players())
    resample = openspiel.make_resampler(3)
    for state in _walk(game, seed=4)[::5]:
        for p in players:
            texts = {key: obs.string_from(state, p) for key, obs in observers.items()}
            assert texts[(True, False, SINGLE)] == state.observation_string(p)
            assert texts[(True, True, SINGLE)] == state.information_state_string(p)
            assert texts[(False, False, NONE)] == texts[(False, True, NONE)] == ""
            # Public information is the same for every seat, and it is all a resampled world needs to keep.
            assert texts[(True, False, NONE)] == observers[(True, False, NONE)].string_from(state, 0)
            world = resample(state, p)
            for key, obs in observers.items():
                if key[2] != ALL:  # other seats' private information is what a resampled world redraws
                    assert obs.string_from(world, p) == texts[key], key
        if case.game.spec.information.value == "perfect_information":
            assert all(observers[(False, False, SINGLE)].string_from(state, p) == "" for p in players)


def _true_information_states(game: Any, state: Any, player: int) -> str:
    """``player``'s information state of ``state``, from the game itself and the history (not the adapter's strings).

    Where the game declares one, it is the game's own; otherwise everything the player saw and did: its views along
    the history (a repeated view once) and its own actions.
    """
    tt_game = game.tabletop_game
    if tt_game.spec.provides_information_state:
        return json.dumps(
            unstructure(tt_game.information_state(openspiel.tabletop_state(state), player)), sort_keys=True
        )
    node = game.new_initial_state()
    seen: list[Any] = []
    for action in [*state.history(), None]:
        view = json.dumps(unstructure(tt_game.observe(openspiel.tabletop_state(node), player)), sort_keys=True)
        if not seen or seen[-1] != view:
            seen.append(view)
        if action is None:
            break
        if node.current_player() == player:
            seen.append(("act", action))
        node.apply_action(action)
    return json.dumps(seen)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_information_state_strings_are_perfect_recall_and_compact(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    by_string: dict[str, set[str]] = {}
    by_state: dict[str, set[str]] = {}
    for seed in range(6):
        for state in _walk(game, seed=seed, steps=80)[::2]:
            for p in range(game.num_players()):
                text = state.information_state_string(p)
                truth = _true_information_states(game, state, p)
                by_string.setdefault(text, set()).add(truth)
                by_state.setdefault(truth, set()).add(text)
                words = state.observation_string(p)
                assert text == f"{words}\nrecall {text[-32:]}"  # the seat's view in words and a 32-digit digest
                assert len(words) < 1500, words
    assert all(len(truths) == 1 for truths in by_string.values())  # distinct information states, distinct strings
    assert all(len(texts) == 1 for texts in by_state.values())  # one information state, one string
    assert len(by_string) == len(by_state) >= 1


class _SoloWithAPointsSpec(type(SOLO)):  # type: ignore[misc]  # Solo's rules; the spec follows the scoring option
    spec = attrs.evolve(SOLO.spec, short_name="solo_spec_for")

    def spec_for(self, options: Any) -> Any:
        if options.scoring == Scoring.POINTS:
            return attrs.evolve(self.spec, utility=Utility.IDENTICAL, max_utility=0.5)
        return self.spec


def test_game_type_and_info_come_from_spec_for_the_options() -> None:
    tt = _SoloWithAPointsSpec()
    win, points = openspiel.load(tt), openspiel.load(tt, scoring=Scoring.POINTS)
    assert win.get_type().utility == GT.Utility.GENERAL_SUM and win.max_utility() == 1.0
    assert points.get_type().utility == GT.Utility.IDENTICAL and points.max_utility() == 0.5
    assert points.tabletop_spec == tt.spec_for(points.tabletop_options)
    assert pyspiel.load_game(str(points)).get_type().utility == GT.Utility.IDENTICAL  # through the game string


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_the_adapter_reports_the_utility_spec_for_gives(case: Case) -> None:
    game = openspiel.load(case.game, **case.options)
    spec = case.game.spec_for(case.game.make_options(**case.options))
    assert game.get_type().utility == _OS_UTILITY[spec.utility.value]
    assert (game.min_utility(), game.max_utility()) == (spec.min_utility, spec.max_utility)
    if spec.utility == Utility.IDENTICAL:
        for state in _walk(game, seed=1, steps=400)[-1:]:
            assert len(set(state.returns())) == 1
