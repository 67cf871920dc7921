"""The operator's reports end to end through the HTTP API and the CLI, on SQLite and
PostgreSQL: the money columns reconcile with the ledger (and with what the rounds answered),
free-round wins and jackpot contributions are told apart, the CSV carries the JSON's figures,
and the RTP monitor flags a title whose realised RTP leaves its 99% band."""

from __future__ import annotations

import csv
import io
import math

import pytest
from sqlalchemy import text

from reelsmith.server.services.reports import COLUMNS
from tests.server.conftest import build
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_win

DAY = "2026-01-01"  # the ManualClock's day
FOX = "aurora-fox"
FOX_BET = {"lines": 20, "coins_per_line": 1, "coin_size": "0.01"}  # 20 minor units


class Constant:
    """A random source that always draws ``value`` (below each bound): every round the same."""

    def __init__(self, value: int) -> None:
        self.value = value

    def randbelow(self, bound: int, purpose: str) -> int:
        return self.value % bound


def report(api, **params):
    return op_get(api, "/operator/reports/daily", **{"from": DAY, **params})


def game_accounts_total(api) -> int:
    """What the titles' house accounts moved, straight from the ledger's postings."""
    with api.db.read() as connection:
        return int(
            connection.execute(
                text(
                    "SELECT COALESCE(SUM(p.amount), 0) FROM postings p"
                    " JOIN accounts a ON a.id = p.account_id WHERE a.name LIKE 'game:%'"
                )
            ).scalar_one()
        )


def op_get(api, path, **params):
    return api.client.get(path, params=params, headers={"X-API-Key": "test-operator-key"})


def test_the_report_reconciles_with_the_ledger_and_the_rounds(api):
    player = api.player(deposit="100.00")
    api.login(player)
    tsar_wins = 0
    for forced in (tsar_win(), tsar_no_win(), tsar_win()):
        body = api.spin("days-of-the-tsar", TSAR_BET, forced, gamble=False).json()
        tsar_wins += body["win"]["minor"]
    created = api.op(
        "POST",
        f"/operator/players/{player}/free-rounds",
        {
            "campaign_id": "report-free",
            "game": "days-of-the-tsar",
            "bet": TSAR_BET,
            "rounds": 2,
            "expires_at": "2026-01-02T00:00:00Z",
        },
    )
    assert created.status_code == 201, created.text
    free_wins = 0
    for forced in (tsar_win(), tsar_no_win()):
        played = api.as_player(
            "POST",
            "/api/free-rounds/report-free/play",
            {"forced_draws": forced, "gamble": False},
        ).json()
        free_wins += played["win"]["minor"]
    assert free_wins > 0
    # Sultan Spins, unforced: its gems raise the pots by a bet each
    contributions = sultan_bets = sultan_paid = 0
    for _ in range(12):
        body = api.spin("sultan-spins", {"bet": "0.20"}).json()
        while body["status"] == "open":
            body = api.act("sultan-spins", body["round_id"], "free-spin").json()
        sultan_bets += 20
        sultan_paid += body["win"]["minor"]
        gems = sum(len(spin["gems"]) for spin in body["round"]["spins"])
        contributions += gems * 20

    answer = report(api)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["from"] == data["to"] == DAY
    rows = {row["game"]: row for row in data["days"]}
    assert set(rows) == {"days-of-the-tsar", "sultan-spins"}
    tsar = rows["days-of-the-tsar"]
    assert (tsar["day"], tsar["market"], tsar["currency"]) == (DAY, "default", "EUR")
    assert tsar["rounds"] == 5 and tsar["free_rounds"] == 2 and tsar["forced_rounds"] == 5
    assert tsar["bets"]["minor"] == 3 * 250  # free rounds take no bet
    assert tsar["wins"]["minor"] == tsar_wins + free_wins
    assert tsar["free_round_wins"]["minor"] == free_wins
    assert tsar["ggr"]["minor"] == 3 * 250 - tsar_wins - free_wins
    assert tsar["jackpot_contributions"]["minor"] == 0
    # forced rounds are left out of the realised RTP: their outcomes were chosen
    assert tsar["rtp_rounds"] == 0 and tsar["rtp"] is None and tsar["in_band"] is None
    sultan = rows["sultan-spins"]
    assert sultan["rounds"] == sultan["rtp_rounds"] == 12
    assert sultan["bets"]["minor"] == sultan_bets
    paid = sultan["wins"]["minor"] + sultan["jackpot_wins"]["minor"]
    assert paid == sultan_paid
    assert sultan["jackpot_contributions"]["minor"] == contributions
    assert sultan["rtp"] == round(sultan_paid / sultan_bets, 6)
    theory = 0.9399998675  # Sultan Spins 94.00 (the default market's variant)
    half = 2.576 * 12.0306265142 / math.sqrt(12)
    assert sultan["variant"] == "94.00"
    assert sultan["rtp_theoretical"] == round(theory, 6)
    assert sultan["rtp_band_low"] == pytest.approx(max(0.0, theory - half), abs=1e-6)
    assert sultan["rtp_band_high"] == pytest.approx(theory + half, abs=1e-6)
    # every minor unit the report counts is one the ledger moved on the titles' accounts
    assert sum(row["ggr"]["minor"] for row in data["days"]) == game_accounts_total(api)
    assert data["totals"][0]["day"] is None
    assert sum(t["ggr"]["minor"] for t in data["totals"]) == game_accounts_total(api)
    # another day holds nothing
    assert report(api, **{"from": "2026-01-02"}).json()["days"] == []

    as_csv = report(api, format="csv")
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(as_csv.text)))
    assert tuple(lines[0]) == COLUMNS and len(lines) == 3
    by_game = {line[1]: dict(zip(COLUMNS, line, strict=True)) for line in lines[1:]}
    assert by_game["days-of-the-tsar"]["ggr"] == tsar["ggr"]["amount"]
    assert (
        by_game["sultan-spins"]["jackpot_contributions"]
        == (sultan["jackpot_contributions"]["amount"])
    )
    assert by_game["days-of-the-tsar"]["in_band"] == ""


def test_bad_periods_are_refused_naming_the_fault(api):
    cases = [
        ({"from": "2026-13-01"}, "from '2026-13-01' is not a date"),
        ({"from": "yesterday"}, "from 'yesterday' is not a date"),
        ({"from": DAY, "to": "2026-1-5"}, "to '2026-1-5' is not a date"),
        ({"from": "2026-01-05", "to": DAY}, "comes before"),
        ({"from": "2025-01-01", "to": "2026-12-31"}, "at most 366 days"),
    ]
    for params, message in cases:
        for path in ("/operator/reports/daily", "/operator/reports/rtp-monitor"):
            answer = op_get(api, path, **params)
            assert answer.status_code == 400, (params, answer.text)
            assert answer.json()["code"] == "invalid_date"
            assert message in answer.json()["message"], answer.text
    missing = op_get(api, "/operator/reports/daily")
    assert missing.status_code == 400 and "from" in missing.text, missing.text
    xml = op_get(api, "/operator/reports/daily", format="xml", **{"from": DAY})
    assert xml.status_code == 400 and "format" in xml.text, xml.text
    assert api.client.get("/operator/reports/daily", params={"from": DAY}).status_code == 401


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_monitor_flags_a_title_outside_its_band(kind, tmp_path):
    """Every round of Aurora Fox loses (a source that always draws the same losing screen):
    after a few rounds that is still within the band, after 110 it is not."""
    for api in build(kind, tmp_path, rng=Constant(3), rate_limit_burst=1000):
        player = api.player(deposit="30.00")
        api.login(player)
        for _ in range(5):
            assert api.spin(FOX, FOX_BET).json()["win"]["minor"] == 0
        early = op_get(api, "/operator/reports/rtp-monitor", **{"from": DAY}).json()
        assert early == {"ok": True, "from": DAY, "to": DAY, "checked": 1, "flagged": []}
        for _ in range(105):
            answer = api.spin(FOX, FOX_BET).json()
            assert answer.get("status") == "complete", answer
        late = op_get(api, "/operator/reports/rtp-monitor", **{"from": DAY}).json()
        assert late["ok"] is False and late["checked"] == 1
        (flagged,) = late["flagged"]
        assert flagged["game"] == FOX and flagged["rtp"] == 0 and flagged["rtp_rounds"] == 110
        assert flagged["rtp_band_low"] == pytest.approx(
            0.9600117672 - 2.576 * 3.5874992311 / math.sqrt(110), abs=1e-6
        )
        row = report(api).json()["days"][0]
        assert row["in_band"] is False and row["bets"]["minor"] == 110 * 20
        if kind == "sqlite":
            from typer.testing import CliRunner

            from reelsmith.cli import app

            url = f"sqlite:///{tmp_path}/server.db"
            runner = CliRunner()
            flagged_run = runner.invoke(
                app, ["report", "monitor", "--from", DAY, "--database-url", url]
            )
            assert flagged_run.exit_code == 1, flagged_run.output
            assert "aurora-fox" in flagged_run.output and "outside" in flagged_run.output
            quiet = runner.invoke(
                app, ["report", "monitor", "--from", "2026-01-02", "--database-url", url]
            )
            assert quiet.exit_code == 0, quiet.output
            daily = runner.invoke(
                app, ["report", "daily", "--from", DAY, "--database-url", url, "--csv"]
            )
            assert daily.exit_code == 0, daily.output
            lines = list(csv.reader(io.StringIO(daily.output)))
            assert tuple(lines[0]) == COLUMNS and lines[1][1] == FOX
            assert lines[1][COLUMNS.index("bets")] == "22.00"
            bad = runner.invoke(
                app, ["report", "daily", "--from", "2026-02-30", "--database-url", url]
            )
            assert bad.exit_code == 2 and "from '2026-02-30' is not a date" in bad.output
