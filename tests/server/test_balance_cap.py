"""The balance cap (10^15 minor units): a deposit past it is refused by name and no round
starts above it; a win is paid in full even past it, and the ledger still balances."""

from __future__ import annotations

from reelsmith.wallet.ledger import MAX_BALANCE_MINOR
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_win

TSAR = "days-of-the-tsar"
CAP = "10000000000000.00"  # 10^15 cents


def test_a_deposit_past_the_cap_is_refused_by_name(api):
    player = api.player(deposit="1.00")
    path = f"/operator/players/{player}/deposit"
    response = api.op("POST", path, {"amount": CAP})
    assert response.status_code == 409 and response.json()["code"] == "balance_limit"
    assert "10000000000000.00 EUR" in response.json()["message"]
    assert api.balance(player) == 100
    response = api.op("POST", path, {"amount": "99999999999999999.00"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_amount"
    assert api.op("POST", path, {"amount": "9999999999999.00"}).status_code == 200
    assert api.balance(player) == MAX_BALANCE_MINOR
    response = api.op("POST", path, {"amount": "0.01"})
    assert response.status_code == 409 and response.json()["code"] == "balance_limit"


def test_a_win_at_the_cap_is_paid_and_the_next_round_waits_for_a_withdrawal(api):
    """Regression: past 2^63 minor units SQLite stored the balance as REAL (spins and ledger
    verification then answered 500) and PostgreSQL's deposit answered 500."""
    player = api.player(deposit=None)
    api.op("POST", f"/operator/players/{player}/deposit", {"amount": CAP})
    api.login(player)
    response = api.spin(TSAR, TSAR_BET, tsar_win(), gamble=False)
    assert response.status_code == 200, response.text
    won = response.json()["win"]["minor"]
    assert won > 250 and api.balance(player) == MAX_BALANCE_MINOR - 250 + won
    refused = api.spin(TSAR, TSAR_BET, tsar_no_win())
    assert refused.status_code == 409 and refused.json()["code"] == "balance_limit"
    withdraw = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "100.00"})
    assert withdraw.status_code == 200
    assert api.spin(TSAR, TSAR_BET, tsar_no_win()).status_code == 200
    report = api.op("GET", "/operator/ledger/verify", key=None).json()
    assert report["ok"], report
