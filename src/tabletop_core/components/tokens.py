"""Two-sided tokens and casts that resolve one token per chance node."""

from __future__ import annotations

from typing import Generic, TypeVar

import attrs

__all__ = ["Cast", "TwoSidedToken"]

F = TypeVar("F")


@attrs.frozen
class TwoSidedToken(Generic[F]):
    """A token with face ``a`` (side 0) and face ``b`` (side 1); a cast shows each side with probability 1/2.

    >>> t = TwoSidedToken("W1", "skull", "shield")
    >>> t.face(1), t.other_side(1)
    ('shield', 0)
    """

    name: str
    a: F
    b: F

    def face(self, side: int) -> F:
        """The face showing on ``side`` (0 or 1)."""
        if side == 0:
            return self.a
        if side == 1:
            return self.b
        raise ValueError(f"token {self.name!r}: side must be 0 or 1, not {side!r}")

    @staticmethod
    def other_side(side: int) -> int:
        """The side a flip turns up."""
        return 1 - side

    @staticmethod
    def cast_outcomes() -> tuple[tuple[int, float], ...]:
        """The two sides with their probabilities."""
        return ((0, 0.5), (1, 0.5))


@attrs.frozen
class Cast(Generic[F]):
    """A cast in progress: ``sides[i]`` is the side token ``i`` landed on, ``None`` while not yet cast.

    Each uncast token is one chance node: :meth:`next_token` names it, :meth:`land` records its side.

    >>> c = Cast.start((TwoSidedToken("x", 1, 2), TwoSidedToken("y", 3, 4)))
    >>> c = c.land(1).land(0)
    >>> c.done, c.faces()
    (True, (2, 3))
    """

    tokens: tuple[TwoSidedToken[F], ...]
    sides: tuple[int | None, ...]

    @classmethod
    def start(cls, tokens: tuple[TwoSidedToken[F], ...]) -> Cast[F]:
        """A cast of ``tokens`` with nothing landed yet."""
        return cls(tokens, (None,) * len(tokens))

    @property
    def done(self) -> bool:
        """Whether every token has landed."""
        return None not in self.sides

    @property
    def next_token(self) -> int:
        """Index of the next token to land (the first uncast one)."""
        try:
            return self.sides.index(None)
        except ValueError:
            raise ValueError("cast: every token has landed") from None

    def land(self, side: int) -> Cast[F]:
        """The cast with the next token landed on ``side``."""
        if side not in (0, 1):
            raise ValueError(f"cast: side must be 0 or 1, not {side!r}")
        i = self.next_token
        return attrs.evolve(self, sides=(*self.sides[:i], side, *self.sides[i + 1 :]))

    def faces(self) -> tuple[F, ...]:
        """The faces showing once the cast is done."""
        if not self.done:
            raise ValueError("cast: not every token has landed")
        return tuple(t.face(s) for t, s in zip(self.tokens, self.sides, strict=True))  # type: ignore[arg-type]  # done: no None
