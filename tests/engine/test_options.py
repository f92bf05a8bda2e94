"""Options in the players' words: a label, words for each value, the advanced mark, presets."""

from __future__ import annotations

import pytest

from meeple.engine.options import RECONSTRUCTED, Option, Preset


def test_an_option_says_its_values_in_words():
    o = Option("layout", str, "a_v1", choices=("a_v1", "b_v2"), label="Alien layout",
               labels=(("a_v1", "our own"), ("b_v2", "the printed one")), advanced=True)
    assert o.title == "Alien layout"
    assert o.words("a_v1") == "our own" and o.words("b_v2") == "the printed one"
    j = o.to_json()
    assert j["label"] == "Alien layout" and j["advanced"] is True
    assert j["labels"] == [{"value": "a_v1", "label": "our own"},
                           {"value": "b_v2", "label": "the printed one"}]
    assert j["help"] == "" and j["choices"] == ["a_v1", "b_v2"]


def test_without_words_an_option_still_reads_plainly():
    o = Option("end_when_blocked", bool, False)
    assert o.title == "End when blocked"
    assert o.words(True) == "on" and o.words(False) == "off"
    assert o.to_json()["labels"] == [] and o.to_json()["advanced"] is False
    assert Option("mode", str, None, choices=("x",)).words(None) == "as the game decides"


def test_a_number_can_name_one_value():
    o = Option("max_rounds", int, 0, minimum=0, labels=((0, "no limit"),))
    assert o.words(0) == "no limit" and o.words(5) == "5"
    assert o.words(False) == "False"  # a bool is not the number 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"choices": ("a", "b"), "labels": (("a", "A"),)}, "no words for \\['b'\\]"),
    ({"choices": ("a",), "labels": (("c", "C"),)}, "cannot be 'c'"),
    ({"labels": (("a", ""),)}, "empty"),
    ({"labels": ((None, "by the game"),)}, "only a None default"),
])
def test_words_must_fit_the_values(kwargs, message):
    with pytest.raises(Exception, match=message):
        Option("x", str, "a", **kwargs)


def test_a_none_default_needs_its_words_once_any_are_given():
    with pytest.raises(ValueError, match="None"):
        Option("x", str, None, choices=("a",), labels=(("a", "A"),))
    o = Option("x", str, None, choices=("a",), labels=((None, "by the count"), ("a", "A")))
    assert o.words(None) == "by the count"


def test_a_preset_as_json():
    p = Preset("Short game", "One round only.", {"rounds": 1}, players=(2, 3))
    assert p.to_json() == {"name": "Short game", "description": "One round only.",
                           "options": {"rounds": 1}, "players": [2, 3]}
    assert Preset("Standard", "As printed.").to_json()["players"] is None


def test_reconstructed_is_explained_in_one_line():
    assert "\n" not in RECONSTRUCTED and "no source" in RECONSTRUCTED
