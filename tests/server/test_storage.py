"""Storage: the migrations build exactly the models' schema, SQLite runs in WAL mode, and the
default database lives in the data directory."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

import meeple.server.community.models
import meeple.server.store  # noqa: F401  (the store's own tables, on the same metadata)
from meeple.server.db import MIGRATIONS, Base, default_sqlite_url, open_database


def test_migrations_match_the_models(empty_db_url):
    engine = open_database(empty_db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    heads = set(ScriptDirectory.from_config(cfg).get_heads())
    assert heads == {"0008"}  # one head: a new migration follows the last
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            assert diff == []
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars()
            assert set(versions) == heads
        open_database(empty_db_url)  # a second start finds the schema up to date
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
