"""Strict input: JSON bodies read by one strict reader, amounts and bet sizes in one decimal
syntax, JSON numbers refused where strings are documented, strict booleans and integers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reelsmith.server import inputs
from reelsmith.server.errors import InvalidInputError
from reelsmith.server.http_errors import status_of
from tests.server.forcing import TSAR_BET

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        (b'{"a": 1, "a": 2}', "appears twice"),
        (b'{"bet": {"lines": 25, "lines": 1}}', "appears twice"),
        (b"[" * 17 + b"]" * 17, "deeper than 16"),
        (b'{"a":' * 900 + b"1" + b"}" * 900, "deeper than 16"),
        (b"[" * 50_000 + b"]" * 50_000, "deeper than 16"),
        (b'{"x": "\\ud800"}', "lone UTF-16 surrogate"),
        (b'{"\\udfff": 1}', "lone UTF-16 surrogate"),
        (b'{"x": "a\\u0000b"}', "NUL"),
        (b'{"n": 9223372036854775808}', "beyond 64 bits"),
        (b'{"n": -9223372036854775809}', "beyond 64 bits"),
        (b'{"n": ' + b"9" * 5000 + b"}", "beyond 64 bits"),
        (b'{"n": 1e999}', "out of range"),
        (b'{"n": NaN}', "not a JSON value"),
        (b'{"n": Infinity}', "not a JSON value"),
        (b"\xff\xfe", "not UTF-8"),
        (b"{", "not valid JSON"),
    ],
)
def test_the_reader_refuses_what_the_standard_parser_takes(raw, named):
    with pytest.raises(InvalidInputError) as caught:
        inputs.read_json(raw)
    assert status_of(caught.value) == 400 and caught.value.code == "invalid_request"
    assert named in caught.value.message


def test_the_reader_takes_ordinary_json():
    value = {"bet": {"lines": 25, "coin_size": "0.01"}, "n": [9223372036854775807, -1, 0.5]}
    assert inputs.read_json(json.dumps(value).encode()) == value
    assert inputs.read_json('{"name": "Zoë ✓"}') == {"name": "Zoë ✓"}
    nested = {"a": {"b": {"c": {"d": 1}}}}
    assert inputs.read_json(json.dumps(nested)) == nested


@pytest.mark.parametrize(
    "text",
    ["1_000", "１０.００", "١٠", "1e2", "-1.00", "+1.00", " 1.00", "1.00 ", "1.", ".5", "1,00", ""],
)
def test_decimal_syntax_is_ascii_digits_and_a_point(text):
    with pytest.raises(inputs.DecimalSyntaxError):
        inputs.decimal_text(text, "the amount")


@pytest.mark.parametrize("value", [10, 10.5, True, None, ["1.00"]])
def test_decimals_must_be_strings(value):
    with pytest.raises(inputs.DecimalSyntaxError) as caught:
        inputs.decimal_text(value, "the amount")
    assert "the amount must be a decimal string" in str(caught.value)


def raw_post(api: Any, path: str, content: bytes, operator: bool = False) -> Any:
    headers = {"Content-Type": "application/json", "Idempotency-Key": api.key()}
    if operator:
        headers["X-API-Key"] = "test-operator-key"
    else:
        headers["Authorization"] = f"Bearer {api.token}"
    return api.client.post(path, content=content, headers=headers)


def test_hostile_bodies_on_autoplay_are_refused_not_500(api):
    """Regression: a bet nested 400-900 levels deep (RecursionError in the NUL check) or a
    lone surrogate in any string (UnicodeEncodeError in the request hash) was a 500 with a
    196 KB traceback in the log."""
    api.login(api.player())
    path = f"/api/games/{TSAR}/autoplay"
    for content in (
        b'{"bet":' + b'{"a":' * 900 + b"1" + b"}" * 900 + b',"rounds":1}',
        b'{"bet":{"bet":"0.20","x":"\\ud800"},"rounds":1}',
        b'{"bet":{"lines":25,"coins_per_line":1,"coin_size":"0.01"},"rounds":1,"rounds":2}',
    ):
        response = raw_post(api, path, content)
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "invalid_request"


@pytest.mark.parametrize("amount", ["1_000", "１０.００", "١٠", "1e1", "10.0_0"])
def test_amounts_outside_the_syntax_are_not_credited(api, amount):
    """Regression: "1_000", full-width and Arabic-Indic digits were credited."""
    player = api.player()
    before = api.balance(player)
    response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": amount})
    assert response.status_code == 400 and response.json()["code"] == "invalid_amount"
    assert api.balance(player) == before


def test_amounts_as_json_numbers_are_refused_by_name(api):
    player = api.player()
    for amount in (10, 10.0):
        response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": amount})
        assert response.status_code == 400 and "amount" in response.json()["message"]
    assert api.balance(player) == 10000


@pytest.mark.parametrize(
    ("game", "bet"),
    [
        (TSAR, {**TSAR_BET, "coin_size": "0.0_5"}),
        (TSAR, {**TSAR_BET, "coin_size": "5e-2"}),
        (TSAR, {**TSAR_BET, "coin_size": 0.05}),
        (TSAR, {**TSAR_BET, "coin_size": 1}),
        (SULTAN, {"bet": "1_0.00"}),
        (SULTAN, {"bet": "1e0"}),
        (SULTAN, {"bet": 1.0}),
        (SULTAN, {"bet": 1}),
    ],
)
def test_bet_sizes_take_one_syntax_in_both_titles(api, game, bet):
    """Regression: "0.0_1" and "1e-2" were charged, and Days of the Tsar took a JSON float
    coin_size where Sultan Spins refused one."""
    player = api.player()
    api.login(player)
    response = api.spin(game, bet)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "invalid_bet"
    what = "coin_size" if game == TSAR else "bet"
    assert body["message"].startswith(what), body
    if not isinstance(next(iter(v for k, v in bet.items() if k in ("coin_size", "bet"))), str):
        assert "not a JSON number" in body["message"]
    assert api.balance(player) == 10000


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rounds", True),
        ("rounds", "5"),
        ("rounds", 5.0),
        ("stop_on_feature", 1),
        ("stop_on_feature", "yes"),
    ],
)
def test_autoplay_fields_are_strict(api, field, value):
    """Regression: ``rounds: true`` was taken as 1."""
    api.login(api.player())
    body = {"bet": TSAR_BET, "rounds": 5, field: value}
    response = api.as_player("POST", f"/api/games/{TSAR}/autoplay", body)
    assert response.status_code == 400, response.text
    assert field in response.json()["message"]


def test_forced_draws_are_strict_integers(api):
    api.login(api.player())
    for draws in ([True], ["1"], [1.0]):
        response = api.spin(TSAR, TSAR_BET, draws)
        assert response.status_code == 400 and "forced_draws" in response.json()["message"]
