"""The action body's fast path accepts only what the serializer accepts, and means the same.

``action_input_fast`` skips building a serializer for the common well-formed body; the
serializer stays the statement of the rules (and of every error's wording). Hypothesis drives
both with arbitrary JSON bodies, near-misses included (bools for ints, strings of digits,
out-of-range columns, nulls, unknown keys)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.serializers import ActionInputSerializer, action_input_fast

KEYS = ["type", "from", "to", "count", "version", "extra"]
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=110),
    st.integers(),
    st.floats(allow_nan=False, min_value=-2, max_value=12),
    st.sampled_from(["move", "deal", "undo", "jump", "3", "", "MOVE"]),
    st.lists(st.integers(0, 9), max_size=2),
)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), values, max_size=6),
    st.fixed_dictionaries(  # well-formed moves, so the accepting side is well explored
        {"type": st.just("move"), "from": st.integers(0, 9)},
        optional={
            "to": st.one_of(st.none(), st.integers(-1, 10)),
            "count": values,
            "version": values,
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["deal", "undo"])}, optional={"version": values, "to": values}
    ),
    values,  # not an object at all
)


@settings(max_examples=1500, deadline=None)
@given(bodies)
def test_the_fast_path_accepts_only_what_the_serializer_accepts(body: Any) -> None:
    fast = action_input_fast(body)
    serializer = ActionInputSerializer(data=body)
    valid = serializer.is_valid()
    if fast is not None:
        assert valid, (body, serializer.errors)
        assert fast == dict(serializer.validated_data)


def test_the_fast_path_takes_the_bodies_clients_send() -> None:
    for body in (
        {"type": "deal"},
        {"type": "undo", "version": 7},
        {"type": "move", "from": 3},
        {"type": "move", "from": 0, "to": 9, "count": 13, "version": 0},
        {"type": "move", "from": 2, "to": None, "count": None},
    ):
        serializer = ActionInputSerializer(data=body)
        assert serializer.is_valid(), serializer.errors
        assert action_input_fast(body) == dict(serializer.validated_data) == body


def test_the_fast_path_leaves_every_error_to_the_serializer() -> None:
    for body in (
        {"type": "move"},
        {"type": "deal", "from": 1},
        {"type": "move", "from": True},
        {"type": "move", "from": "3"},
        {"type": "move", "from": 10},
        {"type": "undo", "version": -1},
        ["deal"],
    ):
        assert action_input_fast(body) is None, body
        assert not ActionInputSerializer(data=body).is_valid(), body
