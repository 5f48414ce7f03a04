"""bot/engine/jsontext.py: the JSON every move writes and reads, through orjson, with the values
the standard library's json gives."""
from __future__ import annotations

import json

from bot.engine import jsontext


def test_the_same_values_as_json():
    value = {"b": [1, 2.5, None, True, "é"], "a": {"x": (1, 2)}, 3: "three"}
    assert jsontext.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))
    assert jsontext.copy(value) == json.loads(json.dumps(value))   # keys as text, tuples lists


def test_sorted_text_is_the_same_for_the_same_value():
    one, two = {"b": 1, "a": {"d": 2, "c": 3}}, {"a": {"c": 3, "d": 2}, "b": 1}
    assert jsontext.dumps(one, sort_keys=True) == jsontext.dumps(two, sort_keys=True)
    assert jsontext.digest(one) == jsontext.digest(two) != jsontext.digest({"b": 2})


def test_what_orjson_cannot_write_json_writes():
    big = {"n": 2 ** 70}
    assert jsontext.loads(jsontext.dumps(big)) == big
    assert jsontext.dumps({"o": object()}, default=lambda o: "obj") == '{"o":"obj"}'


def test_a_copy_is_deep():
    value = {"a": [[1], {"b": []}]}
    copy = jsontext.copy(value)
    copy["a"][0].append(2)
    copy["a"][1]["b"].append(3)
    assert value == {"a": [[1], {"b": []}]}
