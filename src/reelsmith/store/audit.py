"""The audit log: append-only, hash-chained per player.

Each entry's hash is ``sha256(previous hash + canonical JSON of the entry)``, and the head of
each player's chain (sequence number and hash) is kept on the player's row, moved in the same
transaction as the entry under the player's lock. Changing, removing or reordering any entry,
or dropping the newest, breaks the chain, which :func:`verify` reports.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, select

from reelsmith.store import sql
from reelsmith.store.tables import audit_log, players

GENESIS = "0" * 64


def canonical(data: Any) -> str:
    """Compact JSON with sorted keys, non-ASCII characters as they are: the text
    ``json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` writes.
    orjson writes it for the values entries hold (text, integers, booleans, null, lists and
    objects of them: no entry holds a float, whose exponent orjson writes differently); the
    standard library what orjson cannot (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(body)).encode("utf-8")).hexdigest()


def append(
    connection: Connection,
    player_id: str,
    kind: str,
    payload: dict[str, Any],
    now_ms: int,
    round_id: str | None = None,
    head: tuple[int, str] | None = None,
    move_head: bool = True,
) -> str:
    """Add an entry to the player's chain (the caller holds the player's lock); its hash.

    ``head`` is the chain's head (sequence number, hash) when the caller read it under the
    same lock; otherwise it is read here. With ``move_head`` false the caller moves the head
    on the player's row itself (the new sequence number is ``head[0] + 1``), in the same
    transaction."""
    if head is None:
        row = sql.one(
            connection,
            "SELECT audit_seq, audit_hash FROM players WHERE id = :id",
            {"id": player_id},
        )
        if row is None:
            raise LookupError(f"no player {player_id}")
        head = (int(row["audit_seq"]), str(row["audit_hash"] or ""))
    seq = head[0] + 1
    prev = head[1] or GENESIS
    text = canonical(payload)
    body = {
        "player_id": player_id,
        "seq": seq,
        "kind": kind,
        "round_id": round_id,
        "created_ms": now_ms,
        "payload": text,
    }
    digest = entry_hash(prev, body)
    sql.send(
        connection,
        "INSERT INTO audit_log"
        " (player_id, seq, kind, round_id, payload, prev_hash, hash, created_ms)"
        " VALUES (:player_id, :seq, :kind, :round_id, :payload, :prev, :hash, :now)",
        {
            "player_id": player_id,
            "seq": seq,
            "kind": kind,
            "round_id": round_id,
            "payload": text,
            "prev": prev,
            "hash": digest,
            "now": now_ms,
        },
    )
    if move_head:
        sql.send(
            connection,
            "UPDATE players SET audit_seq = :seq, audit_hash = :hash WHERE id = :id",
            {"seq": seq, "hash": digest, "id": player_id},
        )
    return digest


@dataclass
class AuditReport:
    players: int = 0
    entries: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(connection: Connection) -> AuditReport:
    """Re-hash every chain and compare it with the stored hashes and the player's head."""
    report = AuditReport()
    heads = {
        str(row.id): (int(row.audit_seq), str(row.audit_hash))
        for row in connection.execute(
            select(players.c.id, players.c.audit_seq, players.c.audit_hash)
        )
    }
    report.players = len(heads)
    expected: dict[str, tuple[int, str]] = {}
    for row in connection.execute(
        select(audit_log).order_by(audit_log.c.player_id, audit_log.c.seq)
    ):
        report.entries += 1
        player = str(row.player_id)
        seq, prev = expected.get(player, (0, GENESIS))
        where = f"player {player} entry {row.seq}"
        if row.seq != seq + 1:
            report.problems.append(f"{where}: expected entry {seq + 1} (an entry is missing)")
        if row.prev_hash != prev:
            report.problems.append(f"{where}: does not link to the entry before it")
        body = {
            "player_id": player,
            "seq": int(row.seq),
            "kind": row.kind,
            "round_id": row.round_id,
            "created_ms": int(row.created_ms),
            "payload": row.payload,
        }
        digest = entry_hash(str(row.prev_hash), body)
        if digest != row.hash:
            report.problems.append(f"{where}: its content does not match its hash")
        expected[player] = (int(row.seq), str(row.hash))
    for player, (seq, digest) in heads.items():
        last = expected.get(player, (0, ""))
        if seq != last[0] or (seq and digest != last[1]):
            report.problems.append(
                f"player {player}: the chain ends at entry {last[0]} but the head says {seq}"
            )
    return report
