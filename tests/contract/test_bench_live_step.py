"""bench/bench_live_step.py prints, for every title, a row per kind of step it has (the start,
free spins where it has them) with its engine cost beside the cost of its draws alone (a short
run: the figures are not judged)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.contract.titles import contract_titles, model

SCRIPT = Path(__file__).parents[2] / "bench" / "bench_live_step.py"


def test_every_title_has_its_steps_beside_the_baseline():
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "BENCH_ROUNDS": "1000"},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    rows = {}
    for line in result.stdout.splitlines():
        cells = line.split()
        if cells and cells[0] in contract_titles():
            rows[(cells[0], cells[1])] = cells[2:]
    for game_id in contract_titles():
        steps, draws, engine, alone = rows[(game_id, "start")][:4]
        assert steps == "1,000" and float(draws) >= 5
        assert float(engine) > float(alone) > 0
        # free spins (or the ladder's) are steps of their own; a hold-and-spin is played
        # within the start
        spins = "hold_and_spin" not in model(game_id).raw
        assert ((game_id, "free_spin") in rows) == spins, game_id
    assert ("days-of-the-tsar", "gamble") in rows
    assert "timing one call costs" in result.stdout
