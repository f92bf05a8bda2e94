"""Storage: the migrations build exactly the models' schema, SQLite runs in WAL mode, and the
default database lives in the data directory."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from meeple.server.db import Base, default_sqlite_url, open_database


def test_migrations_match_the_models(db_url):
    engine = open_database(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            assert diff == []
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0002"
        open_database(db_url)  # a second start finds the schema up to date
    finally:
        engine.dispose()


def test_sqlite_is_in_wal_mode_in_the_data_dir(tmp_path):
    url = default_sqlite_url(tmp_path / "data")
    assert url == f"sqlite:///{(tmp_path / 'data' / 'meeple.db').resolve()}"
    engine = open_database(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        engine.dispose()
    assert (tmp_path / "data" / "meeple.db").exists()
