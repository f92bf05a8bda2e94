"""Pictures of a Mops Royal observation: SVG for the browser, rich text for the terminal."""

from __future__ import annotations

from typing import Any


def svg(obs: dict[str, Any]) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'


def text(obs: dict[str, Any]) -> str:
    return ""
