"""The cards forming a hand's rank groups (a pair, two pairs, three or four of a kind, a full
house), found hand by hand in one compiled pass, held to the numpy passes it replaced: of
each group's rank, the highest suits first (the combination ``primitives.find`` picks)."""

from __future__ import annotations

import numpy as np
import pytest
from test_second_combination_pass import DECKS

from validator.model.registry import load_rankings
from validator.rankings.batch import CARD_BIT_OR_NONE, BatchEvaluator, Hands, _split
from validator.rankings.table_kernels import of_a_kind_cards

RANKINGS = load_rankings()


def numpy_cards(ev: BatchEvaluator, c: object, h: Hands) -> list[np.ndarray]:
    """The numpy passes the compiled one replaced."""
    out = [np.zeros(h.n, dtype=np.uint16) for _ in range(4)]
    ok, groups = ev._groups(c, h)  # type: ignore[arg-type]
    for g, p in zip(groups, c.of_a_kind or (), strict=True):  # type: ignore[attr-defined]
        bit = np.where(ok, np.left_shift(1, g.clip(0).astype(np.uint16)), 0)
        left = np.full(h.n, p, dtype=np.int8)
        for s in (3, 2, 1, 0):
            take = ((h.m[s] & bit) != 0) & (left > 0)
            out[s] |= np.where(take, bit, 0).astype(np.uint16)
            left -= take.astype(np.int8)
    return out


def hands(seed: int, deck: list[int], n: int = 3000, size: int = 7) -> Hands:
    rng = np.random.default_rng(seed)
    cards = np.array(deck)[np.argsort(rng.random((n, len(deck))), axis=1)[:, :size]]
    cards[rng.random(n) < 0.3, size - 1] = -1
    whole = np.zeros(n, dtype=np.uint64)
    for j in range(size):
        whole |= CARD_BIT_OR_NONE[cards[:, j]]
    return Hands(_split(whole))


@pytest.mark.parametrize("ranking_id", ["lunar", "five-card", "four-card", "lunar-super"])
def test_each_groups_cards_are_the_highest_suits_of_its_rank(ranking_id: str) -> None:
    """Every category made of rank groups, on hands rich in pairs, trips and quads: the
    same suit masks, hand by hand, as the numpy passes; and a hand holding none, none."""
    ev = BatchEvaluator(RANKINGS[ranking_id])
    cats = [c for c in ev.categories if c.shape == "of_a_kind"]
    assert cats
    seen: set[str] = set()
    for seed, deck in enumerate(DECKS):
        h = hands(seed + 40, deck)
        for c in cats:
            got = ev.found(c, h).cards()
            want = numpy_cards(ev, c, h)
            for s in range(4):
                assert (got[s] == want[s]).all(), (c.id, seed, s)
            if (np.bitwise_or.reduce(got) != 0).any():
                seen.add(c.id)
    assert seen == {c.id for c in cats}


def test_the_pass_takes_as_many_cards_as_the_group_asks_highest_suit_first() -> None:
    """Three aces (clubs, hearts, spades) asked as a pair: the spades and hearts; a hand
    that does not hold the pattern: no cards."""
    ace = np.uint16(1 << 12)
    three = np.array([ace, ace], np.uint16)
    out = np.full((4, 2), 7, dtype=np.uint16)
    groups = np.array([[12, 12]], dtype=np.int8)
    ok = np.array([True, False])
    of_a_kind_cards(three, np.zeros(2, np.uint16), three, three, groups, np.array([2]), ok, out)
    assert out[:, 0].tolist() == [0, 0, ace, ace]
    assert out[:, 1].tolist() == [0, 0, 0, 0]
