"""Record the golden games: ``python -m tests.golden.record`` rewrites ``tests/golden/data/*.jsonl``.

Regenerate only in a commit that changes a rule on purpose, and say in that commit which rule changed. Each line
holds one seeded game: the variant's options, the agents' kind, the full record (every decision and chance
outcome), the final returns and the SHA-256 of the final state's JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tabletop_core import RandomAgent, load_game, play, to_json

DATA = Path(__file__).parent / "data"
GAMES_PER_AGENT_KIND = 50

#: Every title and variant recorded: (title, variant name, options).
VARIANTS: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    *(
        ("unbroken", f"{difficulty}-{character}", {"difficulty": difficulty, "character": character})
        for difficulty in ("easy", "normal", "hard")
        for character in ("sneak", "sage", "hunter", "brawler")
    ),
    ("unbroken", "easy-se15", {"difficulty": "easy", "easy_se15": True}),
    ("runebound_coop", "default", {}),
    ("runebound_coop", "solo-elian-sorcerer", {"heroes": ["Elian"], "enemies": ["Sorcerer"]}),
    ("runebound_coop", "damage-choices", {"enemy_choices": "damage"}),
    ("runebound_coop", "enemy-player", {"enemy_choices": "player"}),
    (
        "runebound_coop",
        "act2-retreat-four-heroes",
        {
            "heroes": ["Corbin", "Lissa", "Elder Mok", "Tatianna"],
            "enemies": ["Dragon Hybrid", "Undead Horde", "Dreadbringer"],
            "act": 2,
            "retreat": True,
        },
    ),
    ("unrest", "standard", {}),
    ("unrest", "capitol", {"variant": "capitol"}),
)


def final_digest(game: Any, state: Any) -> str:
    """The SHA-256 of the state's JSON document."""
    return hashlib.sha256(to_json(state).encode("utf-8")).hexdigest()


def games(title: str, variant: str, options: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The golden games of one variant: default bots, then random agents, each over the same seeds."""
    game = load_game(title)
    for kind in ("default", "random"):
        for seed in range(GAMES_PER_AGENT_KIND):
            opts = game.make_options(**dict(options))
            n = game.num_players(game.initial_state(opts))
            if kind == "default":
                agents = game.default_agents(game.initial_state(opts))
            else:
                agents = [RandomAgent() for _ in range(n)]
            state, record = play(game, agents, seed=seed, options=options)
            yield {
                "variant": variant,
                "agents": kind,
                "record": json.loads(record.to_json()),
                "returns": list(game.returns(state)),
                "final_sha256": final_digest(game, state),
            }


def main() -> int:
    """Write every variant's golden games."""
    DATA.mkdir(exist_ok=True)
    by_title: dict[str, list[str]] = {}
    for title, variant, options in VARIANTS:
        lines = by_title.setdefault(title, [])
        lines.extend(json.dumps(g, sort_keys=True, separators=(",", ":")) for g in games(title, variant, options))
        print(f"{title} {variant}: recorded", file=sys.stderr)
    for title, lines in by_title.items():
        (DATA / f"{title}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
