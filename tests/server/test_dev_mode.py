"""Dev mode (players choose their rounds' outcomes) cannot be turned on by accident: only
``reelsmith serve --dev`` turns it on (REELSMITH_DEV_MODE alone is refused at start), it says
so loudly, it is refused on a bind other than loopback or a database other than SQLite unless
a second setting says so too, and every forced round is marked forced in history, the
operator's view of the round, the audit log and the payout report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from reelsmith.cli import app
from reelsmith.server.settings import DEV_MODE_GRANT, Settings, SettingsError
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_win

runner = CliRunner()
GAME = "days-of-the-tsar"


def test_the_environment_variable_alone_is_refused(monkeypatch):
    monkeypatch.setenv("REELSMITH_DEV_MODE", "true")
    monkeypatch.delenv(DEV_MODE_GRANT, raising=False)
    with pytest.raises(SettingsError, match="reelsmith serve --dev"):
        Settings.load()
    monkeypatch.setenv(DEV_MODE_GRANT, "1")  # a grant of another process counts for nothing
    with pytest.raises(SettingsError):
        Settings.load()
    monkeypatch.setenv(DEV_MODE_GRANT, str(os.getpid()))  # serve --dev started this process
    assert Settings.load().dev_mode is True
    monkeypatch.setenv("REELSMITH_DEV_MODE", "false")
    monkeypatch.delenv(DEV_MODE_GRANT)
    assert Settings.load().dev_mode is False


def test_serve_refuses_the_environment_variable_alone(monkeypatch, tmp_path):
    monkeypatch.setenv("REELSMITH_DEV_MODE", "true")
    monkeypatch.delenv(DEV_MODE_GRANT, raising=False)
    result = runner.invoke(app, ["serve", "--database-url", f"sqlite:///{tmp_path}/x.db"])
    assert result.exit_code != 0
    assert "'reelsmith serve --dev' alone" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--host", "0.0.0.0"], "--host 0.0.0.0"),
        (["--host", "192.0.2.7"], "--host 192.0.2.7"),
        (["--database-url", "postgresql+psycopg://reelsmith@db.example/reelsmith"], "SQLite"),
    ],
)
def test_serve_dev_is_refused_beyond_loopback_and_sqlite(monkeypatch, arguments, named):
    monkeypatch.delenv("REELSMITH_DEV_MODE_ANYWHERE", raising=False)
    result = runner.invoke(app, ["serve", "--dev", *arguments])
    assert result.exit_code != 0
    assert named in result.stderr and "REELSMITH_DEV_MODE_ANYWHERE=true" in result.stderr


def test_the_second_setting_allows_it():
    settings = Settings.load(dev_mode=True, dev_mode_anywhere=True, database_url="postgresql://x/y")
    settings.check_dev_mode("0.0.0.0")
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.2"):
        Settings.load(dev_mode=True).check_dev_mode(host)


def test_serve_dev_starts_loudly_and_its_processes_take_forced_draws(tmp_path):
    """The real command, in a process of its own: the start line, then a forced spin."""
    port = 20000 + os.getpid() % 20000
    env = {
        **os.environ,
        "REELSMITH_OPERATOR_API_KEY": "dev-operator-key",
        "REELSMITH_SECRET_KEY": "dev-secret",
        "REELSMITH_LOG_JSON": "false",
    }
    env.pop("REELSMITH_DEV_MODE", None)
    command = [sys.executable, "-c", "from reelsmith.cli import app; app()", "serve", "--dev"]
    command += ["--port", str(port), "--database-url", f"sqlite:///{tmp_path}/dev.db"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        op = {"X-API-Key": "dev-operator-key"}
        player = httpx.post(
            f"{url}/operator/players",
            json={"external_ref": "qa", "currency": "EUR", "market": "default"},
            headers={**op, "Idempotency-Key": "p"},
        ).json()["id"]
        httpx.post(
            f"{url}/operator/players/{player}/deposit",
            json={"amount": "10.00"},
            headers={**op, "Idempotency-Key": "d"},
        )
        token = httpx.post(f"{url}/operator/players/{player}/sessions", headers=op).json()["token"]
        spin = httpx.post(
            f"{url}/api/games/{GAME}/spin",
            json={"bet": TSAR_BET, "forced_draws": tsar_no_win()},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "s"},
        )
        assert spin.status_code == 200, spin.text
        shown = httpx.get(f"{url}/operator/rounds/{spin.json()['round_id']}", headers=op).json()
        assert shown["forced"] is True
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=30)
    assert "WARNING: DEV MODE: players choose the outcomes of their rounds" in err.decode()


def test_forced_rounds_are_marked_everywhere(api):
    player = api.player()
    api.login(player)
    answer = api.spin(GAME, TSAR_BET)
    assert answer.status_code == 200, answer.text  # the reason, should a loaded machine refuse
    chance = answer.json()
    while chance["status"] == "open":  # a win waiting for its collect: collect it
        chance = api.act(GAME, chance["round_id"], "collect").json()
    forced = api.spin(GAME, TSAR_BET, tsar_no_win()).json()
    # a round begun by chance and gambled with a forced card is forced too
    begun = api.spin(GAME, TSAR_BET, tsar_win(), gamble=True).json()
    assert begun["status"] == "open"
    api.act(GAME, begun["round_id"], "gamble", {"choice": "red", "forced_draws": [0]})
    history = api.as_player("GET", "/api/history/rounds", params={"limit": 10}).json()["rounds"]
    marks = {entry["round_id"]: entry["forced"] for entry in history}
    assert marks == {chance["round_id"]: False, forced["round_id"]: True, begun["round_id"]: True}
    for round_id, mark in marks.items():
        assert api.op("GET", f"/operator/rounds/{round_id}", key=None).json()["forced"] is mark
    with api.db.read() as connection:
        steps = connection.execute(
            text("SELECT round_id, payload FROM audit_log WHERE kind = 'round_step'")
        ).all()
    marked = {row.round_id for row in steps if json.loads(row.payload).get("forced")}
    assert marked == {forced["round_id"], begun["round_id"]}
    report = api.op("GET", "/operator/audit/payouts", key=None).json()
    assert report["ok"] and report["forced_rounds"] == 2
    assert api.op("GET", "/operator/audit/verify", key=None).json()["ok"]
