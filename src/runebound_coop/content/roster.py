"""The roster: the content an encounter uses, resolved from its options once
(:attr:`RuneboundOptions.setup <runebound_coop.state.RuneboundOptions.setup>`, shared by equal options).

Each hero brings its own tokens, then its assets' tokens, and its skill cards; each enemy its trait's token set (for
the act) and combat board, its abilities, and the order its surge abilities are tried in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from runebound_coop.content.loader import content_of
from runebound_coop.content.schema import Ability, Board, CardDef, Face, Sym, Token
from runebound_coop.limits import MAX_TOKENS

if TYPE_CHECKING:
    from runebound_coop.state import RuneboundOptions

__all__ = ["EnemySetup", "HeroSetup", "Setup", "build_setup"]


@attrs.frozen(eq=False)
class HeroSetup:
    """A hero as it fights: its tokens (hero tokens, then asset tokens), abilities and cards in hand."""

    name: str
    health: int
    tokens: tuple[Token, ...]
    faces: tuple[tuple[Face, Face], ...]
    abilities: tuple[Ability, ...]
    cards: tuple[CardDef, ...]
    masks: tuple[dict[Sym, int], dict[Sym, int]] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "masks", symbol_masks(self.faces))


@attrs.frozen(eq=False)
class EnemySetup:
    """An enemy as it fights: its trait's tokens and board, and its abilities."""

    name: str
    trait: str
    health: int
    tokens: tuple[Token, ...]
    faces: tuple[tuple[Face, Face], ...]
    board: Board
    abilities: tuple[Ability, ...]
    surge_order: tuple[int, ...]
    agility: int
    prevent_flip: int
    masks: tuple[dict[Sym, int], dict[Sym, int]] = attrs.field(init=False)
    #: The ``Fight.used`` bits of the surge abilities (all set: no surge ability is left this round).
    surge_bits: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        # Imported here: the state module imports this one at its top (its options resolve their content with it).
        from runebound_coop.state import enemy_ability_bit

        object.__setattr__(self, "masks", symbol_masks(self.faces))
        object.__setattr__(self, "surge_bits", sum(1 << enemy_ability_bit(a) for a in self.surge_order))


def symbol_masks(faces: tuple[tuple[Face, Face], ...]) -> tuple[dict[Sym, int], dict[Sym, int]]:
    """Per symbol, the bitmask of tokens whose face a (then face b) shows it."""
    a = {s: 0 for s in Sym}
    b = {s: 0 for s in Sym}
    for i, (fa, fb) in enumerate(faces):
        a[fa.symbol] |= 1 << i
        b[fb.symbol] |= 1 << i
    return a, b


@attrs.frozen(eq=False)
class Setup:
    """Everything the rules look up while an encounter is played."""

    heroes: tuple[HeroSetup, ...]
    enemies: tuple[EnemySetup, ...]


def build_setup(options: RuneboundOptions) -> Setup:
    """Resolve ``options`` against the content pack, anew (the rules read the content resolved once,
    :attr:`~runebound_coop.state.RuneboundOptions.setup`).

    Raises:
        ValueError: an unknown hero, enemy, asset or card name.
        ContentError: the options name a pack this process was not given.
    """
    pack = content_of(options.pack)
    heroes = []
    for h, name in enumerate(options.heroes):
        if name not in pack.heroes:
            raise ValueError(f"unknown hero {name!r} (heroes: {sorted(pack.heroes)})")
        hero = pack.heroes[name]
        assets = options.assets[h] if h < len(options.assets) else ()
        tokens = list(hero.tokens)
        for a in assets:
            if a not in pack.assets:
                raise ValueError(f"unknown asset {a!r} (assets: {sorted(pack.assets)})")
            tokens.append(pack.assets[a].token)
        if len(tokens) > MAX_TOKENS:
            raise ValueError(f"{name}: at most {MAX_TOKENS} tokens with assets")
        card_names = options.cards[h] if options.cards is not None else hero.cards
        for c in card_names:
            if c not in pack.cards:
                raise ValueError(f"unknown card {c!r} (cards: {sorted(pack.cards)})")
        heroes.append(
            HeroSetup(
                name,
                hero.health,
                tuple(tokens),
                tuple((t.a, t.b) for t in tokens),
                hero.abilities,
                tuple(pack.cards[c] for c in card_names),
            )
        )
    enemies = []
    for name in options.enemies:
        if name not in pack.enemies:
            raise ValueError(f"unknown enemy {name!r} (enemies: {sorted(pack.enemies)})")
        enemy = pack.enemies[name]
        enemy_tokens = pack.token_sets[enemy.trait].for_act(options.act)
        surge = [i for i, a in enumerate(enemy.abilities) if a.trigger == "surge"]
        # Most expensive first; equal costs from the bottom of the card to the top.
        order = tuple(sorted(surge, key=lambda i: (-enemy.abilities[i].cost, -i)))
        agility = next((i for i, a in enumerate(enemy.abilities) if a.trigger == "agility"), -1)
        enemies.append(
            EnemySetup(
                name,
                enemy.trait,
                enemy.health,
                enemy_tokens,
                tuple((t.a, t.b) for t in enemy_tokens),
                pack.boards[enemy.trait],
                enemy.abilities,
                order,
                agility,
                enemy.flip_prevention,
            )
        )
    return Setup(tuple(heroes), tuple(enemies))
