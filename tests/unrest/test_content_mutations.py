"""Content errors are always ContentError: damaged copies of Unrest's content file either load or are refused with
the file, the entry and the field; names notation reads back are never empty or repeated."""

from __future__ import annotations

import os
from importlib import resources

import pytest

from tabletop_core.errors import ContentError
from tests.core.content_mutants import KINDS, check_mutants, mutants
from unrest.content import Content, parse_content
from unrest.rules.missions import KEYS

TEXT = resources.files("unrest.content").joinpath("unrest.toml").read_text(encoding="utf-8")
PER_KIND = int(os.environ.get("CONTENT_MUTANTS", "6"))


def _readable(content: Content) -> None:
    """What loads names every District and Mission once, so action strings read back."""
    shorts = [d.short.lower() for d in content.districts]
    names = [m.name.lower() for m in content.missions]
    assert all(shorts) and all(names) and len(set(shorts)) == len(shorts) and len(set(names)) == len(names)


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_content_is_refused_with_a_location_or_loads_readable(kind: str) -> None:
    cases = mutants(TEXT, kind, PER_KIND)
    refused, _ = check_mutants(cases, lambda t: parse_content(t, known_keys=KEYS), _readable)
    assert cases
    if kind in ("retype", "extra", "duplicate"):
        assert refused == len(cases)


def test_repeated_or_empty_district_short_names_are_refused() -> None:
    with pytest.raises(ContentError) as err:
        parse_content(TEXT.replace('short = "Peace"', 'short = "plenty"'))
    assert (err.value.entry, err.value.field) == ("district[1]", "short")
    with pytest.raises(ContentError) as err:
        parse_content(TEXT.replace('name = "Coup"', 'name = "  "'))
    assert (err.value.entry, err.value.field) == ("mission[3]", "name")
