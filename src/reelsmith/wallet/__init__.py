"""The wallet: who holds the players' money, and how it moves.

- `ledger`: the double-entry ledger in integer minor units (the transfer wallet's balances,
  and under the seamless wallet the record of every bet and win against the operator's house
  account);
- `seamless`: the seamless adapter, calling the operator's wallet (Hub88's shape) with every
  call's intent and outcome in the game's database;
- `signing`: the RSA-SHA256 signatures on both sides of those calls;
- `operator_sim`: the operator simulator (`reelsmith operator-sim`);
- `reconcile`: the game's calls and ledger against the operator's transactions.
"""
