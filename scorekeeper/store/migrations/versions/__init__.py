"""The store's Alembic revisions, one a file (loaded by Alembic, not imported)."""
