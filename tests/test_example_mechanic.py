"""Adding a mechanic is one package and one line of the registry (``docs/mechanics.md``): the
test suite's own mystery symbols (:mod:`tests.example_mechanic`) composed with Aurora Fox's
paylines, scatter and free spins, played live, replayed, served, and refused by name where a
face does not have it (the lab) or the registry does not list it."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

import reelsmith.mechanics as registry
from reelsmith.analysis.analyzer import NoRoundLawError, analyze
from reelsmith.analysis.kernel import KernelGame
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import load_model
from reelsmith.games import game_folder
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import SeededSource
from reelsmith.server.titles import Title
from tests.example_mechanic import MECHANIC as MYSTERY

MYSTERY_TABLE = '\n[mystery]\nsymbol = "mystery"\nbecomes = { owl = 1, lynx = 3 }\n'
MYSTERY_SYMBOL = '[[symbols]]\nid = "mystery"\nname = "Mystery"\nrole = "bonus"\n\n[line_pays]'


def mystery_fox(folder: Path):
    """Aurora Fox with mystery symbols on every reel of its base strips (in place of tens)."""
    shutil.copytree(game_folder("aurora-fox"), folder)
    model = folder / "model.toml"
    text = model.read_text(encoding="utf-8").replace('id = "aurora-fox"', 'id = "mystery-fox"')
    text = text.replace("[line_pays]", MYSTERY_SYMBOL, 1) + MYSTERY_TABLE
    model.write_text(text, encoding="utf-8")
    for variant in (folder / "variants").glob("*.toml"):
        variant.write_text(
            variant.read_text(encoding="utf-8").replace('"ten"', '"mystery"'), encoding="utf-8"
        )
    return load_model(folder)


#: The catalogue's registry without its own mystery package (``reelsmith.mechanics.mystery``),
#: which the example stands in for here.
WITHOUT_MYSTERY = tuple(m for m in registry.MECHANICS if m.name != "mystery")


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch):
    """The registry with the example's mystery mechanic listed (its one line) in place of the
    catalogue's, for this test only."""
    monkeypatch.setattr(registry, "MECHANICS", (*WITHOUT_MYSTERY, MYSTERY))
    registry.composition.cache_clear()
    yield
    registry.composition.cache_clear()


def test_a_mechanic_the_registry_does_not_list_is_an_unknown_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "MECHANICS", WITHOUT_MYSTERY)
    registry.composition.cache_clear()
    model = mystery_fox(tmp_path / "fox")
    with pytest.raises(registry.CompositionError, match="unknown key 'mystery'"):
        registry.composition(model)


def test_the_mechanic_composes_plays_and_replays(tmp_path: Path, registered: None) -> None:
    model = mystery_fox(tmp_path / "fox")
    composed = registry.composition(model)
    assert [p.name for p in composed.parts][:3] == ["coins", "strips", "mystery"]
    bet = CoinBet(20, 1, _size(model))
    stake = core.Stake(bet.lines, bet.coins_per_line)
    revealed: Counter[str] = Counter()
    for seed in range(400):
        source = SeededSource(seed)
        played = core.start_round(
            composed, bet, stake, source, parts={OPTIONS: RoundOptions(gamble_allowed=False)}
        )
        played = core.finish(composed, played, source)
        for spin in played.spins:
            record = spin.parts["mystery"]
            cells = [(r, c) for r, row in enumerate(spin.landed) for c, s in enumerate(row)]
            mysteries = [(r, c) for r, c in cells if spin.landed[r][c] == "mystery"]
            assert all(s != "mystery" for row in spin.screen for s in row)
            if mysteries:
                assert {spin.screen[r][c] for r, c in mysteries} == {record.symbol}
                revealed[record.symbol] += 1
            else:
                assert record.symbol is None
        draws = [d.purpose for d in played.draws]
        with_mystery = sum(
            any(s == "mystery" for row in spin.landed for s in row) for spin in played.spins
        )
        assert draws.count("mystery") == with_mystery
        again = core.replay_from(
            composed,
            bet,
            stake,
            played.variant,
            played.actions,
            played.draws,
            parts={OPTIONS: RoundOptions(gamble_allowed=False)},
        )
        assert again == played
        assert core.round_json(composed, again)["spins"][0]["mystery"] == (
            played.spins[0].parts["mystery"].symbol
        )
    assert set(revealed) == {"owl", "lynx"} and revealed["lynx"] > revealed["owl"]
    title = Title(model)  # the server's title, from the same registry
    assert title.client == "catalogue"


def test_the_lab_refuses_a_mechanic_it_does_not_play(tmp_path: Path, registered: None) -> None:
    model = mystery_fox(tmp_path / "fox")
    with pytest.raises(NoRoundLawError, match="no exact analysis or kernel of mystery"):
        analyze(model)
    with pytest.raises(ValueError, match="no exact analysis or kernel of mystery"):
        KernelGame.build(model)


def _size(model):  # the model's smallest coin size
    from decimal import Decimal

    return Decimal(str(model.bet["coin_sizes"][0]))
