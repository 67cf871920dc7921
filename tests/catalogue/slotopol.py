"""Converting the external slotopol corpus (``../shared/external/slotopol/``) to reelsmith model
folders at test time: nothing of the corpus is stored in the repository.

Each ``<game>.json`` becomes a catalogue model (``mechanics = "catalogue"``) with one variant per
reel set, named by slotopol's RTP key. The corpus' conventions (its README) map onto the
catalogue as follows: symbol ``n`` is ``s<n>``; ``line_pays[id][n-1]`` is the pay for ``n`` in a
row; the wild's reels, its own pays and its multiplier on a substituted run that holds a wild
come from ``wild`` and ``line_rule``; ties go to the wild; the scatter pays ``pays_by_count``
(or ``fixed_pay`` for ``min_count`` and more) times the total bet, counted on its reels; free
spins award ``by_count`` (or ``count``) spins on the base reel set, retrigger by the same table
without limit, and multiply every win by ``multiplier``, except Cleopatra's line of five wilds
(``five_wild_line_win_multiplier``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The workplace's shared folder lies beside the repository (as CI lays it out);
#: ``REELSMITH_SHARED_DIR`` points elsewhere.
SHARED = Path(
    os.environ.get("REELSMITH_SHARED_DIR", Path(__file__).resolve().parents[2].parent / "shared")
)
CORPUS = SHARED / "external" / "slotopol"


@dataclass(frozen=True)
class StatedFigures:
    rtp_pct: float
    decimals: int  # as printed in slotopol's comment
    sigma_base_spin: float | None
    sigma_decimals: int


def corpus_games() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = [
            f"{k if str(k).isalnum() else json.dumps(str(k))} = {_toml(v)}"
            for k, v in value.items()
        ]
        return "{ " + ", ".join(pairs) + " }"
    raise TypeError(type(value))


def fixed_bet(cost: int) -> list[str]:
    """A ``[bet]`` table of one bet: ``cost`` coins of 1.00 (the corpora's unit bet)."""
    return [
        "",
        "[bet]",
        f"lines = {{ min = {cost}, max = {cost} }}",
        "coins_per_line = { min = 1, max = 1 }",
        'coin_sizes = ["1.00"]',
        f"max_total_coins = {cost}",
        f'default = {{ lines = {cost}, coins_per_line = 1, coin_size = "1.00" }}',
    ]


def _decimals(number: str) -> int:
    return len(number.split(".")[1]) if "." in number else 0


def stated_figures(entry: dict[str, Any]) -> StatedFigures:
    """The stated RTP and base-spin sigma of a reel set, with their printed precision."""
    rtp_text = None
    sigma_text = None
    for line in entry["comment"]:
        found = re.search(r"RTP = .*?([0-9.]+)%\s*$", line)
        if found:
            rtp_text = found.group(1)
        found = re.search(r"sigma\(sym\) = ([0-9.]+)", line)
        if found:
            sigma_text = found.group(1)
    assert rtp_text is not None, entry["comment"]
    return StatedFigures(
        float(rtp_text),
        _decimals(rtp_text),
        None if sigma_text is None else float(sigma_text),
        0 if sigma_text is None else _decimals(sigma_text),
    )


def convert(game: Path, folder: Path) -> dict[str, StatedFigures]:
    """Write ``folder/model.toml`` and ``folder/variants/<key>.toml`` for one corpus game;
    returns the stated figures by variant id."""
    data = json.loads(game.read_text(encoding="utf-8"))
    wild_id = data["wild"]["id"]
    scatter_id = data["scatter"]["id"]
    ids = [s["id"] for s in data["symbols"]]

    def name(symbol: int) -> str:
        return f"s{symbol}"

    out = [
        f"id = {_toml(game.stem)}",
        f"name = {_toml(game.stem)}",
        'mechanics = "catalogue"',
        f"reels = {data['cols']}",
        f"rows = {data['rows']}",
        f"default_variant = {_toml(next(iter(data['reels'])))}",
        f"paylines = {_toml(data['paylines'])}",
    ]
    for symbol in data["symbols"]:
        role = (
            "wild"
            if symbol["id"] == wild_id
            else "scatter"
            if symbol["id"] == scatter_id
            else "regular"
        )
        out += ["", "[[symbols]]", f"id = {_toml(name(symbol['id']))}"]
        out += [f"name = {_toml(symbol['name'])}", f"role = {_toml(role)}"]
    out += ["", "[line_pays]"]
    for symbol_text, pays in data["line_pays"].items():
        table = {str(n + 1): p for n, p in enumerate(pays) if p > 0}
        if table:
            out.append(f"{name(int(symbol_text))} = {_toml(table)}")
    rule = data["line_rule"]
    wild = data["wild"]
    out += ["", "[wild]", f"symbol = {_toml(name(wild_id))}", 'ties = "wild"']
    out.append(f"multiplier = {int(rule.get('substituted_multiplier_if_run_has_wild') or 1)}")
    out.append(f"reels = {_toml(wild['appears_on_reels'])}")
    scatter = data["scatter"]
    if scatter.get("pays_by_count"):
        pays = {str(n + 1): p for n, p in enumerate(scatter["pays_by_count"]) if p > 0}
    else:
        pays = {str(scatter["min_count"]): scatter["fixed_pay"]}
    out += ["", "[scatter]", f"symbol = {_toml(name(scatter_id))}", f"pays = {_toml(pays)}"]
    if scatter.get("appears_on_reels"):
        out.append(f"reels = {_toml(scatter['appears_on_reels'])}")
    free = data["free_spins"]
    if free:
        by_count = free.get("by_count") or [0] * (free["min_count"] - 1) + [free["count"]]
        spins = {str(n + 1): s for n, s in enumerate(by_count) if s > 0}
        out += ["", "[free_spins]", f"trigger = {free['min_count']}", f"spins = {_toml(spins)}"]
        out += ['retrigger = "table"', f"multiplier = {free['multiplier']}", 'reel_set = "base"']
        if free.get("five_wild_line_win_multiplier") is not None:
            exception = {
                "symbol": name(wild_id),
                "count": data["cols"],
                "multiplier": free["five_wild_line_win_multiplier"],
            }
            out.append(f"exceptions = [{_toml(exception)}]")
    lines = len(data["paylines"])
    out += ["", "[bet]", f"lines = {{ min = 1, max = {lines} }}"]
    out += ["coins_per_line = { min = 1, max = 1 }", 'coin_sizes = ["1.00"]']
    out += [f"max_total_coins = {lines}"]
    out += [f'default = {{ lines = {lines}, coins_per_line = 1, coin_size = "1.00" }}']
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    variants = folder / "variants"
    variants.mkdir(exist_ok=True)
    stated: dict[str, StatedFigures] = {}
    for key, strips in data["reels"].items():
        named = [[name(s) for s in strip] for strip in strips]
        text = [f"id = {_toml(key)}", "", "[reel_sets.base]", f"strips = {_toml(named)}"]
        (variants / f"{key}.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
        stated[key] = stated_figures(data["stated_rtp"][key])
    assert set(ids) >= {wild_id, scatter_id}
    return stated
