"""The payout audit (`GET /operator/audit/payouts`, `reelsmith audit verify`): every round's
payout re-derived from its recorded draws at its own variant and price, against the ledger.

A wrong payout posted in balance (the ledger's own check passes) is found, named by round and
kind; so is a bet taken twice, and a round whose record no longer replays."""

from __future__ import annotations

import json

from sqlalchemy import text
from typer.testing import CliRunner

from reelsmith.cli import app
from tests.server.forcing import (
    AURORA_BET,
    NEAR_POTS,
    TSAR_BET,
    aurora_trigger,
    sultan_stops,
    tsar_no_win,
    tsar_trigger,
    tsar_win,
)

TSAR, SULTAN, AURORA = "days-of-the-tsar", "sultan-spins", "aurora-fox"
runner = CliRunner()


def payouts(api):
    answer = api.op("GET", "/operator/audit/payouts", key=None)
    assert answer.status_code == 200, answer.text
    return answer.json()


def finish(api, game, body):
    """Play the round to its end: free spins, then a collect."""
    while body["status"] == "open":
        allowed = body["round"]["actions_allowed"]
        action = "free-spin" if "free_spin" in allowed else "collect"
        body = api.act(game, body["round_id"], action).json()
    return body


def play_every_kind_of_round(api):
    """A loss, a win collected, free spins of Tsar and Aurora, a Sultan pot and an open round."""
    player = api.player(deposit="500.00")
    api.login(player)
    rounds = [
        api.spin(TSAR, TSAR_BET, tsar_no_win()).json(),
        finish(api, TSAR, api.spin(TSAR, TSAR_BET, tsar_win()).json()),
        finish(api, TSAR, api.spin(TSAR, TSAR_BET, tsar_trigger(), gamble=False).json()),
        finish(api, AURORA, api.spin(AURORA, AURORA_BET, aurora_trigger()).json()),
        finish(
            api,
            SULTAN,
            api.spin(SULTAN, {"bet": "1.00"}, [*NEAR_POTS, *sultan_stops(gem_reels=(0,))]).json(),
        ),
    ]
    still_open = api.spin(TSAR, TSAR_BET, tsar_win()).json()
    assert still_open["status"] == "open"
    assert all(r["status"] == "complete" for r in rounds), rounds
    assert sum(r["win"]["minor"] for r in rounds) > 0
    return player, rounds, still_open


def test_every_round_pays_what_its_draws_give(api):
    _player, rounds, _open = play_every_kind_of_round(api)
    report = payouts(api)
    assert report["ok"] is True, report
    assert report["rounds"] == report["checked"] == len(rounds) + 1
    assert report["paid_minor"] == sum(r["win"]["minor"] for r in rounds)


def _wallet_and_game(connection, round_id):
    """The round's win transaction's two postings: (wallet posting, house posting) ids."""
    rows = connection.execute(
        text(
            "SELECT p.id, a.player_id FROM postings p"
            " JOIN ledger_transactions t ON t.id = p.transaction_id"
            " JOIN accounts a ON a.id = p.account_id"
            " WHERE t.round_id = :id AND t.kind = 'win'"
        ),
        {"id": round_id},
    ).all()
    wallet = next(r.id for r in rows if r.player_id is not None)
    house = next(r.id for r in rows if r.player_id is None)
    return wallet, house


def test_a_win_paid_at_another_price_is_found_though_the_ledger_balances(api):
    """The repricing fault as it was: a collect paid ten times the round's win, posted in
    balance and with the wallet's cached balance moved to match."""
    player, rounds, _open = play_every_kind_of_round(api)
    won = rounds[1]
    extra = 9 * won["win"]["minor"]
    with api.db.write() as connection:
        wallet, house = _wallet_and_game(connection, won["round_id"])
        connection.execute(
            text("UPDATE postings SET amount = amount + :x WHERE id = :id"),
            {"x": extra, "id": wallet},
        )
        connection.execute(
            text("UPDATE postings SET amount = amount - :x WHERE id = :id"),
            {"x": extra, "id": house},
        )
        connection.execute(
            text("UPDATE accounts SET balance = balance + :x WHERE player_id = :p"),
            {"x": extra, "p": player},
        )
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"] is True
    report = payouts(api)
    assert report["ok"] is False
    [found] = report["differences"]
    assert found["round_id"] == won["round_id"] and found["game"] == TSAR
    assert found["problem"] == (
        f"win: the ledger moved {10 * won['win']['minor']}, "
        f"the round's draws give {won['win']['minor']}"
    )


def test_a_changed_draw_and_a_second_bet_are_found(api):
    _player, rounds, _open = play_every_kind_of_round(api)
    lost, won = rounds[0], rounds[1]
    with api.db.write() as connection:
        record = json.loads(
            connection.execute(
                text("SELECT record FROM rounds WHERE id = :id"), {"id": won["round_id"]}
            ).scalar_one()
        )
        record["draws"][0][2] = (record["draws"][0][2] + 1) % record["draws"][0][1]
        connection.execute(
            text("UPDATE rounds SET record = :r WHERE id = :id"),
            {"r": json.dumps(record), "id": won["round_id"]},
        )
        bet = connection.execute(
            text("SELECT id, created_ms FROM ledger_transactions WHERE round_id = :id"),
            {"id": lost["round_id"]},
        ).one()
        connection.execute(
            text(
                "INSERT INTO ledger_transactions (kind, player_id, round_id, created_ms)"
                " SELECT kind, player_id, round_id, created_ms FROM ledger_transactions"
                " WHERE id = :id"
            ),
            {"id": bet.id},
        )
        second = connection.execute(text("SELECT MAX(id) FROM ledger_transactions")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO postings (transaction_id, account_id, amount)"
                " SELECT :t, account_id, amount FROM postings WHERE transaction_id = :id"
            ),
            {"t": second, "id": bet.id},
        )
    report = payouts(api)
    problems = {d["round_id"]: d["problem"] for d in report["differences"]}
    assert problems[lost["round_id"]] == (
        f"bet: the ledger moved {-2 * lost['bet']['minor']}, "
        f"the round's draws give {-lost['bet']['minor']}"
    )
    assert won["round_id"] in problems and len(problems) == 2
    assert problems[won["round_id"]] != ""


def test_the_command_prints_the_payout_check(sqlite_api):
    play_every_kind_of_round(sqlite_api)
    url = str(sqlite_api.db.url)
    result = runner.invoke(app, ["audit", "verify", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert "payouts: 6 of 6 rounds re-derived, each as the ledger paid it" in result.stdout
    with sqlite_api.db.write() as connection:
        connection.execute(text("UPDATE rounds SET win_minor = win_minor + 1 WHERE win_minor > 0"))
    result = runner.invoke(app, ["audit", "verify", "--database-url", url, "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)["payouts"]
    assert report["ok"] is False and len(report["differences"]) == 4
    assert all(d["problem"].startswith("win_minor: the round says") for d in report["differences"])
