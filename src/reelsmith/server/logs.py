"""Structured logs: one JSON object per line (time, level, logger, message, fields).

The server writes one line per request, so a line costs little: orjson writes it, the
time's seconds are formatted once per second, and the request line is made without
logging's search for the calling source line (:func:`request_record`)."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import orjson


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._second = -1
        self._prefix = ""

    def _timestamp(self, created: float) -> str:
        second = int(created)
        if second != self._second:
            self._second = second
            self._prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._prefix}.{int((created - second) * 1000):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": self._timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,  # which worker, where several serve one port
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(entry, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # a value orjson cannot write (an integer beyond 64 bits)
            return json.dumps(entry, ensure_ascii=False, default=str)


def request_record(logger: logging.Logger, fields: dict[str, Any]) -> logging.LogRecord:
    """An INFO record ``request`` with ``fields``, made directly: ``Logger.info`` would
    first walk the stack for the caller's file and line, which a request line never shows."""
    return logger.makeRecord(
        logger.name, logging.INFO, "", 0, "request", (), None, extra={"fields": fields}
    )


def configure(level: int = logging.INFO) -> None:
    """Send the server's logs to stderr as JSON lines (once per process)."""
    logger = logging.getLogger("reelsmith")
    if any(isinstance(h.formatter, JsonFormatter) for h in logger.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
