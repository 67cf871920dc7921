"""The wallet setting and the operator's session token: refused by name where wrong, and the
transfer wallet's sessions as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reelsmith.server.settings import Settings, SettingsError
from reelsmith.wallet.signing import ensure_keys
from tests.server.conftest import build


def test_the_wallet_setting_is_checked_by_name(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="setting wallet: 'casino' is neither"):
        Settings.load(wallet="casino")
    with pytest.raises(SettingsError, match="needs seamless_url"):
        Settings.load(wallet="seamless")
    with pytest.raises(SettingsError, match="seamless_timeout_seconds"):
        Settings.load(
            wallet="seamless",
            seamless_url="http://x",
            seamless_keys_dir=str(tmp_path),
            seamless_timeout_seconds=0.0,
        )
    assert Settings.load().wallet == "transfer"


def test_a_transfer_session_takes_no_operator_token(tmp_path: Path) -> None:
    for api in build("sqlite", tmp_path):
        player = api.player()
        refused = api.op(
            "POST", f"/operator/players/{player}/sessions", {"operator_token": "t"}, key=None
        )
        assert refused.status_code == 400
        assert refused.json()["code"] == "operator_token_not_used"
        assert api.op("POST", f"/operator/players/{player}/sessions", key=None).status_code == 201


def seamless(tmp_path: Path) -> Any:
    ensure_keys(tmp_path / "keys")
    return build(
        "sqlite",
        tmp_path,
        wallet="seamless",
        seamless_url="http://127.0.0.1:9",  # nothing listens: no call is made in these tests
        seamless_keys_dir=str(tmp_path / "keys"),
    )


def test_a_seamless_session_needs_the_operator_token_and_no_deposit_is_taken(
    tmp_path: Path,
) -> None:
    for api in seamless(tmp_path):
        player = api.player(deposit=None)
        path = f"/operator/players/{player}/sessions"
        missing = api.op("POST", path, key=None)
        assert missing.status_code == 400
        assert missing.json()["code"] == "operator_token_required"
        for body in ({"operator_token": 5}, {"operator_token": "t", "extra": 1}):
            assert api.op("POST", path, body, key=None).status_code == 400
        assert api.op("POST", path, {"operator_token": "t"}, key=None).status_code == 201
        deposit = api.op("POST", f"/operator/players/{player}/deposit", {"amount": "5.00"})
        assert deposit.status_code == 403
        assert deposit.json()["code"] == "seamless_wallet"
