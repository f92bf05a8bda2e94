"""A table's life in the table service, on the in-memory store, SQLite and PostgreSQL: the
events its listeners are told, resigning, aborting, time limits and claims, taking back a move,
rated tables and creating a table once per request key."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.server.domain import TableEvent
from meeple.server.live import LiveTable
from meeple.server.service import TableService
from meeple.server.store import MemoryStore, SqlStore, Store

from .test_service import ME, OPEN, person, run, tiny


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request, tmp_path):
    """Each test runs on the in-memory store, on SQLite and on PostgreSQL."""
    if request.param == "memory":
        s: Store = MemoryStore()
    elif request.param == "sqlite":
        s = SqlStore(f"sqlite:///{tmp_path / 'meeple.db'}")
    else:
        s = SqlStore(request.getfixturevalue("pg_url"))
    yield s
    s.close()


Events = list[tuple[str, str, dict[str, Any]]]


def listen(service: TableService) -> Events:
    """Every event the service tells, as (table id, event, data)."""
    seen: Events = []

    def listener(lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        seen.append((lt.id, event, data))

    service.on_event(listener)
    return seen


def test_events_of_joining_and_starting(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        seen = listen(service)
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)])
        assert seen == []
        await service.join(lt, bob)
        names = [e for _, e, _ in seen]
        assert names == ["joined", "started", "turn"]
        assert seen[0] == (lt.id, "joined", {"seat": 1, "user_id": bob.id, "name": "Bob"})
        assert seen[2][2] == {"seats": [0, 1], "user_ids": sorted([ann.id, bob.id])}
        assert all(isinstance(e, TableEvent) for _, e, _ in seen)

    run(store, body)


def test_a_failing_listener_never_breaks_the_change(store: Store) -> None:
    ann, bob = person(store, "Ann"), person(store, "Bob")

    async def body(service: TableService) -> None:
        async def broken(lt: LiveTable, event: str, data: dict[str, Any]) -> None:
            raise RuntimeError("listener down")

        service.on_event(broken)
        seen = listen(service)
        lt, _ = await service.create(ann, tiny(), [(ME, None), (OPEN, None)])
        await service.join(lt, bob)
        assert lt.meta.status == "running"
        assert [e for _, e, _ in seen] == ["joined", "started", "turn"]

    run(store, body)
