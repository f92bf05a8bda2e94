"""Alembic environment: runs the server's migrations on the connection it is given."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from meeple.server.db import Base

target_metadata = Base.metadata
config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # run from the alembic command line with sqlalchemy.url set
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata)
    context.run_migrations()


run()
