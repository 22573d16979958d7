"""Content (Districts and Missions as TOML) is validated at load with errors naming file, entry and field."""

from __future__ import annotations

from importlib import resources

import pytest

from tabletop_core import ContentError
from unrest.content import CONTENT, parse_content
from unrest.rules.missions import KEYS

TEXT = resources.files("unrest.content").joinpath("unrest.toml").read_text(encoding="utf-8")


def test_content_five_districts_and_nine_missions_from_the_rulebook() -> None:
    assert [d.name for d in CONTENT.districts] == [
        "Ministry of Plenty",
        "Ministry of Peace",
        "The Capitol",
        "Police Headquarters",
        "Ministry of Truth",
    ]
    assert len(CONTENT.missions) == 9 and CONTENT.missions[0].name == "Revolution"
    assert all(d.source == "rulebook" for d in CONTENT.districts)
    assert all(m.source == "rulebook" for m in CONTENT.missions)


def test_content_unknown_mission_key_names_the_entry() -> None:
    bad = TEXT.replace('key = "coup"', 'key = "palace_coup"')
    with pytest.raises(ContentError) as err:
        parse_content(bad, known_keys=KEYS)
    assert err.value.entry == "mission[3]" and err.value.field == "key"


def test_content_bad_source_and_wrong_type_are_refused() -> None:
    with pytest.raises(ContentError) as err:
        parse_content(TEXT.replace('source = "rulebook"', 'source = "guess"', 1))
    assert err.value.field == "source"
    with pytest.raises(ContentError) as err:
        parse_content(TEXT.replace('short = "Peace"', "short = 3"))
    assert err.value.entry == "district[1]" and err.value.field == "short"
    with pytest.raises(ContentError):
        parse_content("not toml [")
    with pytest.raises(ContentError) as err:
        parse_content(TEXT.replace('short = "Peace"', 'short = "Peace"\nshape = "round"'))
    assert (err.value.entry, err.value.field) == ("district[1]", "shape")


def test_content_sources_are_the_cores_one_list() -> None:
    from tabletop_core.content import SOURCES as CORE_SOURCES
    from unrest.content import SOURCES

    assert SOURCES is CORE_SOURCES
