"""Converting the external cascade corpus (``../shared/external/slotopol-cascade/``) to reelsmith
model folders at test time: nothing of the corpus is stored in the repository.

The two line games (Gonzo's Quest, Win Storm) become paylines models with a ``[cascade]`` table
and one variant per reel set, named by slotopol's RTP key. The corpus' conventions (its README)
map onto the mechanics as follows: symbol ``n`` is ``s<n>``; ``line_pays[id][n-1]`` is the pay
of a run of ``n`` from reel 1 per line coin (the wild never lands on reel 1, so the run from
reel 1 is the corpus' reel-1 anchor); the scatter pays ``pays_by_count`` times the total bet and
is removed when it pays or triggers; the cascade reads at most ``fall_limit`` screens, screen
``k`` at ``multiplier_by_step[min(k, len) - 1]``, refilled from the strip above the window;
Gonzo's free spins (3 scatters at any screen of the chain: 10 spins, again in free spins, on the
same reels) multiply every line win by 3 on top of the screen's multiplier.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.catalogue.slotopol import SHARED, _decimals, _toml, fixed_bet

CORPUS = SHARED / "external" / "slotopol-cascade"
#: The corpus' line games.
LINE_GAMES = ("netent-gonzosquest", "ct-winstorm")
#: The corpus' pay-anywhere game (:func:`convert_counts`).
COUNT_GAMES = ("ct-sugartown",)


def corpus_game(stem: str) -> Path:
    return CORPUS / f"{stem}.json"


def stated(entry: dict[str, Any]) -> dict[str, Any]:
    """A reel set's stated figures: the RTP with its printed decimals, ``N[k]`` (stop
    combinations whose chain reads a k-th screen, k = 2..5) and, where printed, the free spins
    awarded over the cycle."""
    rtp_text = None
    for line in entry["comment"]:
        found = re.search(r"RTP = .*?([0-9.]+)%\s*$", line)
        if found:
            rtp_text = found.group(1)
    assert rtp_text is not None, entry["comment"]
    return {
        "rtp_pct": float(rtp_text),
        "decimals": _decimals(rtp_text),
        "reshuffles": int(entry["reshuffles"]),
        "N": {int(k): int(v) for k, v in entry["cascade_stats"]["N"].items()},
        "free_spins": entry.get("free_spins_awarded_over_cycle"),
    }


def convert(game: Path, folder: Path) -> dict[str, dict[str, Any]]:
    """Write ``folder/model.toml`` and its variants for one line game of the corpus; returns
    each variant's stated figures."""
    data = json.loads(game.read_text(encoding="utf-8"))
    wild_id, scatter_id = data["wild"]["id"], data["scatter"]["id"]

    def name(symbol: int | str) -> str:
        return f"s{symbol}"

    lines = len(data["paylines"])
    out = [
        f"id = {_toml(game.stem)}",
        f"name = {_toml(game.stem)}",
        f"reels = {data['cols']}",
        f"rows = {data['rows']}",
        f"default_variant = {_toml(next(iter(data['reels'])))}",
        f"paylines = {_toml(data['paylines'])}",
    ]
    for symbol in data["symbols"]:
        role = {wild_id: "wild", scatter_id: "scatter"}.get(symbol["id"], "regular")
        out += ["", "[[symbols]]", f"id = {_toml(name(symbol['id']))}"]
        out += [f"name = {_toml(symbol['name'])}", f"role = {_toml(role)}"]
    out += ["", "[line_pays]"]
    for symbol_text, pays in data["line_pays"].items():
        table = {str(n + 1): p for n, p in enumerate(pays) if p > 0}
        if table:
            out.append(f"{name(symbol_text)} = {_toml(table)}")
    out += ["", "[wild]", f"symbol = {_toml(name(wild_id))}"]
    out.append(f"reels = {_toml(data['wild']['appears_on_reels'])}")
    scatter = data["scatter"]
    pays = {str(n + 1): p for n, p in enumerate(scatter["pays_by_count"]) if p > 0}
    out += ["", "[scatter]", f"symbol = {_toml(name(scatter_id))}", f"pays = {_toml(pays)}"]
    out.append(f"reels = {_toml(scatter['appears_on_reels'])}")
    out.append(f"max_per_reel = {scatter['max_per_reel_window']}")
    cascade = data["cascade"]
    limit = int(cascade["fall_limit"])
    by_step = cascade["multiplier_by_step"]
    multipliers = [by_step[min(k, len(by_step)) - 1] for k in range(1, limit + 1)]
    out += ["", "[cascade]", f"limit = {limit}", f"multipliers = {_toml(multipliers)}"]
    free = data["free_spins"]
    if free:
        count = int(free["count"])
        out += ["", "[free_spins]", "trigger = 3", f"spins = {_toml({'3': count})}"]
        out += ['retrigger = "table"', f"retrigger_spins = {_toml({'3': count})}"]
        out += [f"multiplier = {free['multiplier']}", 'reel_set = "base"']
    out += fixed_bet(lines)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    variants = folder / "variants"
    variants.mkdir(exist_ok=True)
    figures: dict[str, dict[str, Any]] = {}
    for key, strips in data["reels"].items():
        named = [[name(s) for s in strip] for strip in strips]
        text = [f"id = {_toml(key)}", "", "[reel_sets.base]", f"strips = {_toml(named)}"]
        (variants / f"{key}.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
        figures[key] = stated(data["stated_rtp"][key])
    return figures


def convert_counts(game: Path, folder: Path) -> dict[str, dict[str, Any]]:
    """Write ``folder/model.toml`` and its variants for the corpus' pay-anywhere game (Sugar
    Town); returns each variant's stated figures.

    The corpus' count rule maps onto ``[anywhere]``: a symbol's count includes every wild, also
    where the window shows none of the symbol (``pure_wild_counts = "every_symbol"``); a count
    above 7 pays as 7 (``"7+"``); the wild pays on its own count; pays are in bet units and a
    spin costs ``cost_in_bet_units`` (the ``cost``). The scatter pays per coin by its count (at
    most one per reel window) and is removed when it pays; the cascade reads at most
    ``fall_limit`` screens at x1."""
    data = json.loads(game.read_text(encoding="utf-8"))
    wild_id, scatter_id = data["wild"]["id"], data["scatter"]["id"]

    def name(symbol: int | str) -> str:
        return f"s{symbol}"

    cost = int(data["cost_in_bet_units"])
    top = int(data["count_rule"]["clamp"]["ordinary_and_wild"])
    out = [
        f"id = {_toml(game.stem)}",
        f"name = {_toml(game.stem)}",
        f"reels = {data['cols']}",
        f"rows = {data['rows']}",
        f"default_variant = {_toml(next(iter(data['reels'])))}",
    ]
    for symbol in data["symbols"]:
        role = {wild_id: "wild", scatter_id: "scatter"}.get(symbol["id"], "regular")
        out += ["", "[[symbols]]", f"id = {_toml(name(symbol['id']))}"]
        out += [f"name = {_toml(symbol['name'])}", f"role = {_toml(role)}"]
    out += ["", "[anywhere]", f"cost = {cost}", 'pure_wild_counts = "every_symbol"']
    out += ["", "[anywhere_pays]"]
    for symbol_text, pays in data["count_pays"].items():
        if int(symbol_text) == scatter_id:
            continue
        table = {
            (f"{n + 1}+" if n + 1 == top else str(n + 1)): p
            for n, p in enumerate(pays[:top])
            if p > 0
        }
        if table:
            out.append(f"{name(symbol_text)} = {_toml(table)}")
    out += ["", "[wild]", f"symbol = {_toml(name(wild_id))}"]
    out.append(f"reels = {_toml(data['wild']['appears_on_reels'])}")
    # slotopol's scatter row is zero-filled to 7: a count past its last pay pays nothing (the
    # scatters still disappear, from the least count that pays)
    scatter_pays = data["count_pays"][str(scatter_id)] + [0] * (top - 5)
    first = next(n for n, p in enumerate(scatter_pays) if p > 0)
    pays = {str(n + 1): p for n, p in enumerate(scatter_pays) if n >= first}
    out += ["", "[scatter]", f"symbol = {_toml(name(scatter_id))}", f"pays = {_toml(pays)}"]
    out += ['pays_per = "coin"', f"reels = {_toml(data['scatter']['appears_on_reels'])}"]
    out.append(f"max_per_reel = {data['scatter']['max_per_reel_window']}")
    cascade = data["cascade"]
    limit = int(cascade["fall_limit"])
    by_step = cascade["multiplier_by_step"]
    multipliers = [by_step[min(k, len(by_step)) - 1] for k in range(1, limit + 1)]
    out += ["", "[cascade]", f"limit = {limit}", f"multipliers = {_toml(multipliers)}"]
    out += fixed_bet(cost)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    variants = folder / "variants"
    variants.mkdir(exist_ok=True)
    figures: dict[str, dict[str, Any]] = {}
    for key, strips in data["reels"].items():
        named = [[name(s) for s in strip] for strip in strips]
        text = [f"id = {_toml(key)}", "", "[reel_sets.base]", f"strips = {_toml(named)}"]
        (variants / f"{key}.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
        figures[key] = stated(data["stated_rtp"][key])
    return figures
