"""Persistence: SQLAlchemy tables, the database engine and transactions, Alembic migrations."""
