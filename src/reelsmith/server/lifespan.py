"""The served application's life: the resolver of stale rounds run on an interval, SQLite's
checkpointer, the start-up objects frozen out of the garbage collector, and the database
closed at the end."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable

from fastapi import FastAPI

from reelsmith.server.service import GameService
from reelsmith.store.db import Database

log = logging.getLogger("reelsmith.server")

# The served app's young-generation collection threshold (see `lifespan`).
YOUNG_COLLECTION_EVERY = 20_000


def lifespan(
    service: GameService, db: Database, run_resolver: bool, interval_seconds: float
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def life(app: FastAPI) -> AsyncIterator[None]:
        task = None
        if run_resolver:

            async def resolver() -> None:
                while True:
                    try:
                        await asyncio.to_thread(service.resolver.resolve_stale_rounds)
                    except Exception:  # keep the job alive; the failure is logged
                        log.exception("resolving stale rounds failed")
                    try:
                        await asyncio.to_thread(service.idempotency.purge_refusals)
                    except Exception:
                        log.exception("purging the refusals past their window failed")
                    await asyncio.sleep(interval_seconds)

            task = asyncio.create_task(resolver())
        outbox = None
        wallet = service.context.seamless
        if wallet is not None:
            retry_seconds = service.context.settings.seamless_retry_seconds

            async def outbox_worker() -> None:
                """Send the seamless wallet's pending wins and rollbacks until acknowledged
                (their intents are in the database: a restart picks them up again)."""
                while True:
                    try:
                        await asyncio.get_running_loop().run_in_executor(
                            wallet.threads, wallet.drain
                        )
                    except Exception:
                        log.exception("a pass of the wallet's outbox failed")
                    await asyncio.sleep(retry_seconds)

            outbox = asyncio.create_task(outbox_worker())
            writes = getattr(app.state, "commit_group", None)
            if writes is not None:  # the outcomes of calls join the requests' commit groups
                wallet.write_through(writes, asyncio.get_running_loop())
        checkpointer = db.checkpointer()
        if checkpointer is not None:
            checkpointer.start()
        if getattr(app.state, "freeze_startup_objects", False):
            # The objects made so far (the games' models, the compiled evaluators, the app)
            # live as long as the process: taken out of the collector's reach, a full
            # collection no longer walks them all, pausing every request in flight.
            gc.collect()
            gc.freeze()
            # A young collection every 20,000 allocations instead of 700: a request makes a
            # few thousand short-lived objects (rows, JSON, the round's records), nearly all
            # freed by reference counting, so collecting them 700 at a time spends CPU on
            # every request for nearly nothing.
            _young, older, oldest = gc.get_threshold()
            gc.set_threshold(YOUNG_COLLECTION_EVERY, older, oldest)
        yield
        if checkpointer is not None:
            checkpointer.stop()
        if task is not None:
            task.cancel()
        if outbox is not None:
            outbox.cancel()
        group = getattr(app.state, "commit_group", None)
        if group is not None:
            group.close()  # its kept connections back to the pool, which dispose closes
        db.dispose()

    return life
