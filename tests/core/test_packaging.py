"""Packaging promises: every game is registered, exposes the module face of DESIGN.md and ships py.typed."""

from __future__ import annotations

import importlib
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from tabletop_core import Game, available_games, load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("unrest", "unbroken", "runebound_coop")
FACE = (
    "GAME",
    "new_game",
    "current_player",
    "legal_actions",
    "chance_outcomes",
    "is_legal",
    "step",
    "is_terminal",
    "returns",
    "observe",
    "determinize",
    "action_id",
    "action_from_id",
    "action_to_str",
    "parse_action",
    "legal_action_mask",
    "observation_tensor",
    "render",
)
CORE_EXPORTS = (
    "Game",
    "GameSpec",
    "CHANCE",
    "TERMINAL",
    "TabletopError",
    "IllegalActionError",
    "ContentError",
    "StateFormatError",
    "sample_chance",
    "settle",
    "to_json",
    "from_json",
    "play",
    "replay",
    "Agent",
    "RandomAgent",
)


def test_core_exports_the_designed_names() -> None:
    core = importlib.import_module("tabletop_core")
    missing = [name for name in CORE_EXPORTS if not hasattr(core, name)]
    assert not missing


def test_core_dependencies_stay_light() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = sorted(dep.split(">")[0].split("=")[0].split("[")[0].strip() for dep in project["dependencies"])
    # rich and argcomplete are the command line's: small, and core dependencies so the core install's `tabletop`
    # works, with completion.
    assert names == ["argcomplete", "attrs", "cattrs", "numpy", "rich"]
    assert project["optional-dependencies"]["cli"] == []  # kept, empty, for installs that name the extra
    assert {"dev", "openspiel", "pettingzoo", "gymnasium", "ray", "plot"} <= set(project["optional-dependencies"])
    assert project["scripts"]["tabletop"] == "tabletop_core.cli:main"


@pytest.mark.parametrize("name", GAMES)
def test_game_is_registered_and_exposes_the_module_face(name: str) -> None:
    assert name in available_games()
    module = importlib.import_module(name)
    missing = [attr for attr in FACE if not hasattr(module, attr)]
    assert not missing, f"{name} lacks {missing}"
    game = load_game(name)
    assert isinstance(game, Game) and game is module.GAME and game.spec.short_name == name


@pytest.mark.parametrize("name", ("tabletop_core", *GAMES))
def test_every_package_ships_py_typed(name: str) -> None:
    assert files(name).joinpath("py.typed").is_file()


def test_the_installed_command_line_needs_no_extra() -> None:
    from importlib.metadata import requires

    core = [req for req in requires("tabletop-rules") or [] if "extra ==" not in req]
    assert any(req.startswith("rich") for req in core)


def test_the_licence_and_the_metadata_are_in_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "the tabletop-rules authors" in licence
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3.11" in classifiers and "Typing :: Typed" in classifiers
    assert project["keywords"]
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").count("## [") >= 2  # Unreleased and a version


def test_the_changelog_has_an_entry_for_the_packages_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text and f"## [{version}]" in text
