"""Converting the external ways corpus (``../shared/external/slotopol-ways/``) to reelsmith
model folders at test time: nothing of the corpus is stored in the repository.

Each ``<game>.json`` becomes a ways model (``[ways]``, ``[ways_pays]``) with one variant per reel
set, named by slotopol's RTP key. The corpus' conventions (its README) map onto the mechanics as
follows: symbol ``n`` is ``s<n>``; ``ways_pays[id][n-1]`` is the pay per way for a run of ``n``,
in Bet units, which is a coin of a spin costing ``cost_in_bet_units`` coins (``[ways] cost``);
the wild's weight per reel is ``[ways] wild_weights`` in the base game and, where a free spin
draws it (Redroo), ``[ways.free_spins_wild_weights]``; ways of wilds alone are paid for every
symbol where the corpus says so, else for none; the scatter pays ``pays_by_count`` per coin
(``pays_per = "coin"``) on its reels; free spins award ``awards_by_count_base`` spins, retrigger
by ``awards_by_count_free``, multiply every way win by ``multiplier_by_count`` of the trigger's
count, need a scatter on each of ``required_on_reels``, and play the bonus reels where the game
has them (Jaguar Moon).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.catalogue.slotopol import SHARED, _decimals, _toml, fixed_bet

CORPUS = SHARED / "external" / "slotopol-ways"


def corpus_games() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def _name(symbol: int | str) -> str:
    return f"s{symbol}"


def _weight_law(value: Any) -> dict[str, int] | int:
    """A fixed weight, or ``[[value, "p/q"], ...]`` as integer odds by value."""
    if isinstance(value, int):
        return value
    fractions = [(int(v), Fraction(p)) for v, p in value]
    common = 1
    for _, p in fractions:
        common = common * p.denominator // __import__("math").gcd(common, p.denominator)
    return {str(v): int(p * common) for v, p in fractions}


def convert(game: Path, folder: Path) -> dict[str, tuple[float, int]]:
    """Write the model and its variants; returns each variant's stated RTP (percent) and the
    decimals it was printed with."""
    data = json.loads(game.read_text(encoding="utf-8"))
    rule = data["ways_rule"]
    wild_id, scatter_id = data["wild"]["id"], data["scatter"]["id"]
    cost = data["bet"]["cost_in_bet_units"]
    reels = data["cols"]
    out = [
        f"id = {_toml(game.stem)}",
        f"name = {_toml(game.stem)}",
        'mechanics = "catalogue"',
        f"reels = {reels}",
        f"rows = {data['rows']}",
        f"default_variant = {_toml(next(iter(data['reels'])))}",
    ]
    for symbol in data["symbols"]:
        role = {wild_id: "wild", scatter_id: "scatter"}.get(symbol["id"], "regular")
        out += ["", "[[symbols]]", f"id = {_toml(_name(symbol['id']))}"]
        out += [f"name = {_toml(symbol['name'])}", f"role = {_toml(role)}"]
    base_weights = rule["wild_weight_by_reel"]["base"]
    weights = [int(base_weights.get(str(r + 1), 1)) for r in range(reels)]
    pure = "every_symbol" if rule["pure_wild_ways_paid"] else "none"
    out += ["", "[ways]", f"cost = {cost}", f"min_run = {rule['min_run']}"]
    out += [f"wild_weights = {_toml(weights)}", f"pure_wild_ways = {_toml(pure)}"]
    free_weights = {
        reel: _weight_law(v)
        for reel, v in rule["wild_weight_by_reel"]["free"].items()
        if not isinstance(v, int)
    }
    if free_weights:
        out += ["", "[ways.free_spins_wild_weights]"]
        out += [f'"{reel}" = {_toml(law)}' for reel, law in free_weights.items()]
    out += ["", "[ways_pays]"]
    for symbol_text, pays in data["ways_pays"].items():
        table = {str(n + 1): p for n, p in enumerate(pays) if p > 0}
        if table:
            out.append(f"{_name(symbol_text)} = {_toml(table)}")
    out += ["", "[wild]", f"symbol = {_toml(_name(wild_id))}"]
    out.append(f"reels = {_toml(data['wild']['appears_on_reels'])}")
    scatter = data["scatter"]
    pays = {str(n + 1): p for n, p in enumerate(scatter["pays_by_count"] or []) if p > 0}
    out += ["", "[scatter]", f"symbol = {_toml(_name(scatter_id))}", f"pays = {_toml(pays)}"]
    out += ['pays_per = "coin"', f"reels = {_toml(scatter['counted_on_reels'])}"]
    out.append(f"max_per_reel = {scatter['max_per_window']}")
    free = data["free_spins"]
    base_awards = {str(n + 1): s for n, s in enumerate(free["awards_by_count_base"]) if s > 0}
    free_awards = {str(n + 1): s for n, s in enumerate(free["awards_by_count_free"]) if s > 0}
    trigger = min(int(k) for k in base_awards)
    multipliers = {
        str(n + 1): m for n, m in enumerate(free["multiplier_by_count"]) if n + 1 >= trigger
    }
    out += ["", "[free_spins]", f"trigger = {trigger}", f"spins = {_toml(base_awards)}"]
    if free_awards:
        out += ['retrigger = "table"', f"retrigger_spins = {_toml(free_awards)}"]
    else:
        out += ['retrigger = "none"']
    if set(multipliers.values()) != {1}:
        out.append(f"multipliers = {_toml(multipliers)}")
    if scatter.get("required_on_reels"):
        out.append(f"required_reels = {_toml(scatter['required_on_reels'])}")
    bonus = data.get("bonus_reels")
    out.append(f"reel_set = {_toml('free_spins' if bonus else 'base')}")
    out += fixed_bet(cost)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    variants = folder / "variants"
    variants.mkdir(exist_ok=True)
    stated: dict[str, tuple[float, int]] = {}
    for key, strips in data["reels"].items():
        named = [[_name(s) for s in strip] for strip in strips]
        text = [f"id = {_toml(key)}", "", "[reel_sets.base]", f"strips = {_toml(named)}"]
        if bonus:
            free_strips = [[_name(s) for s in strip] for strip in bonus["reels"]]
            text += ["", "[reel_sets.free_spins]", f"strips = {_toml(free_strips)}"]
        (variants / f"{key}.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
        printed = None
        for line in data["stated_rtp"][key]["comment"]:
            found = re.search(r"= ([0-9.]+)%\s*$", line)
            if found and line.startswith("RTP"):
                printed = found.group(1)
        assert printed is not None, key
        stated[key] = (float(printed), _decimals(printed))
    return stated
