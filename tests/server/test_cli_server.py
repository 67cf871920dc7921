"""`reelsmith audit verify` and `reelsmith serve` argument checks."""

from __future__ import annotations

from sqlalchemy import text
from typer.testing import CliRunner

from reelsmith.cli import app
from tests.server.forcing import TSAR_BET, tsar_no_win

runner = CliRunner()


def test_audit_verify_ok_then_tampered(sqlite_api):
    sqlite_api.login(sqlite_api.player())
    sqlite_api.spin("days-of-the-tsar", TSAR_BET, tsar_no_win())
    url = str(sqlite_api.db.url)
    result = runner.invoke(app, ["audit", "verify", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert "intact" in result.stdout and "balanced" in result.stdout
    with sqlite_api.db.write() as connection:
        connection.execute(text("UPDATE postings SET amount = amount + 1 WHERE id = 1"))
    result = runner.invoke(app, ["audit", "verify", "--database-url", url, "--json"])
    assert result.exit_code == 1
    assert '"ok": false' in result.stdout


def test_serve_rejects_bad_arguments():
    result = runner.invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code != 0 and "--port must be 1 to 65535" in result.stderr
    result = runner.invoke(app, ["serve", "--workers", "0"])
    assert result.exit_code != 0 and "--workers must be at least 1" in result.stderr
