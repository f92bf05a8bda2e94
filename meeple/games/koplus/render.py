"""KoPlus pictures: placeholder until the renderer is written."""

from __future__ import annotations

from typing import Any


def svg(observation: dict[str, Any]) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'


def text(observation: dict[str, Any]) -> str:
    return ""
