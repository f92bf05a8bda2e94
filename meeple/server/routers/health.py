"""Health: whether the server answers."""

from __future__ import annotations

from fastapi import APIRouter

from ..schemas import Ok

router = APIRouter(tags=["health"])


@router.get("/healthz")
def health() -> Ok:
    return Ok(ok=True)
