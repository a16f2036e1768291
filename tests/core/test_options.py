"""Game options: choices carry labels and help in words; values are still checked."""

from __future__ import annotations

import pytest

from scorekeeper.core.game import Choice, Option
from scorekeeper.errors import ConfigError
from scorekeeper.games import games

FLAG = Option(
    "flag",
    True,
    "a yes/no setting",
    (Choice(True, "Yes", "it is on"), Choice(False, "No", "it is off")),
    label="Flag",
)


def test_a_choice_option_accepts_its_values_and_refuses_others_naming_the_labels() -> None:
    assert FLAG.coerce("no") is False and FLAG.coerce(True) is True
    mode = Option("mode", "a", "which", (Choice("a", "First way"), Choice("b", "Second way")))
    assert mode.coerce("b") == "b"
    with pytest.raises(ConfigError, match=r"a \(First way\), b \(Second way\)"):
        mode.coerce("c")


def test_to_dict_marks_the_default_and_bare_values_still_work() -> None:
    out = FLAG.to_dict()
    assert out["label"] == "Flag" and out["default"] is True
    assert out["choices"] == [
        {"value": True, "label": "Yes", "help": "it is on", "default": True},
        {"value": False, "label": "No", "help": "it is off", "default": False},
    ]
    bare = Option("speed_mode", "x", "h", ("x", "y"))
    assert bare.values == ("x", "y") and bare.coerce("y") == "y"
    assert bare.to_dict()["label"] == "speed mode"
    assert Option("n", 1, "count").to_dict()["choices"] is None


def test_every_game_option_with_choices_labels_each_one() -> None:
    for game in games().values():
        for option in game.options:
            assert option.label, (game.id, option.name)
            for choice in option.choice_list():
                assert isinstance(option.choices[0], Choice), (game.id, option.name)
                assert choice.label != str(choice.value) and choice.help
            if option.choices is not None:
                assert option.default in option.values
