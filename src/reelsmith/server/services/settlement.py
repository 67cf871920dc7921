"""Settlement: the money a round step moves, written with the round's new state, its step,
the carried game state, the audit entry and the session's counters, in the step's own
transaction; and the response a step answers with."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from reelsmith.server.jsontext import dumps
from reelsmith.server.markets import Market
from reelsmith.server.services.context import Context
from reelsmith.server.services.player import Player
from reelsmith.server.titles import Price, Title
from reelsmith.store import audit, free_rounds, players, rounds, sql
from reelsmith.wallet import ledger
from reelsmith.wallet.seamless import ACCOUNT

log = logging.getLogger("reelsmith.server")


class OpenRounds:
    """The engine state of recently played open rounds, by round id, with the record text it
    was stored as.

    A step restores its round by replaying the stored record's draws; when this process wrote
    that very record (same text), the engine round it wrote it from is the same value (rounds
    are immutable) and the replay is skipped. Another process's write changes the text, so a
    stale entry is never used.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, round_id: str, record_text: str, engine_round: Any) -> None:
        with self._lock:
            self._items[round_id] = (record_text, engine_round)
            self._items.move_to_end(round_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, round_id: str, record_text: str) -> Any:
        with self._lock:
            found = self._items.get(round_id)
        if found is None or found[0] != record_text:
            return None
        return found[1]

    def forget(self, round_id: str) -> None:
        with self._lock:
            self._items.pop(round_id, None)


class Settlement:
    def __init__(self, context: Context) -> None:
        self.context = context
        self.open_rounds = OpenRounds()

    def settle(
        self,
        connection: Connection,
        player: Player,
        price: Price,
        title: Title,
        round_id: str,
        engine_round: Any,
        action: str,
        now: int,
        resolved_by: str = "player",
        started_with: int | None = None,
        new_round: dict[str, Any] | None = None,
        forced: bool = False,
    ) -> dict[str, Any]:
        """Move the money a step settles, at the round's ``price`` (the one it started with),
        and write the round's new state and its step.

        ``started_with`` is the bet when this step is the spin that started the round: the
        player's round count and the session's bets move here too, in the same statements as
        the audit head and the session's wins. ``new_round`` is then the new round's row (its
        columns known at the start): the round is written once, with the state this step
        leaves it in, rather than inserted and then updated; it gains the hash of the model
        and variant the round is played on (:meth:`Title.model_hash`). ``forced``: the step took
        forced draws (dev mode); the round is marked forced for good, and so is the step's
        audit entry."""
        if new_round is not None:  # the round records the version of the model it is played on
            new_round = {
                "mode": None,  # the base game, unless the step sold the round in a mode
                **new_round,
                "model_hash": title.model_hash(new_round["variant"]),
            }
        outcome = title.outcome(price, engine_round)
        if outcome.refund_minor and free_rounds.is_free(connection, round_id):
            # a voided round a free-round campaign gave: its stake was never taken, so
            # nothing is returned (a read on voids alone, never on a spin's path)
            outcome = replace(outcome, refund_minor=0)
        game_account = self.context.house_account(
            connection, f"game:{title.game_id}", player.currency
        )
        seamless = self.context.seamless
        wallet_account = player.account_id
        wallets: tuple[int, ...] = (player.account_id,)
        if seamless is not None:  # the operator holds the money: the other side is its house
            wallet_account = self.context.house_account(connection, ACCOUNT, player.currency)
            wallets = ()
        balance = player.balance_minor
        for kind, amount in (
            ("win", outcome.win_minor),
            ("jackpot_win", outcome.jackpot_minor),
            ("refund", outcome.refund_minor),
        ):
            if amount:
                ledger.post(
                    connection,
                    kind,
                    player.id,
                    [(wallet_account, amount), (game_account, -amount)],
                    now,
                    round_id,
                    wallets=wallets,
                )
                balance += amount
        finished = outcome.status != "open"
        if seamless is not None:
            step_paid = outcome.win_minor + outcome.jackpot_minor + outcome.refund_minor
            if step_paid or finished:
                # the win's intent, in this step's transaction (the outbox sends it)
                seamless.queue_win(
                    connection,
                    player.id,
                    player.external_ref,
                    title.game_id,
                    round_id,
                    player.currency,
                    step_paid,
                    finished,
                    now,
                )
        view = title.view(price, engine_round)
        events = title.events(price, engine_round)
        record = title.record(engine_round)
        paid = outcome.win_minor + outcome.jackpot_minor
        view_text = dumps(view)
        record_text = dumps(record)
        if outcome.status == "voided":
            log.warning(
                "round %s of player %s voided (%s): no pay, bet of %d minor units returned",
                round_id,
                player.id,
                view.get("void_reason") or "no reason given",
                outcome.refund_minor,
            )
        settled_row = {
            "status": outcome.status,
            "record": record_text,
            "view": view_text,
            "win": paid,
            "now": now,
            "after": balance if finished else None,
            "completed": now if finished else None,
            "resolved": (resolved_by if outcome.status == "complete" else "void")
            if finished
            else None,
            "id": round_id,
            "forced": forced,
        }
        rounds.write_step(
            connection, settled_row, new_round, len(record["actions"]), action, balance
        )
        if finished:
            kept = title.kept_state(engine_round)
            if kept is not None:
                key, state = kept
                rounds.keep_state(connection, player.id, title.game_id, key, dumps(state), now)
        # the step's audit entry, the player's audit head (and round count) and the session's
        # bets and wins: three rows of three tables, none read by another, in one statement
        with sql.together(connection):
            player.audit_hash = audit.append(
                connection,
                player.id,
                "round_step",
                {
                    "round_id": round_id,
                    "game": title.game_id,
                    "action": action,
                    "status": outcome.status,
                    "win_minor": outcome.win_minor,
                    "jackpot_minor": outcome.jackpot_minor,
                    "refund_minor": outcome.refund_minor,
                    "balance_minor": balance,
                    **({"forced": True} if forced else {}),
                },
                now,
                round_id,
                head=(player.audit_seq, player.audit_hash),
                move_head=False,
            )
            player.audit_seq += 1
            started = started_with is not None
            players.move_audit_head(
                connection, player.id, player.audit_seq, player.audit_hash, now if started else None
            )
            if started or finished:
                players.count_round_in_session(
                    connection,
                    round_id,
                    started_with or 0,
                    started,
                    paid + outcome.refund_minor if finished else 0,
                )
        if finished:
            self.context.metrics.round_finished(title.game_id, outcome.status, paid)
        player.balance_minor = balance
        if finished:
            self.open_rounds.forget(round_id)
        else:
            self.open_rounds.keep(round_id, record_text, engine_round)
        return {
            "view": view,
            "events": events,
            "balance": balance,
            "finished": finished,
            "outcome": outcome,
        }

    def response(
        self,
        connection: Connection,
        market: Market,
        round_id: str,
        settled: dict[str, Any],
        session_id: str | None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A round step's answer: the round's view and its events (:mod:`reelsmith.engine.events`),
        its status, the balance, win and bet."""
        view = settled["view"]
        bet_minor = view["bet_minor"]
        win_minor = view["win_minor"]
        response: dict[str, Any] = {
            "round_id": round_id,
            "round": view,
            "events": settled["events"],
            "status": settled["outcome"].status,
            "balance": market.money(settled["balance"]),
            "win": market.money(win_minor),
            "bet": market.money(bet_minor),
            "celebrate": win_minor > 0
            and (market.celebrate_wins_not_above_stake or win_minor > bet_minor),
        }
        if market.show_session_net and session_id:
            row = players.session_totals(connection, session_id)
            if row is not None:
                response["session_net"] = market.money(
                    int(row["wins_minor"]) - int(row["bets_minor"])
                )
        if extra:
            response.update(extra)
        return response

    @staticmethod
    def next_bet(
        title: Title, market: Market, bet: Any, settled: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The bet the next spin is played at, when the step that finished a round left the
        balance below this round's bet: "If your balance decreases so it becomes lower than
        the selected bet size, the bet size will automatically be lowered to the highest
        applicable bet size", told with that step so the player sees the new bet at once.
        None while the round is open, when the bet still fits, and when no bet fits (the
        bet stays; the next spin is refused for want of balance)."""
        if not settled["finished"]:
            return None
        after = title.lower(market, settled["balance"], bet)
        if after is None or after == bet:
            return None
        return {
            "from": title.bet_json(bet),
            "to": title.bet_json(after),
            "total": market.money(title.bet_minor(market, after)),
        }
