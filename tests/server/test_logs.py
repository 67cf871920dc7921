"""Structured logs: one JSON line per request, with its route, status and time."""

from __future__ import annotations

import json
import logging

from reelsmith.server import logs


def test_request_line_is_one_json_object():
    logger = logging.getLogger("reelsmith.server")
    record = logs.request_record(
        logger, {"method": "POST", "route": "/api/games/{game}/spin", "status": 200, "ms": 1.25}
    )
    line = logs.JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "info" and entry["logger"] == "reelsmith.server"
    assert entry["message"] == "request"
    assert entry["route"] == "/api/games/{game}/spin" and entry["status"] == 200
    assert entry["ms"] == 1.25
    assert entry["ts"].endswith("Z") and len(entry["ts"]) == len("2026-11-29T22:00:00.000Z")


def test_timestamp_follows_the_record_time():
    formatter = logs.JsonFormatter()
    logger = logging.getLogger("reelsmith.server")
    first = logger.makeRecord(logger.name, logging.INFO, "", 0, "a", (), None)
    first.created = 1_700_000_000.25
    later = logger.makeRecord(logger.name, logging.INFO, "", 0, "b", (), None)
    later.created = 1_700_000_061.5
    assert json.loads(formatter.format(first))["ts"] == "2023-11-14T22:13:20.250Z"
    assert json.loads(formatter.format(later))["ts"] == "2023-11-14T22:14:21.500Z"


def test_exceptions_and_big_integers_are_written():
    formatter = logs.JsonFormatter()
    logger = logging.getLogger("reelsmith.server")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logger.makeRecord(
            logger.name,
            logging.ERROR,
            "",
            0,
            "failed",
            (),
            sys.exc_info(),
            extra={"fields": {"value": 10**30}},
        )
    entry = json.loads(formatter.format(record))
    assert entry["level"] == "error" and "ValueError: boom" in entry["exception"]
    assert entry["value"] == 10**30


def test_each_request_logs_one_line(api, caplog):
    with caplog.at_level(logging.INFO, logger="reelsmith.server"):
        api.client.get("/healthz")
    lines = [r for r in caplog.records if r.getMessage() == "request"]
    assert len(lines) == 1
    assert lines[0].fields == {  # type: ignore[attr-defined]
        "method": "GET",
        "route": "/healthz",
        "status": 200,
        "ms": lines[0].fields["ms"],  # type: ignore[attr-defined]
    }
