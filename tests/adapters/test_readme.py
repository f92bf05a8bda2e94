"""The README's library examples run as written: the loop plays every game to its end."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

import meeple

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def python_blocks(title: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", section(title), flags=re.S)


def test_the_library_section_names_the_install_and_the_extras():
    text = section("As a library")
    assert "pip install meeple" in text
    for extra in ("peers", "web", "ray", "dev"):
        assert f"[{extra}]" in text


def test_the_library_examples_play_every_game():
    blocks = python_blocks("As a library")
    assert len(blocks) == 2
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for code in blocks:
            exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    played = [line.split()[0] for line in lines[:-1]]
    assert played == meeple.games()  # the loop reached the end of every game
    assert lines[-1].startswith("[") and lines[-1].endswith("]")


@pytest.mark.skipif(
    os.environ.get("MEEPLE_OPTIONAL_PEERS") == "1"
    and any(importlib.util.find_spec(m) is None for m in ("pyspiel", "pettingzoo", "gymnasium")),
    reason="a peer has no wheel for this Python",
)
def test_the_adapters_example_runs():
    (code,) = python_blocks("For programs: OpenSpiel, PettingZoo, Gymnasium")
    names: dict = {}
    exec(compile(code, "README.md", "exec"), names)
    assert names["small"].get_parameters()["horizon"] > 0
    assert names["par"].possible_agents == ["player_0", "player_1"]
