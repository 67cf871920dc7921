"""Server settings: from ``REELSMITH_*`` environment variables, optionally a TOML file.

Secrets (the token-signing key, the operator API key) come from configuration, never from the
repository. When none is configured, a random key is generated for the life of the process
and the server says so in its log (fine for a single demo process; set them in production).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_URL = "sqlite:///var/reelsmith.db"
# `reelsmith serve --dev` puts its process id here for the server processes it starts (itself,
# or its workers): dev mode read from the environment or a settings file counts only in those
# processes, so a REELSMITH_DEV_MODE left in an environment turns nothing on.
DEV_MODE_GRANT = "REELSMITH_DEV_MODE_GRANTED_BY"
DEV_MODE_BANNER = (
    "DEV MODE: players choose the outcomes of their rounds (forced draws); every forced round"
    " is marked forced in history, audit and reports. Never serve real money in dev mode."
)


def dev_mode_granted() -> bool:
    """Whether this process was started by ``reelsmith serve --dev`` (see `DEV_MODE_GRANT`)."""
    return os.environ.get(DEV_MODE_GRANT) in (str(os.getpid()), str(os.getppid()))


def loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) is this machine's loopback interface alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class SettingsError(ValueError):
    pass


@dataclass
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    secret_key: str = ""
    operator_api_key: str = ""
    # forced draws for QA: turned on by `reelsmith serve --dev` alone (see `DEV_MODE_GRANT`)
    dev_mode: bool = False
    # dev mode on a bind other than loopback or on a database other than SQLite: a second,
    # deliberate setting (`check_dev_mode`)
    dev_mode_anywhere: bool = False
    demo: bool = False  # a demo player and POST /demo/session
    demo_balance: str = "1000.00"
    demo_market: str = "default"
    token_ttl_seconds: int = 3600
    rate_limit_per_second: float = 50.0
    rate_limit_burst: int = 100
    resolve_after_seconds: int = 2 * 86_400
    resolver_interval_seconds: float = 60.0
    max_body_bytes: int = 65_536
    # the transport's limits (see server.transport and docs/deployment.md)
    max_header_bytes: int = 32_768
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 10.0
    keep_alive_timeout_seconds: float = 5.0
    max_connections: int = 1000
    # who may show the pages in a frame: CSP frame-ancestors sources ('none': nobody)
    frame_ancestors: str = "'none'"
    # a file holding the database password (the URL then carries none)
    database_password_file: str = ""
    # PostgreSQL: a statement waiting for a lock, or running, longer fails and its request is
    # answered 503 with Retry-After (docs/deployment.md)
    database_lock_timeout_ms: int = 250
    database_statement_timeout_ms: int = 30_000
    # a refused request's answer is kept under its idempotency key this long, then purged (a
    # success is kept for good): see docs/operator-guide.md, Idempotency
    refusals_kept_seconds: int = 3600
    history_limit: int = 100
    # a session's row is read again once this process last read it this long ago (reads; a
    # state-changing request reads it in its own transaction every time)
    session_recheck_ms: int = 1000
    # wrong operator keys (and metrics tokens) per client address: this many, then one per
    # 1/rate seconds; meanwhile every operator request from the address gets 429
    operator_failures_burst: int = 20
    operator_failures_per_second: float = 1.0
    metrics_token: str = ""  # if set, /metrics also takes 'Authorization: Bearer <token>'
    demo_sessions_burst: int = 10  # POST /demo/session per client address
    demo_sessions_per_second: float = 0.2
    # the web client's files: "optimised" (fingerprinted, bundled, gzip, cached for good) or
    # "plain" (as they are in the folder, revalidated on every load: for working on the client)
    web_delivery: str = "optimised"
    log_json: bool = False  # structured JSON log lines on stderr (reelsmith serve turns it on)
    # titles served beside the shipped ones: folders of model files (catalogue titles), each
    # a title folder or a folder of them, separated by the OS path separator (":")
    titles_dirs: str = ""
    # the market files, if not the shipped ones (a market may list the titles added above)
    markets_dir: str = ""
    # who holds the players' money: "transfer" (this server's ledger; the operator deposits
    # and withdraws) or "seamless" (the operator's wallet, called for every bet, win and
    # rollback: docs/operator-integration.md)
    wallet: str = "transfer"
    seamless_url: str = ""  # the operator's wallet API, e.g. https://casino.example/wallet
    # the folder of game_private.pem (signs requests) and operator_public.pem (checks answers)
    seamless_keys_dir: str = ""
    seamless_timeout_seconds: float = 2.0  # a call unanswered this long is unanswered
    seamless_retry_seconds: float = 0.5  # the outbox worker's pass interval
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
        dev = values.get("dev_mode")
        if (
            dev is not None
            and str(dev).lower() in ("1", "true", "yes")
            and not overrides.get("dev_mode")  # reelsmith serve --dev, or a program's choice
            and not dev_mode_granted()
        ):
            raise SettingsError(
                "dev mode (players choose the outcomes of their rounds) is turned on by"
                " 'reelsmith serve --dev' alone, never by REELSMITH_DEV_MODE or dev_mode in a"
                " settings file: remove it, or start the server with --dev"
            )
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
        settings.check()
        if not settings.secret_key:
            settings.secret_key = secrets.token_urlsafe(32)
            settings.generated.append("secret_key")
        if not settings.operator_api_key:
            settings.operator_api_key = secrets.token_urlsafe(24)
            settings.generated.append("operator_api_key")
        return settings

    def check(self) -> None:
        """Refuse values no server can run with, naming the setting."""
        minimum = {
            "max_body_bytes": 1,
            "max_header_bytes": 1024,
            "max_connections": 1,
            "history_limit": 1,
            "database_lock_timeout_ms": 1,
            "database_statement_timeout_ms": 1,
            "refusals_kept_seconds": 60,
        }
        for name, low in minimum.items():
            if getattr(self, name) < low:
                raise SettingsError(f"setting {name}: must be at least {low}")
        for name in (
            "header_timeout_seconds",
            "body_timeout_seconds",
            "keep_alive_timeout_seconds",
        ):
            if not 0 < getattr(self, name) < 86_400:
                raise SettingsError(f"setting {name}: must be above 0 and below a day")
        if self.web_delivery not in ("optimised", "plain"):
            raise SettingsError(
                f"setting web_delivery: {self.web_delivery!r} is neither 'optimised' nor 'plain'"
            )
        if self.wallet not in ("transfer", "seamless"):
            raise SettingsError(
                f"setting wallet: {self.wallet!r} is neither 'transfer' nor 'seamless'"
            )
        if self.wallet == "seamless" and not (self.seamless_url and self.seamless_keys_dir):
            raise SettingsError(
                "setting wallet = 'seamless' needs seamless_url (the operator's wallet API) and"
                " seamless_keys_dir (game_private.pem and operator_public.pem)"
            )
        if not 0 < self.seamless_timeout_seconds <= 60 or not self.seamless_retry_seconds > 0:
            raise SettingsError(
                "settings seamless_timeout_seconds (above 0, at most 60) and"
                " seamless_retry_seconds (above 0) are out of range"
            )
        sources = self.frame_ancestors.split()
        if not sources or any(ch in self.frame_ancestors for ch in ';,\r\n"<>'):
            raise SettingsError(
                "setting frame_ancestors: give CSP sources separated by spaces, e.g."
                " \"'self' https://casino.example\" (or 'none')"
            )
        if "'none'" in sources and len(sources) > 1:
            raise SettingsError("setting frame_ancestors: 'none' cannot be combined with sources")

    def check_dev_mode(self, host: str) -> None:
        """Refuse dev mode on a bind other than loopback or a database other than SQLite (a
        deployment others can reach, or one that holds more than one developer's play)
        unless ``dev_mode_anywhere`` says so too."""
        if not self.dev_mode or self.dev_mode_anywhere:
            return
        from sqlalchemy.engine import make_url

        if not loopback(host):
            raise SettingsError(
                f"--dev with --host {host}: dev mode lets players choose their rounds'"
                " outcomes, so it listens on loopback alone (127.0.0.1, ::1, localhost);"
                f" set REELSMITH_DEV_MODE_ANYWHERE=true as well to serve it on {host}"
            )
        if make_url(self.database_url).get_backend_name() != "sqlite":
            raise SettingsError(
                "--dev with a database other than SQLite: dev mode lets players choose their"
                " rounds' outcomes, so it runs on a developer's SQLite file alone; set"
                " REELSMITH_DEV_MODE_ANYWHERE=true as well to run it on this database"
            )

    def title_paths(self) -> list[Path]:
        """The folders of ``titles_dirs``."""
        return [Path(part) for part in self.titles_dirs.split(os.pathsep) if part]

    def connect_url(self) -> str:
        """The database URL to connect with: ``database_url``, with the password read from
        ``database_password_file`` when that is set."""
        if not self.database_password_file:
            return self.database_url
        from sqlalchemy.engine import make_url

        path = Path(self.database_password_file)
        try:
            password = path.read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as exc:
            raise SettingsError(
                f"setting database_password_file: cannot read {path}: {exc.strerror or exc}"
            ) from None
        if not password:
            raise SettingsError(f"setting database_password_file: {path} is empty")
        url = make_url(self.database_url)
        if url.password:
            raise SettingsError(
                "the database URL has a password and database_password_file is set too:"
                " keep one of them"
            )
        return url.set(password=password).render_as_string(hide_password=False)
