"""The wallet: a double-entry ledger in integer minor units."""
