"""Audit entries of an operator's actions name the credential that acted, by its key id
(never the key): creating a player, deposits and withdrawals, sessions issued and revoked, a
player disabled and enabled. A player's own actions name none."""

from __future__ import annotations

import json

from sqlalchemy import text

from reelsmith.server.auth import key_id
from tests.server.conftest import OPERATOR_KEY


def entries(api, player):
    with api.db.read() as connection:
        rows = connection.execute(
            text("SELECT kind, payload FROM audit_log WHERE player_id = :p ORDER BY seq"),
            {"p": player},
        ).all()
    return [(row.kind, row.payload) for row in rows]


def test_operator_actions_name_the_key_id_never_the_key(api):
    player = api.player(deposit="10.00")
    api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "1.00"})
    api.login(player)
    api.op("POST", f"/operator/players/{player}/disable", key=None)
    api.op("POST", f"/operator/players/{player}/enable", key=None)
    api.login(player)
    api.op("POST", f"/operator/players/{player}/sessions/revoke", key=None)
    api.login(player)
    assert api.as_player("POST", "/api/session/logout", key=None).status_code in (200, 204)
    found = entries(api, player)
    acting = key_id(OPERATOR_KEY)
    assert acting.startswith("sha256:") and len(acting) == len("sha256:") + 16
    by_operator = [kind for kind, payload in found if json.loads(payload).get("operator_key_id")]
    assert by_operator == [
        "player_created",
        "deposit",
        "withdrawal",
        "session_issued",
        "player_disabled",
        "player_enabled",
        "session_issued",
        "sessions_revoked",
        "session_issued",
    ]
    for _kind, payload in found:
        assert OPERATOR_KEY not in payload
        assert json.loads(payload).get("operator_key_id", acting) == acting
    # the player's own logout names no operator
    assert [k for k, p in found if "operator_key_id" not in json.loads(p)] == ["sessions_revoked"]
    assert api.op("GET", "/operator/audit/verify", key=None).json()["ok"]
