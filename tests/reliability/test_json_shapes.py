"""Hostile JSON shapes on every endpoint of the OpenAPI document: nesting 900 deep, lone
surrogates in values and keys, duplicate keys, integers beyond 64 bits, JSON numbers where
decimal strings are documented, NaN, NUL. Every endpoint that reads a body refuses each with
a 4xx; none answers 5xx, and the log gets one short line per request, never a traceback.

The routes come from the app's own OpenAPI document, so a new endpoint is covered the day it
is added (a path parameter this file has no value for fails the test, naming it). Both
databases.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote

from tests.reliability import figures
from tests.server.conftest import OPERATOR_KEY
from tests.server.forcing import TSAR_BET, tsar_win

TSAR = "days-of-the-tsar"
DEEP = b'{"bet":' + b'{"a":' * 900 + b"1" + b"}" * 900 + b',"rounds":1}'
SHAPES: dict[str, bytes] = {
    "nested 900 deep": DEEP,
    "array nested 5000 deep": b"[" * 5000 + b"]" * 5000,
    "lone surrogate in values": (
        b'{"bet":{"bet":"0.20","x":"\\ud800"},"rounds":1,"amount":"\\udfff",'
        b'"external_ref":"\\ud800","currency":"EUR","choice":"\\ud800"}'
    ),
    "lone surrogate in a key": b'{"\\ud800": 1, "bet": {"\\udc00": "1.00"}}',
    "duplicate keys": (
        b'{"amount":"1.00","amount":"1000.00","external_ref":"a","external_ref":"b",'
        b'"currency":"EUR","bet":{"bet":"1.00","bet":"100.00"},"rounds":1,"choice":"red"}'
    ),
    "integers beyond 64 bits": (
        b'{"bet":{"lines":' + b"9" * 400 + b',"coins_per_line":1,"coin_size":"0.01"},'
        b'"rounds":' + b"9" * 30 + b',"amount":' + b"9" * 30 + b"}"
    ),
    "numbers for decimal strings": (
        b'{"amount":1.0,"bet":{"bet":1.0,"lines":25,"coins_per_line":1,"coin_size":0.01},'
        b'"rounds":1,"stop_on_win_above":1.5,"loss_limit":2,"currency":"EUR","choice":"red"}'
    ),
    "NaN and Infinity": b'{"amount":NaN,"bet":{"bet":Infinity},"rounds":-Infinity}',
    "NUL in a string": b'{"amount":"1.00\\u0000","external_ref":"a\\u0000","currency":"EUR"}',
}
# query values as sent on the wire (percent-encoded): %ED%A0%80 is a surrogate's UTF-8 form
QUERY_SHAPES = {
    "bet": [
        quote('{"bet":"1.00","bet":"2.00"}'),
        quote('{"a":' * 200 + "1" + "}" * 200),
        quote('{"bet":1.0}'),
        quote('{"bet":"1.00","x":"\\ud800"}'),
        "%ED%A0%80",
    ],
    "limit": ["9" * 40, "1e3", "-1", "%FF"],
    "game": ["%ED%A0%80", "%FF", "a" * 500],
}
OTHER_QUERY = ["%ED%A0%80", "%FF", "9" * 40]


def parameters(api: Any) -> dict[str, str]:
    """A real value for every path parameter: the player's open round, autoplay, session and
    free-round campaign."""
    player = api.player()
    api.login(player)
    round_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]  # open: gamble offered
    autoplay = api.as_player("POST", f"/api/games/{TSAR}/autoplay", {"bet": TSAR_BET, "rounds": 3})
    session = api.op("POST", f"/operator/players/{player}/sessions", key=None).json()
    campaign = api.op(
        "POST",
        f"/operator/players/{player}/free-rounds",
        {"game": TSAR, "bet": TSAR_BET, "rounds": 3, "expires_at": "2026-01-08T00:00:00Z"},
    )
    return {
        "game": TSAR,
        "player_id": player,
        "round_id": round_id,
        "autoplay_id": autoplay.json()["id"],
        "session_id": session["session_id"],
        "campaign_id": campaign.json()["campaign_id"],
    }


def headers_for(api: Any, path: str) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Idempotency-Key": api.key()}
    if path.startswith("/operator") or path == "/metrics":
        headers["X-API-Key"] = OPERATOR_KEY
    elif path.startswith("/api"):
        headers["Authorization"] = f"Bearer {api.token}"
    return headers


def test_hostile_json_shapes_on_every_endpoint(api, caplog):
    values = parameters(api)
    spec = api.client.get("/openapi.json").json()
    sent = refusals = answered = errors = with_body = 0
    caplog.set_level(logging.INFO)
    for template, operations in spec["paths"].items():
        for method, operation in operations.items():
            names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
            missing = [n for n in names if n not in values]
            assert not missing, f"{method.upper()} {template}: give the test a value for {missing}"
            path = template.format(**{n: values[n] for n in names})
            reads_body = "requestBody" in operation
            with_body += reads_body
            for shape, content in SHAPES.items():
                response = api.client.request(
                    method.upper(), path, content=content, headers=headers_for(api, path)
                )
                sent += 1
                errors += response.status_code >= 500
                assert response.status_code < 500, (method, template, shape, response.text)
                if reads_body:
                    assert 400 <= response.status_code < 500, (method, template, shape)
                    assert response.json()["message"], (method, template, shape)
                    refusals += 1
                else:
                    answered += 1
            queries = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            for name in queries:
                for value in QUERY_SHAPES.get(name, OTHER_QUERY):
                    response = api.client.request(
                        method.upper(), f"{path}?{name}={value}", headers=headers_for(api, path)
                    )
                    sent += 1
                    errors += response.status_code >= 500
                    assert 400 <= response.status_code < 500, (method, template, name, value)
                    refusals += 1
    server_records = [r for r in caplog.records if r.name.startswith(("reelsmith", "uvicorn"))]
    assert server_records  # the request lines: the log was captured
    for record in server_records:
        assert record.exc_info is None, record.getMessage()[:300]
        assert len(record.getMessage()) < 400, record.getMessage()[:300]
    assert with_body >= 8 and sent > 200
    figures.add("requests", sent)
    figures.add("inputs", sent)
    figures.add("server_errors", errors)
    figures.add("refusals", refusals)
    figures.note(
        "hostile JSON shapes (every OpenAPI route)",
        f"{api.db.url.get_backend_name()}: {sent:,} requests over {len(spec['paths'])} paths "
        f"({with_body} operations read a body) x {len(SHAPES)} body shapes and the query "
        f"shapes: {refusals:,} refused 4xx, {answered:,} answered by endpoints that read no "
        f"body, {errors} 5xx",
    )
