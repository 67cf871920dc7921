"""Catalogue mechanics beyond the line rule: each reads its model tables once and checks them."""
