"""The version of a title a stored round was played on.

A round records the hash of the model and variant it was played on (``rounds.model_hash``).
Its replay and its payout audit must use that version: the title served now when its hash is
the round's, else the version's files kept in ``model_versions`` (each server keeps the
versions it serves when it starts: :func:`keep_served`), loaded once per process. A round from
before the hash was recorded (null) is taken as played on the title served now. When neither
is there, there is no version to use, and the caller says so rather than use another. An open
round goes on (a player's step, the resolver's finish) on the version it was played on too
(:meth:`ModelVersions.of_round`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.model import ModelError
from reelsmith.server.errors import ConflictError
from reelsmith.server.titles import Title, title_from_files
from reelsmith.store import model_versions

log = logging.getLogger("reelsmith.server")


def keep_served(connection: Connection, titles: Mapping[str, Title], now_ms: int) -> None:
    """Keep the files of every title and variant served under their hash (a version kept
    already is left as it is)."""
    for title in titles.values():
        files = title.version_files()
        if files is None:
            continue
        for variant in title.model.variants:
            hash_ = title.model_hash(variant)
            model_versions.keep(connection, hash_, title.game_id, variant, files, now_ms)


class ModelVersions:
    """Titles by the version a round was played on: the served ones, and kept versions loaded
    as they are asked for (kept in memory: a version never changes)."""

    def __init__(self, titles: Mapping[str, Title]) -> None:
        self.titles = titles
        self.loaded: dict[str, Title] = {}

    def title(
        self, connection: Connection, game: str, variant: str, played_on: str | None
    ) -> Title | None:
        """The title ``game`` as it was when a round of ``variant`` was played on the model
        hash ``played_on``; None when that version is neither served nor kept."""
        served = self.titles.get(game)
        if played_on is None or (
            served is not None
            and variant in served.model.variants
            and served.model_hash(variant) == played_on
        ):
            return served
        found = self.loaded.get(played_on)
        if found is not None:
            return found
        files = model_versions.files(connection, played_on)
        if files is None:
            return None
        try:
            found = title_from_files(files)
        except ModelError as exc:
            log.error("the kept version %s of %s does not load: %s", played_on, game, exc)
            return None
        if variant not in found.model.variants or found.model_hash(variant) != played_on:
            log.error("the kept version %s of %s loads to another hash", played_on, game)
            return None
        self.loaded[played_on] = found
        return found

    def of_round(self, connection: Connection, row: Any) -> Title:
        """The title the stored round ``row`` goes on with: the version it was played on
        (its ``model_hash``), refused (409 ``model_changed``) when that version is neither
        served nor kept, rather than played on mathematics the round did not start on."""
        played_on = row["model_hash"]
        found = self.title(connection, row["game"], row["variant"], played_on)
        if found is None:
            raise ConflictError(
                "model_changed",
                f"round {row['id']} was played on {row['game']} {row['variant']} with model"
                f" hash {played_on}, which is neither served nor kept: serve that version to"
                " go on with it",
            )
        return found
