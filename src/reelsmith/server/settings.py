"""Server settings: from ``REELSMITH_*`` environment variables, optionally a TOML file.

Secrets (the token-signing key, the operator API key) come from configuration, never from the
repository. When none is configured, a random key is generated for the life of the process
and the server says so in its log (fine for a single demo process; set them in production).
"""

from __future__ import annotations

import os
import secrets
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_URL = "sqlite:///var/reelsmith.db"


class SettingsError(ValueError):
    pass


@dataclass
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    secret_key: str = ""
    operator_api_key: str = ""
    dev_mode: bool = False  # forced draws for QA
    demo: bool = False  # a demo player and POST /demo/session
    demo_balance: str = "1000.00"
    demo_market: str = "default"
    token_ttl_seconds: int = 3600
    rate_limit_per_second: float = 50.0
    rate_limit_burst: int = 100
    resolve_after_seconds: int = 2 * 86_400
    resolver_interval_seconds: float = 60.0
    max_body_bytes: int = 65_536
    history_limit: int = 100
    log_json: bool = False  # structured JSON log lines on stderr (reelsmith serve turns it on)
    generated: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None = None, **overrides: Any) -> Settings:
        values: dict[str, Any] = {}
        config = path or (
            Path(os.environ["REELSMITH_CONFIG"]) if "REELSMITH_CONFIG" in os.environ else None
        )
        if config is not None:
            try:
                raw = tomllib.loads(config.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise SettingsError(f"{config}: {exc}") from None
            values.update(raw.get("server", raw))
        names = [f.name for f in fields(cls) if f.name != "generated"]
        for name in names:
            env = os.environ.get(f"REELSMITH_{name.upper()}")
            if env is not None:
                values[name] = env
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "database_threads" in values:
            raise SettingsError(
                "setting database_threads is no longer used: players' requests run in commit"
                " groups on each process's event loop, on PostgreSQL as on SQLite; remove it"
            )
        unknown = set(values) - set(names)
        if unknown:
            raise SettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
        converted: dict[str, Any] = {}
        for name, value in values.items():
            kind = type(getattr(cls(), name))
            try:
                if kind is bool and isinstance(value, str):
                    if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
                        raise ValueError(value)
                    converted[name] = value.lower() in ("1", "true", "yes")
                else:
                    converted[name] = kind(value)
            except ValueError:
                raise SettingsError(f"setting {name}: {value!r} is not a {kind.__name__}") from None
        settings = cls(**converted)
        if not settings.secret_key:
            settings.secret_key = secrets.token_urlsafe(32)
            settings.generated.append("secret_key")
        if not settings.operator_api_key:
            settings.operator_api_key = secrets.token_urlsafe(24)
            settings.generated.append("operator_api_key")
        return settings
