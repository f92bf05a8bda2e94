"""Every game opens the new-table form with presets that make valid games, and says its
options in the players' words: no internal codes, option ids or rule references."""

from __future__ import annotations

import re

import pytest

import meeple
from meeple.engine import game_class

GAMES = ["koplus", "kozo", "mops_royal", "botanik", "kontor"]
# Codes a player must not read: data-set versions, value patterns, end-condition and rule ids,
# option ids (words joined by "_"), Python reprs.
CODE = re.compile(r"_v\d|largest_|\bE\d\b|\[R|\bR\d+\b|\b[a-z]+_[a-z_]+\b|'[^' ]*'|\bNone\b|"
                  r"\bTrue\b|\bFalse\b")


def visible_texts(d: dict) -> list[str]:
    out = []
    for o in d["options"]:
        out += [o["label"], o["help"]] + [w["label"] for w in o["labels"]]
    for p in d["presets"]:
        out += [p["name"], p["description"]]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_no_option_text_holds_a_code(name):
    d = game_class(name).describe()
    texts = visible_texts(d)
    assert texts and all(t.strip() for t in texts)
    leaks = [t for t in texts if CODE.search(t)]
    assert leaks == []


def test_the_code_check_finds_the_old_words():
    for old in ("placeholder_v1", "end the game (as E2) after this many rounds",
                "'all' or 'largest_<n>'", "see [R12]", "with random_size: the piece"):
        assert CODE.search(old), old


@pytest.mark.parametrize("name", GAMES)
def test_every_option_has_a_label_and_words_for_each_choice(name):
    for o in game_class(name).describe()["options"]:
        assert o["label"] and o["label"] != o["name"], o["name"]
        said = [w["value"] for w in o["labels"]]
        assert all(c in said for c in o["choices"] or []), o["name"]
        if o["default"] is None:
            assert None in said, o["name"]


@pytest.mark.parametrize("name", GAMES)
def test_the_finer_options_are_folded(name):
    cls = game_class(name)
    advanced = {o["name"]: o["advanced"] for o in cls.describe()["options"]}
    assert any(advanced.values())
    for o in cls.option_schema:
        if o.type is float or (o.choices is not None and len(o.choices) == 1):
            assert advanced[o.name], o.name  # fine tuning and one-value data sets


@pytest.mark.parametrize("name", GAMES)
def test_every_preset_makes_a_valid_game_for_its_player_counts(name):
    cls = game_class(name)
    presets = cls.presets()
    assert len(presets) >= 2 and presets[0].name == "Standard" and not presets[0].options
    assert len({p.name for p in presets}) == len(presets)
    for p in presets:
        assert p.description.endswith(".") and p.name[0].isupper()
        counts = p.players or cls.player_counts
        assert set(counts) <= set(cls.player_counts)
        for n in counts:
            g = meeple.load(name, players=n, **p.options)
            for key, value in p.options.items():
                assert g.options[key] == value
            s = g.new_initial_state()
            assert not s.is_terminal() and s.legal_actions(s.current_player) or s.is_chance_node()


def test_kontor_presets_for_two_players_only_say_so():
    presets = {p.name: p for p in game_class("kontor").presets()}
    assert presets["Advanced game"].players == (2,)
    with pytest.raises(meeple.OptionError, match="advanced game is for 2 players"):
        meeple.load("kontor", players=3, **presets["Advanced game"].options)
    assert presets["Standard"].players is None
