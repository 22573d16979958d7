"""Unbroken's balance report: seeded bot games of every character and difficulty, measured card by card.

``python -m benchmarks.balance`` (``make balance``) plays ``--games`` games per character and difficulty with the
heuristic bot (``unbroken.bots.HeuristicAgent``), game ``d`` of every cell seeded ``game_seed(--seed, d)`` (the
simulation's seeds, so every character meets the same deals), and writes ``docs/balance/unbroken.md`` (tables) and
PNG plots beside it (``docs/balance/unbroken-*.png``). Every rate carries its 95% Wilson interval and every mean its
Student-t interval (``tabletop_core.simulation.stats``); the report lists the content guide's checks and whether
each is met on those games (point estimates). ``--save FILE`` keeps the per-game lines (JSON Lines) and
``--load FILE`` rewrites the report from them.

The claims are ``tabletop certify``'s: given ``--certificate FILE`` (its ``--json`` document for the targets file
``src/unbroken/content/targets.toml``), the report opens with the certificate (each target's verdict, estimate and
interval, with the held-out deals, the games, the bot and the confidence), and its tables describe the first
``--games`` of the certified deals, played exactly as ``certify`` played them. ``make balance`` does both.

What is measured per game (:func:`play_stats`), through :func:`tabletop_core.records.play`'s ``on_step``:

* the outcome, the score and title of a win, the Level reached;
* each monster fought (a Combat Phase begun against it) and the one that ended a lost run;
* each encounter revealed, kept, payable when kept, resolved or Rested, and the value of what resolving or
  Resting it changed (resources and Time at the content guide's Small-Effort prices, until the Exploration Step
  ends);
* each skill, weapon and condition held at some point, each ability used by a decision (skills, character
  abilities) and each weapon attack made.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import attrs

import unbroken
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.records import Step, play
from tabletop_core.simulation.plan import game_seed
from tabletop_core.simulation.stats import mean_interval, wilson_interval
from unbroken.actions import RESOLVE, Act, Attack, Craft, Respond, Use
from unbroken.bots import VALUE, HeuristicAgent
from unbroken.rules.flow import DRIVER
from unbroken.rules.listing import action_abilities
from unbroken.rules.scoring import TITLES, TOP_TITLE, score, title
from unbroken.rules.travel import ExploreMode
from unbroken.rules.triggers import Trig
from unbroken.state import RESOURCES, State

__all__ = [
    "BOT",
    "CHARACTERS",
    "DIFFICULTIES",
    "PRINTED",
    "RANGES",
    "Target",
    "aggregate",
    "collect",
    "main",
    "play_stats",
    "targets",
    "write_report",
]

BOT = "unbroken.bots:HeuristicAgent"
CHARACTERS = ("sneak", "sage", "hunter", "brawler")
DIFFICULTIES = ("easy", "normal", "hard")
TITLE_NAMES = (*(name for _, name in TITLES), TOP_TITLE)
#: The content guide's stat ranges by Level: (Armor low, high), (Health low, high).
RANGES = {1: ((0, 1), (4, 6)), 2: ((0, 2), (7, 9)), 3: ((1, 3), (9, 12)), 4: ((2, 4), (12, 16))}
#: Monsters whose Armor and Health the rulebook prints: they keep them, inside the guide's ranges or not.
PRINTED = {"basilisk": (1, 12)}


def _worth(s: State) -> float:
    """The state's resources and Time at the content guide's Small-Effort prices."""
    return sum(VALUE[name] * s.amount(r) for r, name in enumerate(RESOURCES))


def play_stats(character: str, difficulty: str, seed: int, chance_seed: int | None = None) -> dict[str, Any]:
    """Play one seeded game with the heuristic bot and describe it (see the module); ``chance_seed`` gives chance
    its own stream, as ``tabletop compare`` and ``tabletop certify`` play a deal."""
    monsters: list[str] = []
    revealed: Counter[str] = Counter()
    picks: list[list[Any]] = []  # [encounter, payable, resolved, value]
    held: dict[str, set[str]] = {"skill": set(), "weapon": set(), "condition": set()}
    used: Counter[str] = Counter()
    attacks: Counter[str] = Counter()
    open_pick: list[Any] = []

    def seen(s: State) -> None:
        held["skill"].update(s.skills)
        held["weapon"].update(s.weapons)
        held["condition"].update(c.id for c in (*s.conditions, *s.next_conditions))
        if s.combat is not None and (not monsters or monsters[-1] != s.combat.monster):
            monsters.append(s.combat.monster)

    def on_step(step: Step[State, Any]) -> None:
        s, a, after = step.before, step.action, step.after
        if step.player == 0:
            frame = DRIVER.frame(s)
            if isinstance(frame, ExploreMode):
                payable = Act(RESOLVE) in unbroken.legal_actions(s)
                open_pick[:] = [[s.pack.encounters[frame.card].id, payable, a == Act(RESOLVE), _worth(s)]]
            elif isinstance(frame, Trig) and isinstance(a, Respond):
                used[frame.cands[a.i].src] += 1
            elif isinstance(a, Use):
                used[action_abilities(s)[a.i][0]] += 1
            elif isinstance(a, Attack) and s.combat is not None:
                weapon = s.pack.weapon(s.weapon)
                attacks[f"{weapon.id}:{weapon.attacks[a.i].name}"] += 1
            elif isinstance(a, Craft):
                used["craft"] += 1
        if len(after.revealed) > len(s.revealed):
            revealed.update(after.pack.encounters[c].id for c in after.revealed[len(s.revealed) :])
        if open_pick and (after.pos.step != "exploration" or after.outcome != 0):
            pick = open_pick.pop()
            pick[3] = _worth(after) - pick[3]
            picks.append(pick)
        seen(after)

    state, _ = play(
        unbroken.GAME,
        [HeuristicAgent()],
        seed=seed,
        chance_seed=chance_seed,
        options={"character": character, "difficulty": difficulty},
        on_step=on_step,
    )
    won = seat_outcomes(unbroken.GAME.spec, unbroken.GAME.returns(state))[0] == "win"  # the one rule of a win
    ended = ""
    if not won:
        ended = state.combat.monster if state.combat is not None else state.monster or f"{state.pos.phase}"
        if ended and ended not in monsters and state.combat is None and state.monster and state.pos.phase == "combat":
            monsters.append(ended)
    points = score(state) if won else None
    return {
        "character": character,
        "difficulty": difficulty,
        "seed": seed,
        "won": won,
        "score": points,
        "title": title(points) if points is not None else None,
        "level": state.level,
        "final": {name: state.amount(r) for r, name in enumerate(RESOURCES)} if won else None,
        "monsters": monsters,
        "ended_by": ended,
        "revealed": dict(revealed),
        "picks": picks,
        "skills": sorted(held["skill"]),
        "weapons": sorted(held["weapon"]),
        "conditions": sorted(held["condition"]),
        "used": dict(used),
        "attacks": dict(attacks),
    }


def _task(args: tuple[str, str, int, int | None]) -> dict[str, Any]:
    return play_stats(*args)


def collect(
    games: int,
    seed: int = 0,
    *,
    difficulties: Sequence[str] = DIFFICULTIES,
    characters: Sequence[str] = CHARACTERS,
    workers: int = 1,
    progress: bool = False,
    first: int = 0,
    paired: bool = False,
) -> list[dict[str, Any]]:
    """Play ``games`` games per character and difficulty: game ``d`` (``first <= d < first + games``) seeded
    ``game_seed(seed, d)``; with ``paired``, its chance drawn from ``game_seed(seed + 1, d)``, so that deal ``d``
    is the game ``tabletop certify`` plays for it (with ``seed`` 0)."""
    deals = range(first, first + games)
    tasks = [
        (c, d, game_seed(seed, k), game_seed(seed + 1, k) if paired else None)
        for d in difficulties
        for c in characters
        for k in deals
    ]
    out: list[dict[str, Any]] = []
    start = time.perf_counter()

    def tick() -> None:
        if progress and (len(out) % 200 == 0 or len(out) == len(tasks)):
            rate = len(out) / max(1e-9, time.perf_counter() - start)
            print(f"  {len(out)}/{len(tasks)} games, {rate:.1f} games/s", file=sys.stderr, flush=True)

    if workers <= 1:
        for t in tasks:
            out.append(_task(t))
            tick()
        return out
    with get_context("spawn").Pool(workers) as pool:
        for line in pool.imap(_task, tasks, chunksize=8):
            out.append(line)
            tick()
    return out


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson_interval(k, n)
    return {"k": k, "n": n, "rate": k / n if n else math.nan, "low": low, "high": high}


def _mean(values: Sequence[float]) -> dict[str, Any]:
    mean, low, high = mean_interval(list(values))
    return {"n": len(values), "mean": mean, "low": low, "high": high}


def aggregate(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every statistic of the report, with intervals, from :func:`play_stats` lines."""
    pack = unbroken.default_pack()
    n = len(lines)
    agg: dict[str, Any] = {"games": n}
    cells: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for line in lines:
        cells[(line["difficulty"], line["character"])].append(line)
    difficulties = [d for d in DIFFICULTIES if any(k[0] == d for k in cells)]
    characters = [c for c in CHARACTERS if any(k[1] == c for k in cells)]
    agg["difficulties"], agg["characters"] = difficulties, characters
    agg["win"] = {
        f"{d}/{c}": {
            **_rate(sum(g["won"] for g in cells[(d, c)]), len(cells[(d, c)])),
            "score": _mean([g["score"] for g in cells[(d, c)] if g["won"]]),
        }
        for d in difficulties
        for c in characters
    }
    agg["difficulty"] = {
        d: _rate(sum(g["won"] for g in lines if g["difficulty"] == d), sum(g["difficulty"] == d for g in lines))
        for d in difficulties
    }
    wins = [g for g in lines if g["won"]]
    agg["titles"] = {t: _rate(sum(g["title"] == t for g in wins), len(wins)) for t in TITLE_NAMES}
    agg["titles_by_difficulty"] = {
        d: {t: sum(g["title"] == t for g in wins if g["difficulty"] == d) for t in TITLE_NAMES} for d in difficulties
    }
    agg["scores"] = [g["score"] for g in wins]
    agg["win_score"] = _mean(agg["scores"])
    met: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    for g in lines:
        met.update(set(g["monsters"]))
        if not g["won"] and g["ended_by"] in g["monsters"]:
            ended[g["ended_by"]] += 1
    agg["monsters"] = {
        m.id: {
            "id": m.id,
            "name": m.name,
            "level": m.level,
            "number": m.number,
            "armor": m.armor,
            "health": m.health,
            "source": m.source,
            "trickery": m.trickery is not None,
            "ambush": bool(m.ambush),
            "games_met": met[m.id] / n if n else math.nan,
            **_rate(ended[m.id], met[m.id]),
        }
        for m in pack.monsters
    }
    agg["other_losses"] = dict(
        Counter(g["ended_by"] for g in lines if not g["won"] and g["ended_by"] not in g["monsters"])
    )
    rest_value: dict[str, list[float]] = defaultdict(list)
    res_value: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    games_resolved: Counter[str] = Counter()
    for g in lines:
        for e, k in g["revealed"].items():
            counts[e]["revealed"] += k
        resolved_here = set()
        for e, payable, resolved, value in g["picks"]:
            counts[e]["kept"] += 1
            counts[e]["payable"] += bool(payable)
            counts[e]["resolved"] += bool(resolved)
            (res_value if resolved else rest_value)[e].append(value)
            if resolved:
                resolved_here.add(e)
        games_resolved.update(resolved_here)
    agg["encounters"] = {
        e.id: {
            "name": e.name,
            "time": e.time,
            "count": e.count,
            "revealed": counts[e.id]["revealed"],
            "kept": counts[e.id]["kept"],
            "resolve": _rate(counts[e.id]["resolved"], counts[e.id]["payable"]),
            "games": games_resolved[e.id] / n if n else math.nan,
            "value": _mean(res_value[e.id]),
            "rest_value": _mean(rest_value[e.id]),
        }
        for e in pack.encounters
    }
    agg["cards"] = {}
    # Skills with an action or a Response are used by a decision; static and passive ones whenever held.
    decided = {s.id for s in pack.skills if any(a.kind in ("action", "response") for a in s.abilities)}
    for kind, key, ids in (
        ("skill", "skills", [s.id for s in pack.skills]),
        ("weapon", "weapons", [w.id for w in pack.weapons]),
        ("condition", "conditions", [c.id for c in pack.conditions]),
    ):
        for cid in ids:
            with_ = [g for g in lines if cid in g[key]]
            without = [g for g in lines if cid not in g[key]]
            if kind == "skill" and cid in decided:
                use = sum(g["used"].get(f"skill:{cid}", 0) > 0 for g in lines)
            elif kind == "weapon":
                use = sum(any(a.startswith(f"{cid}:") for a in g["attacks"]) for g in lines)
            else:
                use = len(with_)
            agg["cards"][f"{kind}:{cid}"] = {
                "kind": kind,
                "id": cid,
                "held": _rate(len(with_), n),
                "used": _rate(use, n),
                "with": _rate(sum(g["won"] for g in with_), len(with_)),
                "without": _rate(sum(g["won"] for g in without), len(without)),
            }
    abilities: dict[str, Any] = {}
    for ch in pack.characters:
        mine = [g for g in lines if g["character"] == ch.id]
        for i, ab in enumerate(ch.abilities):
            name = ab.name or f"ability {i}"
            src = f"character:{ch.id}"
            abilities[f"{ch.id}:{name}"] = {"character": ch.id, "name": name, "kind": ab.kind, "src": src}
        for key, row in abilities.items():
            if row["character"] == ch.id:
                row["games"] = len(mine)
                row["used_games"] = sum(g["used"].get(row["src"], 0) > 0 for g in mine)
                row["uses"] = _mean([g["used"].get(row["src"], 0) for g in mine])
                _ = key
    agg["abilities"] = abilities
    attacks: Counter[str] = Counter()
    attack_games: Counter[str] = Counter()
    for g in lines:
        attacks.update(g["attacks"])
        attack_games.update(g["attacks"].keys())
    agg["attacks"] = {
        f"{w.id}:{a.name}": {"uses": attacks[f"{w.id}:{a.name}"], "games": attack_games[f"{w.id}:{a.name}"]}
        for w in pack.weapons
        for a in w.attacks
    }
    return agg


@attrs.frozen
class Target:
    """One balance target of the content guide, and whether the measurement meets it."""

    name: str
    met: bool
    detail: str


def targets(agg: Mapping[str, Any]) -> list[Target]:
    """The balance targets, checked against :func:`aggregate`'s statistics."""
    out: list[Target] = []
    titles = {t: r for t, r in agg["titles"].items() if r["k"]}
    top = max(titles.items(), key=lambda kv: kv[1]["k"]) if titles else ("-", {"rate": 1.0})
    out.append(
        Target(
            "wins spread over at least three titles, none holding more than half",
            len(titles) >= 3 and top[1]["rate"] <= 0.5,
            f"{len(titles)} titles; most: {top[0]} {top[1]['rate']:.0%}",
        )
    )
    if "normal" in agg["difficulties"]:
        rates = {c: agg["win"][f"normal/{c}"]["rate"] for c in agg["characters"]}
        low, high = min(rates.values()), max(rates.values())
        out.append(
            Target(
                "on Normal every character's win rate within a factor of 1.5 of every other's",
                low > 0 and high / low <= 1.5,
                ", ".join(f"{c} {r:.1%}" for c, r in rates.items()) + (f"; ratio {high / low:.2f}" if low else ""),
            )
        )
    for level in (1, 2, 3, 4):
        ms = [m for m in agg["monsters"].values() if m["level"] == level]
        shares = {m["name"]: m["rate"] for m in ms if m["n"]}
        if not shares:
            continue
        low, high = min(shares.values()), max(shares.values())
        out.append(
            Target(
                f"Level {level}: no monster ends more than twice the share of runs of the least lethal",
                (high <= 2 * low and high > 0) or high == 0,
                ", ".join(f"{k} {v:.1%}" for k, v in shares.items()),
            )
        )
        (alo, ahi), (hlo, hhi) = RANGES[level]
        outside = [
            m["name"]
            for m in ms
            if m["id"] not in PRINTED and not (alo <= m["armor"] <= ahi and hlo <= m["health"] <= hhi)
        ]
        fixed = [f"{m['name']} {m['armor']} Armor, {m['health']} Health" for m in ms if m["id"] in PRINTED]
        out.append(
            Target(
                f"Level {level}: monsters inside the guide's ranges ({alo}-{ahi} Armor, {hlo}-{hhi} Health)",
                not outside,
                ("outside: " + ", ".join(outside) if outside else "all inside")
                + (f" (printed by the rulebook, so kept: {', '.join(fixed)})" if fixed else ""),
            )
        )
    low_resolve = [
        f"{e['name']} {e['resolve']['rate']:.0%}"
        for e in agg["encounters"].values()
        if e["resolve"]["n"] and e["resolve"]["rate"] < 0.10
    ]
    out.append(
        Target(
            "every encounter resolved in at least 10% of the cases where the bot can pay it",
            not low_resolve,
            "below: " + ", ".join(low_resolve) if low_resolve else "all at 10% or more",
        )
    )
    rare = [f"encounter {e['name']}" for e in agg["encounters"].values() if e["games"] < 0.01]
    rare += [f"{c['kind']} {c['id']}" for c in agg["cards"].values() if c["used"]["rate"] < 0.01]
    rare += [
        f"{a['character']} {a['name']}"
        for a in agg["abilities"].values()
        if a["kind"] != "static" and a["games"] and a["used_games"] / a["games"] < 0.01
    ]
    rare += [f"monster {m['name']}" for m in agg["monsters"].values() if m["games_met"] < 0.01]
    out.append(
        Target(
            "every card can matter (used in at least 1% of games)",
            not rare,
            "under 1%: " + ", ".join(rare) if rare else "every card at 1% or more",
        )
    )
    ds = [d for d in DIFFICULTIES if d in agg["difficulty"]]
    if len(ds) == 3:
        e, nm, h = (agg["difficulty"][d] for d in ds)
        out.append(
            Target(
                "difficulty ordering Easy > Normal > Hard with non-overlapping intervals",
                e["low"] > nm["high"] and nm["low"] > h["high"],
                ", ".join(f"{d} {agg['difficulty'][d]['rate']:.1%}" for d in ds),
            )
        )
    return out


def _pct(r: Mapping[str, Any]) -> str:
    if not r["n"]:
        return "-"
    return f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})"


def _mn(r: Mapping[str, Any]) -> str:
    if not r["n"] or math.isnan(r["mean"]):
        return "-"
    return f"{r['mean']:.1f} ({r['low']:.1f} to {r['high']:.1f})"


def write_plots(agg: Mapping[str, Any], folder: Path) -> list[Path]:
    """The report's PNG plots (matplotlib, the ``plot`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []

    def bars(
        ax: Any, labels: Sequence[str], rows: Sequence[Mapping[str, Any]], offset: float, width: float, **kw: Any
    ) -> None:
        xs = [i + offset for i in range(len(labels))]
        ys = [r["rate"] if r["n"] else 0.0 for r in rows]
        err = [
            [y - r["low"] if r["n"] else 0 for y, r in zip(ys, rows, strict=True)],
            [r["high"] - y if r["n"] else 0 for y, r in zip(ys, rows, strict=True)],
        ]
        ax.bar(xs, ys, width, yerr=err, capsize=2, **kw)

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        path = folder / f"unbroken-{name}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)

    chars, ds = agg["characters"], agg["difficulties"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / max(1, len(ds))
    for j, d in enumerate(ds):
        bars(ax, chars, [agg["win"][f"{d}/{c}"] for c in chars], (j - (len(ds) - 1) / 2) * width, width, label=d)
    ax.set_xticks(range(len(chars)), chars)
    ax.set_ylabel("win rate (95% Wilson)")
    ax.legend()
    ax.set_title("Win rate per character and difficulty")
    save(fig, "win-rates")

    ms = sorted(agg["monsters"].values(), key=lambda m: (m["level"], m["number"]))
    fig, ax = plt.subplots(figsize=(9, 3.8))
    colors = {1: "tab:green", 2: "tab:blue", 3: "tab:orange", 4: "tab:red"}
    for i, m in enumerate(ms):
        y = m["rate"] if m["n"] else 0.0
        ax.bar(
            i,
            y,
            0.7,
            yerr=[[y - m["low"] if m["n"] else 0], [m["high"] - y if m["n"] else 0]],
            capsize=2,
            color=colors[m["level"]],
        )
    ax.set_xticks(range(len(ms)), [m["name"] for m in ms], rotation=70, fontsize=7)
    ax.set_ylabel("share of runs met that it ends")
    ax.set_title("Monster lethality (colour = Level)")
    save(fig, "monsters")

    es = list(agg["encounters"].values())
    fig, ax = plt.subplots(figsize=(11, 4))
    bars(ax, [e["name"] for e in es], [e["resolve"] for e in es], 0.0, 0.7, color="tab:purple")
    ax.axhline(0.10, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(es)), [e["name"] for e in es], rotation=80, fontsize=6)
    ax.set_ylabel("resolved when kept and payable")
    ax.set_title("Encounters: resolved rather than Rested")
    save(fig, "encounters")

    cards = list(agg["cards"].values())
    fig, ax = plt.subplots(figsize=(11, 4))
    labels = [f"{c['kind'][0]}:{c['id']}" for c in cards]
    bars(ax, labels, [c["with"] for c in cards], -0.2, 0.4, label="with it")
    bars(ax, labels, [c["without"] for c in cards], 0.2, 0.4, label="without it")
    ax.set_xticks(range(len(cards)), labels, rotation=80, fontsize=6)
    ax.set_ylabel("win rate")
    ax.legend()
    ax.set_title("Skills (s), weapons (w), conditions (c): win rate with and without")
    save(fig, "cards")

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.5))
    bars(a1, TITLE_NAMES, [agg["titles"][t] for t in TITLE_NAMES], 0.0, 0.7, color="tab:olive")
    a1.set_xticks(range(len(TITLE_NAMES)), TITLE_NAMES, rotation=30)
    a1.set_ylabel("share of wins")
    a1.set_title("Titles of wins")
    if agg["scores"]:
        a2.hist(agg["scores"], bins=range(0, max(agg["scores"]) + 6, 5), color="tab:cyan", edgecolor="white")
    a2.set_xlabel("winning score")
    a2.set_ylabel("wins")
    a2.set_title("Scores of wins")
    save(fig, "titles")
    return paths


def _num(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    return "inf" if math.isinf(x) else f"{x:.4g}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def certificate_lines(cert: Mapping[str, Any], file: str = "") -> list[str]:
    """The report's certificate: the verdicts of a ``tabletop certify --json`` document, with its deals, games,
    bot and confidence."""
    start, stop = cert["seeds"]
    verdicts = cert["verdicts"]
    cells = len(cert["cells"])
    confidence = float(cert["confidence"])
    each = 1 - (1 - confidence) / len(verdicts)
    failed = [v for v in verdicts if v["verdict"] == "fail"]
    undecided = [v for v in verdicts if v["verdict"] == "undecided"]
    agents = ", ".join(cert["agents"]) or "the game's own bots"
    pack = f" --pack {cert['pack']}" if cert.get("pack") else ""
    status = (
        "**Certified**: every target passes."
        if cert["certified"]
        else f"**Not certified**: {_count(len(failed), 'target fails', 'targets fail')} and "
        f"{_count(len(undecided), 'target stays', 'targets stay')} undecided (more deals would decide those)."
    )
    lines = [
        "## Certificate",
        "",
        f"`tabletop certify unbroken --targets {cert['targets']} --seeds {start}:{stop}{pack}` on "
        f"{stop - start} held-out deals (deal `d`: the bot seeded `game_seed(0, d)`, chance `game_seed(1, d)`) in "
        f"each of the {cells} cells (every character on every difficulty): {cert['games']} games, played by "
        f"`{agents}` (`{BOT}`)." + (f" The certify document: [{Path(file).name}]({Path(file).name})." if file else ""),
        "",
        f"Each target is decided by a one-sided bootstrap bound ({cert.get('resamples', '?')} resamples of the "
        f"deals, every cell resampled together), at {each:.4g} each: Bonferroni over the {len(verdicts)} targets, "
        f"so the certificate holds jointly at {confidence:.0%}. A bound on both sides is an equivalence test (both "
        "one-sided bounds inside). " + status,
        "",
        "| target | bounds | estimate | interval | verdict |",
        "|---|---|---:|---:|---|",
    ]
    for v in verdicts:
        verdict = v["verdict"] if v["verdict"] == "pass" else f"**{v['verdict']}**"
        lines.append(
            f"| {v['target']} | {v['bounds']} | {_num(v['estimate'])} | {_num(v['low'])} to {_num(v['high'])} | "
            f"{verdict} |"
        )
    return [*lines, ""]


def tuning_lines(tuning: Mapping[str, Any], file: str = "") -> list[str]:
    """What a ``tabletop tune`` run (its ``.tune.json`` document) did to the pack, in a paragraph."""
    start, stop = tuning["seeds"]
    changes = tuning["changes"]
    changed = (
        "the pack takes its numbers: "
        + ", ".join(f"`{c['field']}` {c['default']:g} to {c['tuned']:g}" for c in changes)
        if changes
        else "no trial beat the authored numbers, so the pack keeps them"
    )
    record = f" The tuning record: [{Path(file).name}]({Path(file).name})." if file else ""
    return [
        "The pack's free numbers (`[free]` in `src/unbroken/content/targets.toml`) were searched by `tabletop tune` "
        f"on deals {start}:{stop}: {tuning['trials']} trials, loss {tuning['loss']['default']:.4g} for the authored "
        f"pack and {tuning['loss']['tuned']:.4g} for the best (trial {tuning['best_trial']}); {changed}. The "
        f"certificate is decided on other deals.{record}"
    ]


def write_report(
    agg: Mapping[str, Any],
    meta: Mapping[str, Any],
    folder: Path,
    plots: bool = True,
    certificate: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``unbroken.md`` (and, with ``plots``, its PNGs) into ``folder``; with ``certificate`` (a ``tabletop
    certify --json`` document), the report opens with its verdicts and its tables describe the first certified
    deals."""
    folder.mkdir(parents=True, exist_ok=True)
    pngs = write_plots(agg, folder) if plots else []
    chars, ds = agg["characters"], agg["difficulties"]
    first = int(meta.get("first", 0))
    last = first + meta["games"] - 1
    if meta.get("paired"):
        seeds = (
            f"- Seeds: deal `d` of every cell has the bot seeded `game_seed({meta['seed']}, d)` and chance "
            f"`game_seed({meta['seed'] + 1}, d)` (`tabletop_core.simulation.game_seed`), d = {first}...{last}: "
            "the games `tabletop certify` plays for those deals, and every character and difficulty meets them."
        )
    else:
        seeds = (
            f"- Seeds: game `d` of every cell is seeded `game_seed({meta['seed']}, d)` "
            f"(`tabletop_core.simulation.game_seed`), d = {first}...{last}, so every character and "
            "difficulty meets the same deals."
        )
    md: list[str] = [
        "# Unbroken balance report",
        "",
        "Generated by `python -m benchmarks.balance` (`make balance`) from a `tabletop certify` run; do not edit by "
        "hand."
        if certificate is not None
        else "Generated by `python -m benchmarks.balance` (`make balance`); do not edit by hand.",
        "",
    ]
    if meta.get("tuning"):
        md += [*tuning_lines(meta["tuning"], meta.get("tuning_file", "")), ""]
    if certificate is not None:
        md += certificate_lines(certificate, meta.get("certificate_file", ""))
    md += [
        "## The games of the tables",
        "",
        f"- Bot: `{BOT}` (the heuristic bot, the strongest Unbroken player the library has: at the budgets "
        "measured in the simulation docs MCTS with it as rollout policy loses more).",
        f"- Games: {meta['games']} per character and difficulty, {agg['games']} in all "
        f"({meta['games'] * len(chars)} per difficulty).",
        seeds,
        f"- Pack: the default pack; commit `{meta.get('commit', '?')}`.",
        "- Intervals: 95% Wilson score intervals for rates, Student-t intervals for means.",
        "",
        "## Other checks",
        "",
        "The content guide's checks, as point estimates on the games of the tables"
        + (" (the certificate above is the claim)." if certificate is not None else "."),
        "",
        "| check | met | measured |",
        "|---|---|---|",
    ]
    md += [f"| {t.name} | {'yes' if t.met else '**no**'} | {t.detail} |" for t in targets(agg)]
    md += ["", "## Win rate per character and difficulty", "", "![win rates](unbroken-win-rates.png)", ""]
    md += ["| difficulty | " + " | ".join(chars) + " | all |", "|---" * (len(chars) + 2) + "|"]
    for d in ds:
        md.append(
            f"| {d} | " + " | ".join(_pct(agg["win"][f"{d}/{c}"]) for c in chars) + f" | {_pct(agg['difficulty'][d])} |"
        )
    md += [
        "",
        "Mean score of the wins:",
        "",
        "| difficulty | " + " | ".join(chars) + " |",
        "|---" * (len(chars) + 1) + "|",
    ]
    for d in ds:
        md.append(f"| {d} | " + " | ".join(_mn(agg["win"][f"{d}/{c}"]["score"]) for c in chars) + " |")
    md += ["", "## Score and title of the wins", "", "![titles](unbroken-titles.png)", ""]
    md += [f"All {len(agg['scores'])} wins; mean score {_mn(agg['win_score'])}.", ""]
    md += ["| title | points | share of wins | " + " | ".join(ds) + " |", "|---|---|---|" + "---|" * len(ds)]
    bounds = ["0", "1-10", "11-20", "21-30", "31-40", "41+"]
    for t, b in zip(TITLE_NAMES, bounds, strict=True):
        md.append(
            f"| {t} | {b} | {_pct(agg['titles'][t])} | "
            + " | ".join(str(agg["titles_by_difficulty"][d][t]) for d in ds)
            + " |"
        )
    md += [
        "",
        "## Monsters",
        "",
        "A run meets a monster when a Combat Phase against it begins; it ends the run when the run is lost in that "
        "combat (its Ambush, its Combat Actions, or the conditions it gave). All difficulties pooled.",
        "",
        "![monsters](unbroken-monsters.png)",
        "",
        "| Level | # | monster | source | Armor | Health | Trickery | Ambush | runs met (share of games) | ends |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in sorted(agg["monsters"].values(), key=lambda m: (m["level"], m["number"])):
        md.append(
            f"| {m['level']} | {m['number']} | {m['name']} | {m['source']} | {m['armor']} | {m['health']} | "
            f"{'yes' if m['trickery'] else 'no'} | {'yes' if m['ambush'] else 'no'} | "
            f"{m['n']} ({m['games_met']:.0%}) | {_pct(m)} |"
        )
    if agg["other_losses"]:
        md += [
            "",
            "Runs lost outside a combat: "
            + ", ".join(f"{k} {v}" for k, v in sorted(agg["other_losses"].items()))
            + ".",
        ]
    md += [
        "",
        "## Encounters",
        "",
        "Revealed: times the card was among those revealed; kept: times the bot chose it; resolved: the share of "
        "the kept cases where it could pay the Spend field that it resolved rather than Rested; games: the share "
        "of games in which it was resolved. Value: the change of resources and Time (at the content guide's "
        "Small-Effort prices, Time 2) from the choice to the end of the Exploration Step, resolving and Resting.",
        "",
        "![encounters](unbroken-encounters.png)",
        "",
        "| encounter | Time | copies | revealed | kept | resolved | games | value resolved | value Rested |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for e in agg["encounters"].values():
        md.append(
            f"| {e['name']} | {e['time']} | {e['count']} | {e['revealed']} | {e['kept']} | {_pct(e['resolve'])} | "
            f"{e['games']:.1%} | {_mn(e['value'])} | {_mn(e['rest_value'])} |"
        )
    md += [
        "",
        "## Skills, weapons and conditions",
        "",
        "Held: games in which the card was held at some point; used: games with a decision that used it (a skill's "
        "action or optional Response; a weapon's attack; a condition counts as used when gained, and a static or "
        "passive skill applies whenever held, so for those held is the measure). Win rate with and without: "
        "over the games that held it and those that did not. Skills are offered only after a won Level, so "
        "'with' also measures surviving Level 1.",
        "",
        "![cards](unbroken-cards.png)",
        "",
        "| card | held | used | win rate with | win rate without |",
        "|---|---|---|---|---|",
    ]
    for c in agg["cards"].values():
        md.append(
            f"| {c['kind']} {c['id']} | {_pct(c['held'])} | {_pct(c['used'])} | "
            f"{_pct(c['with'])} | {_pct(c['without'])} |"
        )
    md += [
        "",
        "Character abilities (games of that character):",
        "",
        "| character | ability | kind | games used | uses per game |",
        "|---|---|---|---|---|",
    ]
    for a in agg["abilities"].values():
        share = _pct(_rate(a["used_games"], a["games"])) if a["kind"] != "static" else "static"
        md.append(f"| {a['character']} | {a['name']} | {a['kind']} | {share} | {_mn(a['uses'])} |")
    md += ["", "Weapon attacks made (all games):", "", "| attack | uses | games |", "|---|---|---|"]
    for k, v in agg["attacks"].items():
        md.append(f"| {k.replace(':', ' ')} | {v['uses']} | {v['games']} |")
    if pngs:
        md += ["", "Plots: " + ", ".join(f"[{p.name}]({p.name})" for p in pngs) + "."]
    path = folder / "unbroken.md"
    path.write_text("\n".join(md) + "\n", encoding="utf-8")
    return path


def _commit() -> str:
    import subprocess

    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main(argv: Iterable[str] | None = None) -> int:
    """The command line (see the module)."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.balance", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per character and difficulty (default 1000)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--difficulty", action="append", choices=DIFFICULTIES, help="only these difficulties")
    ap.add_argument("--out", default="docs/balance", help="folder of unbroken.md and its plots")
    ap.add_argument("--save", help="write the per-game lines (JSON Lines) here")
    ap.add_argument("--load", help="read per-game lines from here instead of playing")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument(
        "--certificate",
        metavar="FILE",
        help="a `tabletop certify --json` document: the report opens with its verdicts, and its tables play the "
        "first --games of the certified deals as certify played them (--seed is then ignored)",
    )
    ap.add_argument(
        "--tuning", metavar="FILE", help="the `.tune.json` record of the `tabletop tune` run the pack came from"
    )
    args = ap.parse_args(list(argv) if argv is not None else None)
    certificate = None
    tuning = json.loads(Path(args.tuning).read_text(encoding="utf-8")) if args.tuning else None
    seed, first, paired = args.seed, 0, False
    if args.certificate:
        certificate = json.loads(Path(args.certificate).read_text(encoding="utf-8"))
        missing = {"seeds", "cells", "games", "agents", "targets", "confidence", "verdicts"} - set(certificate)
        if missing:
            ap.error(f"--certificate {args.certificate}: not a certify --json document (no {sorted(missing)})")
        start, stop = certificate["seeds"]
        if tuning is not None:
            lo, hi = tuning["seeds"]
            if max(int(lo), int(start)) < min(int(hi), int(stop)):
                ap.error(f"--certificate: its deals {start}:{stop} overlap the tuning deals {lo}:{hi}")
        seed, first, paired = 0, int(start), True
        args.games = min(args.games, int(stop) - int(start))
    if args.load:
        lines = [json.loads(x) for x in Path(args.load).read_text(encoding="utf-8").splitlines() if x.strip()]
    else:
        lines = collect(
            args.games,
            seed,
            difficulties=args.difficulty or DIFFICULTIES,
            workers=args.workers,
            progress=not args.quiet,
            first=first,
            paired=paired,
        )
    if args.save:
        Path(args.save).write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    agg = aggregate(lines)
    games = len(lines) // max(1, len(agg["difficulties"]) * len(agg["characters"]))
    meta = {
        "games": games,
        "seed": seed,
        "first": first,
        "paired": paired,
        "tuning": tuning,
        "tuning_file": args.tuning or "",
        "certificate_file": args.certificate or "",
        "commit": _commit(),
    }
    path = write_report(agg, meta, Path(args.out), plots=not args.no_plots, certificate=certificate)
    for t in targets(agg):
        print(f"[{'x' if t.met else ' '}] {t.name}: {t.detail}")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
