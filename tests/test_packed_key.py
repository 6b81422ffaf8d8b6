"""``pack_key`` keeps the order of the scalar hand keys (tuples, a prefix lower)."""

from hypothesis import given
from hypothesis import strategies as st

from validator.rankings.packed import pack_key, unpack_key

keys = st.lists(st.integers(-15, 15), min_size=1, max_size=7).map(tuple)


@given(keys, keys)
def test_packed_keys_compare_as_the_tuples(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    assert (pack_key(a) < pack_key(b)) == (a < b)
    assert (pack_key(a) == pack_key(b)) == (a == b)


@given(keys)
def test_a_packed_key_unpacks_to_itself(a: tuple[int, ...]) -> None:
    assert unpack_key(pack_key(a)) == a
