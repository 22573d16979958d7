"""The phase/step machine and the pending stack, alone and driving a test game."""

from __future__ import annotations

from typing import Any, ClassVar, get_args

import attrs
import numpy as np
import pytest

from tabletop_core.conformance import check_game
from tabletop_core.errors import FrameRegistryError, TabletopError
from tabletop_core.fastcopy import replace
from tabletop_core.flow import (
    Automatic,
    Chance,
    Decision,
    Driver,
    Flow,
    Frame,
    FrameRegistry,
    Pending,
    Phase,
    Position,
    pending_top,
)
from tabletop_core.spec import CHANCE, TERMINAL
from tests.core.flowgame import DRIVER, GAME, Choose, Pick, ResolveOrRest


def test_flow_walks_steps_then_phases_then_rounds() -> None:
    flow = Flow((Phase("a", ("x", "y")), Phase("b", ("z",))))
    pos = flow.start()
    seen = []
    for _ in range(4):
        seen.append((pos.round, pos.phase, pos.step))
        pos = flow.next(pos)
    assert seen == [(1, "a", "x"), (1, "a", "y"), (1, "b", "z"), (2, "a", "x")]
    assert flow.next_phase(flow.start()) == Position(1, "b", "z")
    assert flow.next_phase(Position(1, "b", "z")) == Position(2, "a", "x")


def test_flow_rejects_unknown_names_and_bad_declarations() -> None:
    flow = Flow((Phase("a", ("x",)),))
    with pytest.raises(ValueError, match="no phase"):
        flow.at("nope")
    with pytest.raises(ValueError, match="no step"):
        flow.at("a", "nope")
    with pytest.raises(ValueError, match="no step"):
        flow.next(Position(1, "a", "nope"))
    with pytest.raises(ValueError):
        Phase("a", ())
    with pytest.raises(ValueError):
        Flow((Phase("a", ("x",)), Phase("a", ("y",))))


def test_pending_stack_top_owns_the_next_decision() -> None:
    stack: Pending[str] = Pending()
    assert stack.top is None and not stack
    stack = stack.push("choose").push("respond")
    assert stack.top == "respond" and len(stack) == 2
    assert stack.replace_top("order").top == "order"
    assert stack.pop().pop().top is None
    with pytest.raises(ValueError):
        Pending[str]().pop()


def test_pending_top_reads_the_top_of_a_states_pending_stack_as_the_property_does() -> None:
    # The driver's ``top`` reader for a state with a ``pending`` field (Unrest and Unbroken give it to their drivers).
    for stack in (Pending(), Pending(("a",)), Pending(("a", "b")), Pending[str]().push("c").push("d").pop()):
        holder = attrs.make_class("Holder", {"pending": attrs.field()}, frozen=True)(stack)
        assert pending_top(holder) == stack.top


def test_flow_game_reveal_two_choose_one_then_resolve_or_rest() -> None:
    state = GAME.new_game(seed=4)
    assert isinstance(state.pending.top, Choose) and len(state.revealed) == 2
    assert (state.position.phase, state.position.step) == ("choose", "keep")
    keep = GAME.legal_actions(state)[-1]
    assert isinstance(keep, Pick)
    state = GAME.step(state, keep)
    assert isinstance(state.pending.top, ResolveOrRest) and state.position.step == "resolve"
    state = GAME.step(state, GAME.parse_action(state, "resolve"), rng=np.random.default_rng(0))
    assert state.score == keep.value and state.position.round == 2


def test_flow_game_passes_the_conformance_suite() -> None:
    report = check_game(GAME, games=40, seed=0)
    assert report.terminal == 40 and report.chance_nodes == 40 * 6


# ----- the driver ----------------------------------------------------------------------------------------------------

_FLOW = Flow((Phase("play", ("roll", "tally", "spin")),))


@attrs.frozen
class _Dice:
    """A state for driver tests: a total, the step index, a log of what ran."""

    total: int = 0
    step: int = 0
    log: tuple[str, ...] = ()


class _Roll(Chance[_Dice, int]):
    def chance_outcomes(self, state: _Dice) -> tuple[tuple[int, float], ...]:
        return ((1, 0.5), (2, 0.5))

    def apply(self, state: _Dice, action: int) -> _Dice:
        return replace(state, total=state.total + action, step=1, log=(*state.log, f"roll {action}"))


class _Tally(Automatic[_Dice]):
    def resolve(self, state: _Dice) -> _Dice:
        return replace(state, step=0, log=(*state.log, "tally"))


class _Spin(Automatic[_Dice]):
    """Resolves to itself: a loop."""

    def resolve(self, state: _Dice) -> _Dice:
        return replace(state, log=state.log[-1:])


def _position(state: _Dice) -> Position:
    return Position(1, "play", ("roll", "tally", "spin")[state.step])


def _driver(**kw: Any) -> Any:
    args: dict[str, Any] = {
        "position": _position,
        "over": lambda s: s.total >= 4,
    }
    args.update(kw)
    driver: Driver[_Dice, int] = Driver(
        "dice", _FLOW, {("play", "roll"): _Roll(), ("play", "tally"): _Tally(), ("play", "spin"): _Spin()}, **args
    )
    return driver


def test_driver_runs_automatic_frames_until_chance_and_stops_at_the_end() -> None:
    driver = _driver()
    state = driver.apply(_Dice(), 2)
    assert state == _Dice(2, 0, ("roll 2", "tally"))
    assert driver.current_player(state) == CHANCE
    assert driver.legal_actions(state) == (1, 2)
    assert driver.chance_outcomes(state) == ((1, 0.5), (2, 0.5))
    assert driver.is_legal(state, 2) and not driver.is_legal(state, 3) and not driver.is_legal(state, "x")
    end = driver.apply(state, 2)
    # The game is over as soon as the roll lands: the tally step after it never runs.
    assert end == _Dice(4, 1, ("roll 2", "tally", "roll 2"))
    assert driver.current_player(end) == TERMINAL
    assert driver.legal_actions(end) == () and driver.chance_outcomes(end) == () and not driver.is_legal(end, 1)


def test_driver_end_checks_run_in_declared_order_before_every_frame() -> None:
    seen: list[str] = []

    def first(state: _Dice) -> _Dice | None:
        seen.append("first")
        return replace(state, total=state.total + 10, log=(*state.log, "first")) if state.total == 3 else None

    def second(state: _Dice) -> _Dice | None:
        seen.append("second")
        return replace(state, log=(*state.log, "second")) if state.total == 3 else None

    driver = _driver(end_checks=(first, second))
    state = driver.run(_Dice(3, 1))
    # The first check fired and the round of checks started again (the game was over: no frame ran); the second
    # never saw total == 3.
    assert state == _Dice(13, 1, ("first",))
    assert "second" not in state.log and "first" in state.log
    assert seen == ["first"] and driver.is_over(state)
    seen.clear()
    driver.run(_Dice(0, 1))
    # Before the tally frame and again before the roll frame: both checks, always in their order.
    assert seen == ["first", "second", "first", "second"]


def test_driver_on_over_tidies_the_finished_state_idempotently() -> None:
    driver = _driver(on_over=lambda s: replace(s, log=()))
    end = driver.run(_Dice(5, 1, ("junk",)))
    assert end == _Dice(5, 1, ())
    assert driver.run(end) == end


def test_driver_loop_guard_names_the_game_the_position_and_the_frame() -> None:
    driver = _driver(limit=50)
    with pytest.raises(TabletopError, match=r"dice: the rules did not come to rest after 50") as info:
        driver.run(_Dice(0, 2))
    message = str(info.value)
    assert "play/spin, round 1" in message and "frame _Spin()" in message


def test_driver_refuses_steps_outside_the_flow_and_reports_missing_frames() -> None:
    with pytest.raises(ValueError, match=r"\('play', 'nope'\)"):
        Driver("dice", _FLOW, {("play", "nope"): _Tally()}, position=_position, over=lambda s: False)
    with pytest.raises(ValueError, match="limit"):
        _driver(limit=0)
    sparse: Any = Driver("dice", _FLOW, {("play", "roll"): _Roll()}, position=_position, over=lambda s: False)
    with pytest.raises(TabletopError, match="no frame declared for step play/tally"):
        sparse.run(_Dice(0, 1))
    with pytest.raises(TabletopError, match="no frame declared for step play/spin"):
        sparse.current_player(_Dice(0, 2))


def test_frames_top_of_the_stack_owns_the_next_event() -> None:
    state = GAME.new_game(seed=4)
    assert isinstance(DRIVER.frame(state), Choose)
    assert GAME.current_player(state) == 0
    assert GAME.describe_step(state) == "choose/keep, round 1 (Choose(cards=(5, 3)))"
    after = GAME.step(state, Pick(5))
    assert DRIVER.frame(after) == ResolveOrRest(5)
    # An automatic frame at rest is a bug in the rules: nobody may act on it.
    with pytest.raises(TabletopError, match="resolves by itself"):
        _Tally().actor(_Dice())
    assert _Tally().legal_actions(_Dice()) == () and not _Tally().is_legal(_Dice(), 0)


def test_driven_game_is_legal_never_raises_on_junk() -> None:
    state = GAME.new_game(seed=4)
    assert not GAME.is_legal(state, "keep 5")  # type: ignore[arg-type]  # junk on purpose
    assert not GAME.is_legal(state, Pick(4))
    assert GAME.is_legal(state, Pick(3))


def test_frames_that_keep_the_default_auto_wait_without_being_asked() -> None:
    assert _Roll.waits and Choose.waits and not _Tally.waits and not _Spin.waits
    assert not ResolveOrRest.waits or ResolveOrRest.auto is Frame.auto


def test_driven_binds_its_delegations_to_the_driver_and_keeps_overrides() -> None:
    game: Any = type(GAME)
    # The flow game keeps every delegation: each protocol method is the driver's own, one call deep.
    assert game.current_player == DRIVER.current_player and game.is_terminal == DRIVER.is_over
    assert game.apply_unchecked == DRIVER.apply
    other = _driver()

    class Picky(game):  # type: ignore[misc]  # a subclass of the flow game, for the binding only
        def legal_actions(self, state: Any) -> tuple[Any, ...]:
            return ()

    class Rebound(game):  # type: ignore[misc]  # a subclass with a driver of its own
        driver = other

    # An override is kept; a subclass with its own driver gets every delegation rebound to it.
    assert Picky().legal_actions(None) == () and Picky.current_player == DRIVER.current_player
    assert Rebound.current_player == other.current_player and Rebound.apply_unchecked == other.apply
    assert Rebound().apply_unchecked(_Dice(), 2) == other.apply(_Dice(), 2)

    class OwnApply(game):  # type: ignore[misc]  # an own _apply: apply_unchecked must go through it
        def _apply(self, state: Any, action: Any) -> Any:
            return ("own", state, action)

    class OwnApplyRebound(OwnApply):  # and with a driver of its own below it
        driver = other

    assert OwnApply().apply_unchecked(1, 2) == ("own", 1, 2) == OwnApplyRebound().apply_unchecked(1, 2)


# ----- the registry of a game's frames -----------------------------------------------------------------------------


def _registry() -> tuple[FrameRegistry[_Dice], type, type]:
    frames: FrameRegistry[_Dice] = FrameRegistry("dice")

    @frames.register("dice.ask")
    @attrs.frozen
    class Ask(Decision[_Dice, int]):
        n: int

        def legal_actions(self, state: _Dice) -> tuple[int, ...]:
            return tuple(range(self.n))

        def decide(self, state: _Dice, action: int) -> _Dice:
            return replace(state, total=state.total + action)

    @frames.register("dice.first", slot=0)
    @attrs.frozen
    class First(Automatic[_Dice]):
        def resolve(self, state: _Dice) -> _Dice:
            return state

    return frames, Ask, First


def _fresh(cls: type) -> Any:
    """A new subclass of one of the frames above (registering it gives it a TAG: each registry its own class)."""
    return type(cls.__name__, (cls,), {"__module__": __name__})


def _steps(roll: Any, tally: Any, spin: Any) -> dict[tuple[str, str], Frame[_Dice, Any]]:
    return {("play", "roll"): roll(), ("play", "tally"): tally(), ("play", "spin"): spin()}


def test_a_registry_tags_its_kinds_and_orders_the_pending_ones_slots_first() -> None:
    frames, ask, first = _registry()
    roll = frames.register("dice.roll", pending=False)(_fresh(_Roll))
    assert ask.TAG == "dice.ask" and frames.tag(roll) == "dice.roll"  # type: ignore[attr-defined]  # set by the registry
    assert roll in frames and _Tally not in frames and len(frames) == 3
    frames.freeze()
    assert frames.pending == (first, ask)  # the slotted kind first, then registration order; the step frame not
    assert frames.index(first) == 0 and frames.index(ask) == 1
    assert set(get_args(frames.union)) == {first, ask}
    assert frames.listing() == (
        ("dice.ask", "Ask", "decision", True),
        ("dice.first", "First", "automatic", True),
        ("dice.roll", "_Roll", "chance", False),
    )
    with pytest.raises(FrameRegistryError, match="_Roll is no pending kind"):
        frames.index(roll)
    frames.check_stack((ask(2), first()))
    with pytest.raises(ValueError, match=r"pending frame 1 \(.*_Tally.*\) is no kind of frame dice"):
        frames.check_stack((ask(2), _Tally()))


def test_registering_after_the_driver_froze_the_registry_names_the_class() -> None:
    frames, _, _ = _registry()
    kinds = [frames.register(f"dice.{c.__name__}", pending=False)(_fresh(c)) for c in (_Roll, _Tally, _Spin)]
    driver: Driver[_Dice, int] = Driver(
        "dice", _FLOW, _steps(*kinds), position=_position, over=lambda s: s.total >= 4, frames=frames
    )
    assert driver.frames is frames and frames.frozen
    assert driver.current_player(driver.run(_Dice())) == CHANCE

    class Late(Automatic[_Dice]):
        def resolve(self, state: _Dice) -> _Dice:
            return state

    with pytest.raises(FrameRegistryError, match="dice: cannot register Late: the frames are frozen"):
        frames.register("dice.late", pending=False)(Late)
    with pytest.raises(FrameRegistryError, match="before the driver is built"):
        frames.on_decision(lambda frame, state, action: state)


def test_a_registry_refuses_a_wrong_kind_naming_it() -> None:
    frames, ask, _ = _registry()
    with pytest.raises(FrameRegistryError, match="cannot register Ask: it is registered already"):
        frames.register("dice.other")(ask)
    with pytest.raises(FrameRegistryError, match=r"cannot register _Tally: the tag 'dice\.ask' is Ask's"):
        frames.register("dice.ask", pending=False)(_fresh(_Tally))
    with pytest.raises(FrameRegistryError, match="cannot register _Tally: a kind that may be pending is saved"):
        frames.register("dice.tally")(_fresh(_Tally))
    with pytest.raises(FrameRegistryError, match="cannot register str: it is not a Frame"):
        frames.register("dice.str", pending=False)(str)

    @attrs.frozen
    class Tagged(Automatic[_Dice]):
        TAG: ClassVar[str] = "dice.tagged"

    with pytest.raises(FrameRegistryError, match=r"declares TAG 'dice\.tagged'"):
        frames.register("dice.tagged")(Tagged)
    with pytest.raises(FrameRegistryError, match="a slot is a place among the pending kinds"):
        frames.register("dice.spin", pending=False, slot=0)(_fresh(_Spin))

    @attrs.frozen
    class Twin(Automatic[_Dice]):
        pass

    with pytest.raises(FrameRegistryError, match="slot 0 is First's"):
        frames.register("dice.twin", slot=0)(Twin)

    @attrs.frozen
    class Gap(Automatic[_Dice]):
        pass

    frames.register("dice.gap", slot=2)(Gap)
    with pytest.raises(FrameRegistryError, match=r"the slots \[0, 2\] do not run from 0 without a gap"):
        frames.freeze()


def test_a_driver_refuses_a_step_frame_of_no_registered_kind() -> None:
    frames, _, _ = _registry()
    roll = frames.register("dice.roll", pending=False)(_fresh(_Roll))
    with pytest.raises(FrameRegistryError, match=r"the frame of step \('play', 'tally'\), _Tally, is no kind dice"):
        Driver("dice", _FLOW, _steps(roll, _Tally, _Spin), position=_position, over=lambda s: False, frames=frames)


def test_the_decision_hook_applies_every_registered_decision_that_defines_no_apply() -> None:
    frames, ask, _ = _registry()
    seen: list[int] = []

    @frames.on_decision
    def logged(frame: Any, state: _Dice, action: int) -> _Dice:
        seen.append(action)
        after: _Dice = frame.decide(state, action)
        return after

    @frames.register("dice.own")
    @attrs.frozen
    class Own(Decision[_Dice, int]):
        seat = 1

        def legal_actions(self, state: _Dice) -> tuple[int, ...]:
            return (0,)

        def apply(self, state: _Dice, action: int) -> _Dice:
            return state

    frames.freeze()
    assert ask(3).apply(_Dice(), 2) == _Dice(total=2) and seen == [2]
    assert Own().apply(_Dice(), 0) == _Dice() and seen == [2]  # its own apply kept
    assert Own().actor(_Dice()) == 1
    with pytest.raises(NotImplementedError, match="Ask must say who acts"):
        ask(3).actor(_Dice())


def test_the_conformance_suite_refuses_a_frame_of_no_registered_kind() -> None:
    from tabletop_core.conformance import _Checker
    from tabletop_core.errors import ConformanceError

    @attrs.frozen
    class Stray(Decision[Any, Pick]):
        seat = 0

        def legal_actions(self, state: Any) -> tuple[Pick, ...]:
            return (Pick(0),)

    state = GAME.new_game(seed=4)
    checker = _Checker(GAME, 4, np.random.default_rng(0))
    checker.check_frames(state)  # the game's own frames: registered
    stray = replace(state, pending=state.pending.push(Stray()))
    with pytest.raises(ConformanceError, match="Stray is no kind of frame flowgame registers"):
        checker.check_frames(stray)
    below = replace(state, pending=Pending((Stray(), *state.pending.frames)))
    with pytest.raises(ConformanceError, match=r"pending frame 0 \(.*Stray.*\) is no kind of frame flowgame"):
        checker.check_frames(below)
