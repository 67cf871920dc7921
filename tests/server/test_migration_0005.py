"""Migration 0005 on a database an older release made (migrated to 0004), holding Sultan Spins
carried states keyed by the bet's amount as that release wrote them: every row survives, the
amounts of the old ladder become bet levels, a key no pricing maps keeps its text, another
game's rows are untouched, and the next round at a bet starts from the state stored under its
old amount. The downgrade moves the level keys back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text

from reelsmith.server.clock import ManualClock
from reelsmith.store.db import MIGRATIONS
from tests.server.conftest import Api, app_over, older_release

GAME = "sultan-spins"


def state(pots: list[int], triggers: list[int], meter: int) -> str:
    """A carried state as the older release stored it (rules version 2 trigger points)."""
    return json.dumps(
        {"meter": meter, "pots": pots, "trigger_rules": [2] * 5, "triggers": triggers},
        separators=(",", ":"),
        sort_keys=True,
    )


#: What the older release left: (game, key, state) per row, for one player.
OLD_ROWS = [
    (GAME, "0.20", state([3, 5, 25, 100, 500], [23, 33, 179, 1131, 3102], 1)),
    (GAME, "1.00", state([7, 9, 30, 101, 503], [20, 40, 200, 1200, 4000], 4)),
    (GAME, "100.00", state([2, 6, 26, 100, 500], [10, 48, 240, 1240, 4990], 0)),
    # no pricing ever gave 0.30: kept under its text, never deleted
    (GAME, "0.30", state([4, 5, 25, 100, 500], [24, 49, 249, 1249, 4999], 2)),
    # another game's state (none ships today) is not Sultan Spins' to move
    ("another-game", "1.00", '{"anything":1}'),
]
EXPECTED_KEYS = {
    (GAME, "0.20"): "level-1",
    (GAME, "1.00"): "level-5",
    (GAME, "100.00"): "level-500",
    (GAME, "0.30"): "0.30",
    ("another-game", "1.00"): "1.00",
}


def stored_rows(db: Any) -> dict[tuple[str, str], str]:
    with db.read() as connection:
        rows = connection.execute(
            text("SELECT game, bet_key, state FROM game_states WHERE player_id = 'old-player'")
        ).all()
    return {(row.game, row.bet_key): row.state for row in rows}


def downgrade(db: Any, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0005_keys_carried_state_by_bet_level(kind: str, tmp_path: Any) -> None:
    clock = ManualClock()
    with older_release(kind, tmp_path, "0004", clock, external_ref="old") as db:
        now = clock.now_ms()
        with db.write() as connection:
            for game, key, value in OLD_ROWS:
                connection.execute(
                    text(
                        "INSERT INTO game_states (player_id, game, bet_key, state, updated_ms)"
                        " VALUES ('old-player', :game, :key, :state, :now)"
                    ),
                    {"game": game, "key": key, "state": value, "now": now},
                )
        before = {(game, key): value for game, key, value in OLD_ROWS}
        app = app_over(db, clock)  # migrates to the newest

        after = stored_rows(db)
        assert len(after) == len(OLD_ROWS)  # no row lost, none merged
        assert after == {(game, EXPECTED_KEYS[game, key]): v for (game, key), v in before.items()}

        with TestClient(app) as client:
            api = Api(client, clock, db)
            api.op("POST", "/operator/players/old-player/deposit", {"amount": "10.00"})
            api.login("old-player")
            carried = api.as_player("GET", f'/api/games/{GAME}/state?bet={{"bet":"1.00"}}')
            assert carried.status_code == 200, carried.text
            view = carried.json()["carried_state"]
            assert view["pots_minor"] == [700, 900, 3000, 10100, 50300] and view["meter"] == 4
            spin = api.spin(GAME, {"bet": "1.00"})
            assert spin.status_code == 200, spin.text
            round_id = spin.json()["round_id"]
            record = api.op("GET", f"/operator/rounds/{round_id}", key=None).json()["record"]
            assert record["state_before"] == json.loads(before[GAME, "1.00"])
            assert "bet_level" not in record  # 1.00 at 0.20 a stake unit: level 5

        if kind == "sqlite":  # the downgrade gives every key back its amount
            downgrade(db, "0004")
            back = stored_rows(db)
            assert set(back) == set(before)
            for key in ("0.20", "100.00", "0.30"):  # 1.00 was played on since
                assert back[GAME, key] == before[GAME, key]
