"""Types of the compiled accelerator (``_speedups.c``); see :mod:`tabletop_core.fastcopy`."""

from collections.abc import Callable, Sequence
from typing import Any

#: The sha256 of the C source the module was built from.
SOURCE_DIGEST: str

class Init:
    """A compiled attrs ``__init__`` of one slotted class."""

    cls: type
    __wrapped__: Callable[..., None]
    def __init__(
        self,
        cls: type,
        fields: Sequence[tuple[Any, str, bool, bool, Any, Any, bool]],
        hash_slot: Any,
        validators: tuple[tuple[int, Any, Any], ...] | None,
        disabled: Callable[[], bool],
        post_init: bool,
        wrapped: Callable[..., None],
    ) -> None: ...
    def __call__(self, obj: Any, /, *args: Any, **kwargs: Any) -> None: ...

class Replacer:
    """A compiled copy of one slotted class with some fields replaced."""

    cls: type
    def __init__(
        self, cls: type, slots: Sequence[Any], changed: Sequence[Any], hash_slot: Any, fallback: Callable[..., Any]
    ) -> None: ...
    def __call__(self, obj: Any, /, *values: Any) -> Any: ...

class Replace:
    """The compiled ``replace(obj, **changes)``."""

    def __init__(
        self, cache: dict[tuple[type, tuple[str, ...]], Callable[..., Any]], miss: Callable[..., Any]
    ) -> None: ...
    def __call__(self, obj: Any, /, **changes: Any) -> Any: ...

class Hash:
    """A compiled attrs ``__hash__`` of one slotted class."""

    cls: type
    __wrapped__: Callable[[Any], int]
    def __init__(
        self, cls: type, slots: Sequence[Any], hash_slot: Any, salt: int, wrapped: Callable[[Any], int]
    ) -> None: ...
    def __call__(self, obj: Any, /) -> int: ...

class Eq:
    """A compiled attrs ``__eq__`` of one slotted class."""

    cls: type
    __wrapped__: Callable[[Any, Any], Any]
    def __init__(self, cls: type, slots: Sequence[Any], wrapped: Callable[[Any, Any], Any]) -> None: ...
    def __call__(self, obj: Any, other: Any, /) -> Any: ...
