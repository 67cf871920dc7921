"""Several worker processes on one port, each with a listening socket of its own.

uvicorn's own ``--workers`` binds one socket in the supervisor and lets every worker accept
on it. Whichever worker is awake takes the next connection, so under load one worker can end
up holding nearly all of a pool's connections while the others idle (on PostgreSQL, one
worker held nearly all 32 benchmark clients). Here each worker binds the address itself
with ``SO_REUSEPORT``: the kernel keeps a group of listening sockets on the port and hands
each new connection to one of them by a hash of its addresses, so connections spread evenly
and no worker can take another's share.

The supervisor binds the address first without listening, which both reserves the port
(another program cannot take it between the workers' starts) and reports an address in use
as a clear error before any worker starts. A worker that dies is started again; SIGINT or
SIGTERM stops every worker (each finishes its requests in flight, as uvicorn does) and then
the supervisor. Where ``SO_REUSEPORT`` does not exist, :func:`per_worker_sockets` says so
and ``reelsmith serve`` falls back to uvicorn's shared socket.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

log = logging.getLogger("reelsmith.server")

RESTART_PAUSE_S = 1.0  # a worker that dies at once is not restarted in a tight loop
BACKLOG = 2048


def per_worker_sockets() -> bool:
    """Whether this system balances connections over sockets sharing a port."""
    return hasattr(socket, "SO_REUSEPORT")


def bind(host: str, port: int, *, listen: bool) -> socket.socket:
    """A TCP socket on ``host:port`` in the port's SO_REUSEPORT group."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        if listen:
            sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def _worker(host: str, port: int, config: dict[str, Any]) -> None:
    import uvicorn

    sock = bind(host, port, listen=True)
    server = uvicorn.Server(uvicorn.Config(**config))
    server.run(sockets=[sock])


def run(host: str, port: int, workers: int, config: dict[str, Any]) -> None:
    """Serve ``config`` (uvicorn.Config's arguments, without host and port) from ``workers``
    processes, each listening on ``host:port`` with its own socket, until SIGINT or SIGTERM.
    Raises OSError (before any worker starts) when the address cannot be bound."""
    reserved = bind(host, port, listen=False)
    context = multiprocessing.get_context("spawn")
    stopping = False

    def start() -> BaseProcess:
        process = context.Process(
            target=_worker, args=(host, port, config), name="reelsmith-worker"
        )
        process.start()
        return process

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    processes = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(processes):
                if process.is_alive() or stopping:
                    continue
                log.error(
                    "worker %s exited with status %s; starting another",
                    process.pid,
                    process.exitcode,
                )
                time.sleep(RESTART_PAUSE_S)
                processes[index] = start()
    finally:
        for process in processes:
            if process.is_alive() and process.pid is not None:
                process.terminate()  # SIGTERM: uvicorn's graceful shutdown
        for process in processes:
            process.join()
        reserved.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
