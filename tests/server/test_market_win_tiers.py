"""The win tiers a market sets for the client: read from its file, checked, sent to the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from reelsmith.server.markets import MARKETS_DIR, MarketError, load_market, load_markets


def market_file(tmp_path: Path, tiers: str | None) -> Path:
    text = (MARKETS_DIR / "default.toml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith("win_tiers")]
    if tiers is not None:
        kept.insert(kept.index('max_stake = "125.00"'), f"win_tiers = {tiers}")
    path = tmp_path / "default.toml"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def test_the_shipped_markets_send_their_tiers_to_the_client() -> None:
    for market in load_markets().values():
        assert market.to_json()["win_tiers"] == {"big": 15.0, "mega": 30.0, "epic": 60.0}


def test_a_market_sets_its_own_tiers_and_may_leave_one_out(tmp_path: Path) -> None:
    market = load_market(market_file(tmp_path, "{ big = 10, mega = 25.5 }"))
    assert market.to_json()["win_tiers"] == {"big": 10.0, "mega": 25.5}


def test_without_a_table_the_defaults_apply(tmp_path: Path) -> None:
    market = load_market(market_file(tmp_path, None))
    assert market.to_json()["win_tiers"] == {"big": 15.0, "mega": 30.0, "epic": 60.0}


@pytest.mark.parametrize(
    ("tiers", "message"),
    [
        ("{ huge = 20 }", "win_tiers.huge is not a win tier"),
        ("{ big = 0 }", "win_tiers.big must be a positive multiple"),
        ('{ big = "15" }', "win_tiers.big must be a positive multiple"),
        ("{ big = true }", "win_tiers.big must be a positive multiple"),
        ("{ big = 30, mega = 15 }", "must rise from big to mega to epic"),
        ("{ big = 15, epic = 15 }", "must rise from big to mega to epic"),
        ("{}", "win_tiers must be a table"),
        ("15", "win_tiers must be a table"),
    ],
)
def test_bad_tiers_are_refused_by_name(tmp_path: Path, tiers: str, message: str) -> None:
    with pytest.raises(MarketError, match=message):
        load_market(market_file(tmp_path, tiers))
