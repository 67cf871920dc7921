"""Prometheus metrics: rounds, bets, wins, RTP to date per game, request latency, the
resolver's set-aside rounds and the requests the database was too busy for."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rounds = Counter(
            "reelsmith_rounds_total", "Rounds settled", ["game", "status"], registry=self.registry
        )
        self.bets = Counter(
            "reelsmith_bets_minor_total",
            "Bets taken, minor units",
            ["game"],
            registry=self.registry,
        )
        self.wins = Counter(
            "reelsmith_wins_minor_total", "Wins paid, minor units", ["game"], registry=self.registry
        )
        self.rtp = Gauge(
            "reelsmith_rtp_to_date",
            "Wins paid / bets taken since start",
            ["game"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "reelsmith_request_seconds",
            "Request latency",
            ["route", "method"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=self.registry,
        )
        self.set_aside = Gauge(
            "reelsmith_rounds_set_aside",
            "Open rounds the resolver failed to finish, tried again later (at its last pass)",
            registry=self.registry,
        )
        self.resolve_failures = Counter(
            "reelsmith_resolve_failures_total",
            "Attempts of the resolver to finish a stale round that failed",
            registry=self.registry,
        )
        self.database_busy = Counter(
            "reelsmith_database_busy_total",
            "Requests refused because the database's lock or statement timeout passed",
            registry=self.registry,
        )
        self._totals: dict[str, list[int]] = {}
        # each label set's child, looked up once (prometheus_client's labels() checks and
        # joins the label values, under a lock, on every call)
        self._children: dict[tuple[Any, ...], Any] = {}

    def child(self, metric: Any, *labels: str) -> Any:
        key = (metric, *labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def bet(self, game: str, minor: int) -> None:
        self.child(self.bets, game).inc(minor)
        self._update(game, minor, 0)

    def round_finished(self, game: str, status: str, paid_minor: int) -> None:
        self.child(self.rounds, game, status).inc()
        if paid_minor:
            self.child(self.wins, game).inc(paid_minor)
        self._update(game, 0, paid_minor)

    def _update(self, game: str, bet: int, win: int) -> None:
        totals = self._totals.setdefault(game, [0, 0])
        totals[0] += bet
        totals[1] += win
        if totals[0]:
            self.child(self.rtp, game).set(totals[1] / totals[0])

    def render(self) -> bytes:
        return generate_latest(self.registry)
