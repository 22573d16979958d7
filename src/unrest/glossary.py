"""The words a person needs at the Unrest table: the rule of each step, the Mission and token texts, the symbols.

Everything here is in our own words. :class:`unrest.game.Unrest` delegates its glossary hooks
(``legend``, ``step_rules``, ``card_texts``, ``end_reason``, ``headline``) to these functions.

>>> import unrest
>>> state = unrest.new_game(seed=5)
>>> step_rules(state).split(".")[0]
'Target: choose two neighbouring Districts in the row for the Area of Interest'
>>> dict(legend(state))["[AoI]"]
'the Area of Interest: the two Districts the Rebellion marked this round'
"""

from __future__ import annotations

from unrest.content import CONTENT
from unrest.rules.cards import SUIT_LETTERS, SUITS
from unrest.state import CAPITOL, POWERS, REBELLION, WIN_LIBERATED, UnrestState

__all__ = ["card_texts", "end_reason", "headline", "legend", "step_rules"]

_SYMBOLS: tuple[tuple[str, str], ...] = (
    *(
        (f"2{letter}..6{letter}", f"a Rebel card of value 2 to 6 in {suit}")
        for letter, suit in zip(SUIT_LETTERS, SUITS, strict=True)
    ),
    ("M", "a Misdirection card: no value and no suit, always played hidden"),
    ("(5D)", "a card in brackets is hidden (face down); without brackets it is revealed (face up)"),
    ("(??)", "a hidden card you may not look at"),
    ("[AoI]", "the Area of Interest: the two Districts the Rebellion marked this round"),
    ("[Blockade]", "the Empire's Blockade: no card may be placed in this District this round"),
    ("Plan: 1:(5D)", "the three cards the Rebellion planned this round, by slot; '-' is a slot already placed"),
    ("-", "nothing there (an empty stack or slot)"),
)

_DISTRICT_NAME = tuple(d.name for d in CONTENT.districts)

_POWERS_TEXT = {
    "Surveil": "turn one hidden planned card face up; a surveilled Misdirection card is then destroyed",
    "Destroy": "put one planned card aside for good, keeping its facing; a destroyed Misdirection card is revealed",
    "Reroute": "move one planned card into any District still in the row, keeping its facing",
    "Blockade": "name a District: the Rebellion may place no card there this round",
}

_STEP_RULES = {
    "target": (
        "Target: choose two neighbouring Districts in the row for the Area of Interest. This round's planned cards "
        "can only go there (unless the Empire reroutes them). Districts next to a liberated one become neighbours."
    ),
    "plan": (
        "Plan: put three cards from your hand in front of you one at a time, two hidden and one revealed, in slot "
        "order. Misdirection must be hidden, and at least one numbered card must be left to reveal."
    ),
    "defend": (
        "Defend: the Empire takes two actions, each with a different face-up Power token, on the planned cards "
        "(both on one card or one each on two cards), and turns each token it uses face down. Tokens come back "
        "face up only once all four have been used. "
        + " ".join(f"{name}: {text}." for name, text in _POWERS_TEXT.items())
    ),
    "place": (
        "Place: put each remaining planned card, in slot order, on the stack of one of the two marked Districts "
        "(all in one or split), keeping its facing; never in a Blockaded District. In the Final Encounter any "
        "District still in the row will do, except a Blockaded one."
    ),
    "liberate": (
        "Liberate: a District whose stack meets a Mission on the table is liberated. Reveal hidden cards of that "
        "stack until they prove the Mission (no more than needed); the District and its stack then leave the "
        "row. Three liberated Districts win the game for the Rebellion at once."
    ),
    "draw": (
        "Draw: the Rebellion draws three cards (when fewer are left, the last card alone, and the next round is "
        "the Final Encounter)."
    ),
    "districts": "Setup: the five District tokens are laid in a random row.",
    "hand": "Setup: the Rebellion draws its opening hand of five cards.",
    "missions": "Setup: Revolution is always on the table; three more Missions are dealt at random.",
}


def legend(state: UnrestState, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """Every symbol the Unrest render prints, as ``(symbol, meaning)`` pairs."""
    return _SYMBOLS


def step_rules(state: UnrestState) -> str:
    """The rule of the current step, in words (with the Final Encounter's difference when it applies)."""
    if state.winner >= 0:
        return "The game is over. " + end_reason(state)
    text = _STEP_RULES.get(state.pos.step, f"{state.pos.step} step")
    if state.final and state.pos.step in ("plan", "place"):
        text += (
            " Final Encounter: there is no Area of Interest this round; cards go to any District still in the row, "
            "except one under the Empire's Blockade."
        )
    return text


def card_texts(state: UnrestState, player: int | None = None) -> tuple[tuple[str, str], ...]:
    """The Missions on the table, the Empire's Power tokens and the Misdirection card (all public)."""
    missions = tuple(
        (
            f"Mission: {CONTENT.missions[m].name}",
            f"a stack with this frees its District: {CONTENT.missions[m].text}",
        )
        for m in state.missions
    )
    tokens = tuple((f"Power: {name}", _POWERS_TEXT[name]) for name in POWERS)
    misdirection = (
        "Misdirection",
        "a card with no value and no suit; it counts toward no Mission and is always hidden",
    )
    return (*missions, *tokens, misdirection)


def end_reason(state: UnrestState) -> str:
    """Why the game ended: three Districts liberated, or the deck ran out with the Empire holding three."""
    if state.winner < 0:
        return ""
    freed = [CONTENT.districts[d].name for d in range(len(state.freed)) if state.freed[d]]
    named = ", ".join(freed) if freed else "none"
    if state.winner == REBELLION:
        if state.options.variant == "capitol" and state.freed[CAPITOL] and len(freed) < WIN_LIBERATED:
            return (
                f"The Rebellion wins: it liberated {_DISTRICT_NAME[CAPITOL]}, and in the Capitol variant liberating "
                f"the Capitol wins the game at once (liberated: {named})."
            )
        return f"The Rebellion wins: it liberated {len(freed)} Districts ({named})."
    held = len(state.freed) - len(freed)
    return (
        f"The Empire wins: the Rebel deck ran out and after the Final Encounter it still controls {held} Districts "
        f"(liberated: {named})."
    )


def headline(state: UnrestState) -> str:
    """The round, for logs that show the table when a new round starts."""
    if state.pos.round == 0:
        return "setup"
    return f"round {state.pos.round}" + (" (Final Encounter)" if state.final else "")
