"""The game server's tables (SQLAlchemy Core), shared by SQLite and PostgreSQL.

Times are integer milliseconds since the Unix epoch (UTC), money is integer minor units, and
structured records are JSON text, so both databases store exactly the same values.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("external_ref", String(128), nullable=False, unique=True),
    Column("currency", String(3), nullable=False),
    Column("market", String(32), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    # head of the player's audit chain, moved in the same transaction as each entry
    Column("audit_seq", Integer, nullable=False, server_default=text("0")),
    Column("audit_hash", String(64), nullable=False, server_default=text("''")),
    Column("last_round_ms", BigInteger, nullable=True),
    Column("rounds_played", Integer, nullable=False, server_default=text("0")),
    Column("disabled_ms", BigInteger, nullable=True),  # an operator disabled the player
    # the demo player (``--demo``): set by the server alone, at most one (migration 0004)
    Column("demo", Boolean, nullable=False, server_default=false()),
    Index(
        "uq_players_one_demo",
        "demo",
        unique=True,
        sqlite_where=text("demo"),
        postgresql_where=text("demo"),
    ),
)

# Double-entry accounts: a player's wallet, and house accounts per currency ("cash" for
# deposits and withdrawals, "game:<id>" for bets and wins). Only wallet balances are cached
# (updated under the player's lock); house balances are sums of postings.
accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=True, unique=True),
    Column("name", String(64), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("balance", BigInteger, nullable=False, server_default=text("0")),
    UniqueConstraint("name", "currency", name="uq_accounts_name_currency"),
    CheckConstraint("player_id IS NULL OR balance >= 0", name="ck_wallet_not_negative"),
)

ledger_transactions = Table(
    "ledger_transactions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # deposit withdrawal bet win jackpot_win refund
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("round_id", String(36), nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_ledger_transactions_player", "player_id"),
    Index("ix_ledger_transactions_round", "round_id"),
)

postings = Table(
    "postings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("transaction_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Index("ix_postings_transaction", "transaction_id"),
    Index("ix_postings_account", "account_id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("bets_minor", BigInteger, nullable=False, server_default=text("0")),
    Column("wins_minor", BigInteger, nullable=False, server_default=text("0")),
    Column("rounds", Integer, nullable=False, server_default=text("0")),
    Column("revoked_ms", BigInteger, nullable=True),  # logout or revocation: tokens refused
    Index("ix_sessions_player", "player_id"),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("number", Integer, nullable=False),  # the player's n-th round
    Column("session_id", String(36), nullable=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("bet_minor", BigInteger, nullable=False),
    Column("bet", Text, nullable=False),  # the title's bet as JSON
    Column("status", String(16), nullable=False),  # open complete voided
    Column("record", Text, nullable=False),  # inputs that replay the round: JSON
    Column("view", Text, nullable=False),  # the round as the player sees it: JSON
    Column("win_minor", BigInteger, nullable=False, server_default=text("0")),
    Column("balance_before", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=True),
    Column("autoplay_id", String(36), nullable=True),
    Column("resolved_by", String(16), nullable=True),  # player auto void
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("completed_ms", BigInteger, nullable=True),
    # the resolver's failures on an open round (migration 0007): how many passes failed, the
    # last reason, and the time before which it is not tried again (set aside)
    # a step of the round took forced draws (dev mode, migration 0009)
    Column("forced", Boolean, nullable=False, server_default=false()),
    Column("resolve_failures", Integer, nullable=False, server_default=text("0")),
    Column("resolve_error", Text, nullable=True),
    Column("resolve_retry_ms", BigInteger, nullable=True),
    # the SHA-256 of the model and variant the round was played on (migration 0012; NULL for
    # the rounds before it): the report's grouping and the replay's check
    Column("model_hash", String(64), nullable=True),
    # the bet mode the round was sold in (an ante, a bought feature); NULL: the base game
    Column("mode", String(32), nullable=True),
    UniqueConstraint("player_id", "number", name="uq_rounds_player_number"),
    # the reports' period filter (migration 0013)
    Index("ix_rounds_created", "created_ms"),
    # open rounds only (the stale-round job's search): a round that completes with its spin
    # never enters it
    Index(
        "ix_rounds_open_updated",
        "updated_ms",
        sqlite_where=text("status = 'open'"),
        postgresql_where=text("status = 'open'"),
    ),
    Index(
        "uq_rounds_one_open",
        "player_id",
        "game",
        unique=True,
        sqlite_where=text("status = 'open'"),
        postgresql_where=text("status = 'open'"),
    ),
)

round_steps = Table(
    "round_steps",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", String(36), ForeignKey("rounds.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", String(32), nullable=False),
    Column("view", Text, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    UniqueConstraint("round_id", "seq", name="uq_round_steps_seq"),
)

game_states = Table(
    "game_states",
    metadata,
    Column("player_id", String(36), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("bet_key", String(32), primary_key=True),
    Column("state", Text, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(64), primary_key=True),
    Column("key", String(128), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("status_code", Integer, nullable=False),
    Column("response", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    # refusals (status 400 and above) by age, for their purge after the window (migration 0008)
    Index(
        "ix_idempotency_refusals",
        "created_ms",
        sqlite_where=text("status_code >= 400"),
        postgresql_where=text("status_code >= 400"),
    ),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(36), nullable=False),
    Column("seq", Integer, nullable=False),  # position in the player's chain, from 1
    Column("kind", String(32), nullable=False),
    Column("round_id", String(36), nullable=True),
    Column("payload", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    UniqueConstraint("player_id", "seq", name="uq_audit_player_seq"),
)

autoplays = Table(
    "autoplays",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("bet", Text, nullable=False),
    Column("total", Integer, nullable=False),
    Column("remaining", Integer, nullable=False),
    Column("stop_on_feature", Boolean, nullable=False),
    Column("stop_on_win_above_minor", BigInteger, nullable=True),
    Column("loss_limit_minor", BigInteger, nullable=True),
    Column("stop_on_jackpot", Boolean, nullable=False, server_default=false()),
    Column("stop_on_balance_change", Boolean, nullable=False, server_default=false()),
    # the balance the autoplay's last step left: a next spin finding another one stops it
    # (with stop_on_balance_change)
    Column("balance_minor", BigInteger, nullable=True),
    Column("net_minor", BigInteger, nullable=False, server_default=text("0")),
    Column("status", String(16), nullable=False),  # active stopped finished
    Column("stop_reason", String(64), nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Index("ix_autoplays_player", "player_id"),
)

# The seamless wallet's calls to the operator (migration 0010): each bet, win and rollback,
# written as an intent in the transaction of the round step it belongs to (a bet: before the
# call; a win: with the step that won it), and its outcome when the operator answers. The
# outbox worker retries the pending wins and rollbacks; the id is the transaction_uuid the
# operator sees, request_uuid the one every attempt of the call is sent with.
wallet_calls = Table(
    "wallet_calls",
    metadata,
    Column("id", String(36), primary_key=True),  # transaction_uuid
    Column("request_uuid", String(36), nullable=False),
    Column("kind", String(16), nullable=False),  # bet win rollback
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("user_ref", String(128), nullable=False),  # the player at the operator
    Column("game", String(32), nullable=False),
    Column("round_id", String(36), nullable=False),
    Column("reference_id", String(36), nullable=True),  # a win's or rollback's bet
    Column("currency", String(3), nullable=False),
    Column("amount_minor", BigInteger, nullable=False),
    Column("round_closed", Boolean, nullable=False, server_default=false()),
    # pending acknowledged refused; a bet also unanswered (then rolled back)
    Column("state", String(16), nullable=False),
    Column("status", String(64), nullable=True),  # the last RS_* status or failure
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_ms", BigInteger, nullable=False),
    Column("balance_minor", BigInteger, nullable=True),  # the operator's answer's balance
    Column("idempotency_key", String(128), nullable=True),  # a bet: its spin's key
    # a free round's call (migration 0011): sent with is_free true (a bet of 0 and its wins)
    Column("is_free", Boolean, nullable=False, server_default=false()),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Index("ix_wallet_calls_due", "state", "next_attempt_ms"),
    Index("ix_wallet_calls_player", "player_id", "kind", "state"),
    Index("ix_wallet_calls_round", "round_id"),
    Index("ix_wallet_calls_created", "created_ms"),
)

# The operator's token for each game session of a seamless deployment (the casino's launch
# token, passed on with each balance and bet call; wins and rollbacks need none).
wallet_sessions = Table(
    "wallet_sessions",
    metadata,
    Column("session_id", String(36), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("operator_token", Text, nullable=False),
)

# Free-round campaigns (migration 0011): rounds an operator gives a player at a fixed bet of
# a title, played without charging the bet (their wins are paid). ``id`` is the operator's
# campaign id (or one the server made from the request's Idempotency-Key); ``request_hash``
# the hash of the request that created it, so that the same id with another request is
# refused. ``played`` counts the rounds started; ``status`` is active, finished (every round
# started) or cancelled; an active campaign past ``expires_ms`` is answered as expired.
free_round_campaigns = Table(
    "free_round_campaigns",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("player_id", String(36), ForeignKey("players.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("bet", Text, nullable=False),  # the title's bet as JSON
    Column("bet_minor", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("played", Integer, nullable=False, server_default=text("0")),
    Column("status", String(16), nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("request_hash", String(64), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("cancelled_ms", BigInteger, nullable=True),
    CheckConstraint("rounds > 0", name="ck_free_round_campaigns_rounds"),
    CheckConstraint("played >= 0 AND played <= rounds", name="ck_free_round_campaigns_played"),
    Index("ix_free_round_campaigns_player", "player_id", "status"),
)

# Each round a campaign gave (migration 0011): its ``number`` within the campaign is unique,
# so two plays of the campaign's last round can never both be written.
free_round_plays = Table(
    "free_round_plays",
    metadata,
    Column("round_id", String(36), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("free_round_campaigns.id"), nullable=False),
    Column("number", Integer, nullable=False),
    UniqueConstraint("campaign_id", "number", name="uq_free_round_plays_number"),
)

# The files of each version of a model served (migration 0014), by the hash rounds record
# (``rounds.model_hash``): what a round's replay and payout audit load when the title served
# now is another version. ``files``: JSON text, each file's text by its path in the folder.
model_versions = Table(
    "model_versions",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("files", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)
