"""Issue #33's first proof, at a chosen size: the seamless game server against the operator
simulator with a share of all calls faulted at random (timeout, error, slow, twice, lose,
truncate), the game server killed with kill -9 at random moments, then the faults turned off,
the outbox left to catch up, and reconciliation run. Printed: the rounds played, the faults
injected, the kills, the spins refused on the way, the reconciliation's verdict and, per player,
the operator's balance against the opening balance plus the rounds' outcomes.

    PYTHONPATH=src .venv/bin/python bench/proof_seamless.py --rounds 2000 --players 4 \\
        --fail-rate 0.2 --database sqlite

``--database postgresql`` needs ``REELSMITH_TEST_DATABASE_URL`` (a schema of its own, dropped
afterwards). Exit status 1 when anything disagrees.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.wallet.sim import SUB, GameClient, OperatorSim, seamless_server  # noqa: E402
from tests.wallet.test_seamless import (  # noqa: E402
    START_MINOR,
    database_url,
    outcomes,
    query,
    reconcile,
    settle,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000, help="rounds in all")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--fail-rate", type=float, default=0.2)
    parser.add_argument("--kill-every", type=float, default=20.0, help="mean seconds")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help="stop playing after this long even if fewer rounds were played (the count"
        " printed is the rounds played; the checks afterwards are the same)",
    )
    parser.add_argument(
        "--opening-minor",
        type=int,
        default=START_MINOR,
        help="each player's opening balance at the operator, in euro cents; a run of many"
        " rounds needs enough that no player runs out (about 0.01 EUR lost per 0.25 round)",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="proof-seamless-"))
    rng = random.Random(args.seed)
    with ExitStack() as stack:
        sim = OperatorSim(
            folder, "--hang-seconds", "1.0", "--slow-seconds", "0.05", "--seed", str(args.seed)
        ).start()
        stack.callback(sim.stop)
        url = stack.enter_context(database_url(args.database, folder))
        server = seamless_server(sim, url, folder, seamless_timeout_seconds="0.5")
        server.start()
        stack.callback(server.stop)
        game = GameClient(server.url)
        names = [f"proof-{i}" for i in range(args.players)]
        tokens = {}
        for name in names:
            sim.player(name, args.opening_minor * SUB)
            tokens[name] = game.new_player(name)
        sim.faults(fail_rate=args.fail_rate)
        target = args.rounds
        done = threading.Event()
        refused = [0]
        broke: set[str] = set()
        kills = [0]
        lock = threading.Lock()

        def played() -> int:
            return int(query(url, "SELECT COUNT(*) FROM rounds")[0][0])

        def player(name: str) -> None:
            client = GameClient(server.url)
            while not done.is_set():
                try:
                    response = client.play_round(tokens[name])
                except httpx.HTTPError:  # the server was killed under the request
                    time.sleep(0.2)
                    continue
                if response.status_code != 200:
                    body = response.json() if response.content else {}
                    if body.get("code") == "round_open":
                        round_id = body["round_id"]
                        for action in ("free-spin",) * 50 + ("collect",):
                            try:
                                step = client.step(tokens[name], round_id, action)
                            except httpx.HTTPError:
                                break
                            if step.status_code == 200 and step.json()["status"] != "open":
                                break
                    else:
                        with lock:
                            refused[0] += 1
                            if body.get("code") == "insufficient_balance":
                                # the operator's balance no longer covers a bet: this player
                                # is done, and the run ends early if every player is
                                broke.add(name)
                                return
                        time.sleep(0.05)

        threads = [threading.Thread(target=player, args=(name,)) for name in names]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        next_kill = time.monotonic() + rng.expovariate(1 / args.kill_every)
        stop_at = None if args.max_seconds is None else started + args.max_seconds
        while played() < target and len(broke) < len(names):
            if stop_at is not None and time.monotonic() >= stop_at:
                break
            time.sleep(0.5)
            if time.monotonic() >= next_kill:
                server.kill()
                kills[0] += 1
                server.start()
                next_kill = time.monotonic() + rng.expovariate(1 / args.kill_every)
        done.set()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        faults = sim.faults(fail_rate=0.0)
        # finish the rounds left open, then let the outbox catch up
        for name in names:
            open_rounds = query(
                url,
                "SELECT r.id FROM rounds r JOIN players p ON p.id = r.player_id"
                " WHERE p.external_ref = :ref AND r.status = 'open'",
                ref=name,
            )
            for (round_id,) in open_rounds:
                for action in ("free-spin",) * 50 + ("collect",):
                    step = game.step(tokens[name], round_id, action)
                    if step.status_code == 200 and step.json()["status"] != "open":
                        break
        settle(url, timeout=300)
        code, result = reconcile(sim, url)
        total = played()
        calls = sum(faults["counts"].values())
        print(
            f"{args.database}: {total} rounds by {args.players} players in {elapsed:.0f} s,"
            f" {kills[0]} kill -9, {calls} faults injected {faults['counts']},"
            f" {refused[0]} spins refused on the way"
        )
        if total < target:
            print(f"stopped before the {target} rounds asked for: {total} played")
        if broke:
            print(f"out of money before the end: {', '.join(sorted(broke))}")
        print(
            f"reconciliation: {result['game_calls']} game calls,"
            f" {result['operator_transactions']} operator transactions,"
            f" {len(result['differences'])} differences"
        )
        ok = code == 0
        for name in names:
            at_operator = sim.balance(name)
            expected = (args.opening_minor + outcomes(url, name)) * SUB
            same = at_operator == expected
            ok = ok and same
            print(
                f"{name}: operator balance {at_operator} sub-units, opening + outcomes"
                f" {expected}: {'equal' if same else 'DIFFERENT'}"
            )
        for found in result["differences"][:20]:
            print(f"  {found}")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
