"""The batch engine's compiled passes over a chunk's lanes (rounds × seats, flat), held to
the numpy passes they replace: per lane, or per round for each of its seats."""

from __future__ import annotations

import numpy as np
import pytest

from validator.interpreter.batch_decisions import _said
from validator.interpreter.batch_hands import RANK_BIT, pick
from validator.interpreter.batch_kernels import (
    ask_draw,
    card_counts,
    cards_of_rows,
    changed_rows,
    compare_keys,
    envy_lanes,
    follow_rule,
    one_stake,
    pay_fee,
    paytable_lanes,
    place_wager,
    put_cards,
    rank_masks,
)

N, S = 257, 5


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


@pytest.mark.parametrize("cards", [0, 1, 4, 7])
def test_a_seats_ranks_are_each_card_ranks_bit_no_card_none(cards: int) -> None:
    held = _rng(cards).integers(-1, 52, (N, S, cards)).astype(np.int8)
    expected = np.zeros((N, S), np.uint16)
    for j in range(cards):
        expected |= RANK_BIT.take(held[:, :, j])
    out = np.empty((N, S), np.uint16)
    rank_masks(held, RANK_BIT, out)
    assert (out == expected).all()
    rank_masks(held.repeat(2, axis=2)[:, :, ::2], RANK_BIT, out)  # any layout
    assert (out == expected).all()


@pytest.mark.parametrize("a_round", [False, True])
@pytest.mark.parametrize("b_round", [False, True])
def test_two_hands_compared_at_every_lane_by_their_keys(a_round: bool, b_round: bool) -> None:
    rng = _rng(int(a_round) * 2 + int(b_round))
    a = rng.integers(0, 6, N if a_round else (N, S))
    b = rng.integers(0, 6, N if b_round else (N, S))
    wide_a = np.broadcast_to(a[:, None], (N, S)) if a_round else a
    wide_b = np.broadcast_to(b[:, None], (N, S)) if b_round else b
    out = np.empty((N, S), np.int8)
    compare_keys(
        a.reshape(-1), S if a_round else 0, b.reshape(-1), S if b_round else 0, out.reshape(-1)
    )
    assert (out == np.sign(wide_a - wide_b)).all()
    assert {-1, 0, 1} <= set(out.reshape(-1).tolist())


@pytest.mark.parametrize("per_round", [False, True])
def test_a_paytables_row_by_the_category_held_at_the_lanes_only(per_round: bool) -> None:
    rng = _rng(7 + per_round)
    held = rng.integers(-1, 6, N if per_round else (N, S)).astype(np.int8)
    code_of_held = np.array([0, 0, 1, 2, 0, 3, 4], np.int64)  # by category + 1; 0: no row
    ret_of = np.array([0, 10, 20, 30, 40], np.int64)
    house_of = np.array([5, -10, -20, -30, -40], np.int64)
    by_lane = np.array([False, False, True, False, False])
    m = rng.random((N, S)) < 0.6
    ret0, house0 = rng.integers(0, 99, (N, S)), rng.integers(0, 99, (N, S))
    ret, house = ret0.copy(), house0.copy()
    none, special = paytable_lanes(
        m.reshape(-1),
        held.reshape(-1),
        S if per_round else 0,
        code_of_held,
        ret_of,
        house_of,
        by_lane,
        ret.reshape(-1),
        house.reshape(-1),
    )
    code = code_of_held[(np.broadcast_to(held[:, None], (N, S)) if per_round else held) + 1]
    assert (ret == np.where(m, ret_of[code], ret0)).all()
    assert (house == np.where(m, house_of[code], house0)).all()
    assert none == int((m & (code == 0)).sum()) > 0
    assert special == int((m & by_lane[code]).sum()) > 0


def test_a_wager_placed_at_the_lanes_and_added_to_each_rounds_wagered() -> None:
    rng = _rng(11)
    m = rng.random((N, S)) < 0.5
    multiple = rng.integers(-1, 4, (N, S))
    lo, hi = np.ones((N, S), np.int64), np.full((N, S), 3, np.int64)
    base = rng.integers(1, 9, (N, S)) * 1_000_000
    stake, wagered = np.zeros((N, S), np.int64), np.zeros(N, np.int64)
    bad = place_wager(
        m.reshape(-1),
        multiple.reshape(-1),
        lo.reshape(-1),
        hi.reshape(-1),
        base.reshape(-1),
        stake.reshape(-1),
        wagered,
    )
    mult = np.where(multiple == 0, lo, np.where(multiple == -1, hi, multiple))
    placed = np.where(m, base * mult, 0)
    assert (stake == placed).all()
    assert (wagered == placed.sum(axis=1)).all()
    assert bad == int((m & ((mult < lo) | (mult > hi))).sum())


@pytest.mark.parametrize("was", [np.int64, np.bool_])
def test_what_each_rule_says_at_every_lane_by_the_rule_it_follows(was: type) -> None:
    """A decision table's rows as said at each lane (``which``: the row; 0 none), gathered
    as numpy's ``take`` gathers them; where a decision was made as played, what it was."""
    rng = _rng(13)
    which = rng.integers(0, 4, (N, S)).astype(np.int16)
    values = (False, True, True, False) if was is np.bool_ else (-1, 3, 200, -7)
    before: np.ndarray = rng.integers(0, 2, (N, S)).astype(was)
    expected: np.ndarray = np.array(values, dtype=was).take(which)
    out = _said(values, which, None, before)
    assert out.dtype == before.dtype and (out == expected).all()
    got = rng.random((N, S)) < 0.5
    assert (_said(values, which, got, before) == np.where(got, expected, before)).all()


def test_a_seats_hand_is_its_cards_then_the_tables_shared_by_every_seat() -> None:
    """A hand of a seat's cards and the table's (the board, a dealer's): the parts side by
    side, the table's repeated at each seat, as numpy concatenates them."""
    rng = _rng(17)
    own = rng.integers(-1, 52, (N, S, 4)).astype(np.int8)[:, :, :3]  # any layout
    board = rng.integers(-1, 52, (N, 5)).astype(np.int8)
    other = rng.integers(-1, 52, (N, 2)).astype(np.int8)
    out = np.full((N, S, 10), 99, np.int8)
    put_cards(board[:, None, :], 0, out)
    put_cards(own, 5, out)
    put_cards(other[:, None, :], 8, out)
    wide = [np.broadcast_to(a[:, None, :], (N, S, a.shape[1])) for a in (board, other)]
    assert (out == np.concatenate([wide[0], own, wide[1]], axis=-1)).all()


def test_hands_of_several_sizes_each_size_its_cards_in_their_order() -> None:
    """Hands with places of no card (-1: a sixth card not bought, a card exchanged away):
    each row's cards counted, and the rows of a size read as their cards in order."""
    rng = _rng(19)
    flat = rng.integers(0, 52, (N, 6)).astype(np.int8)
    flat[rng.random((N, 6)) < 0.2] = -1
    present = flat >= 0
    counts = np.empty(N, np.int64)
    card_counts(flat, None, counts)
    assert (counts == present.sum(axis=1)).all()
    some = np.flatnonzero(rng.random(N) < 0.5)  # the rows named, read where they are
    of_some = np.full(some.size, -7, np.int64)
    card_counts(flat, some, of_some)
    assert (of_some == present[some].sum(axis=1)).all()
    for size in range(1, 7):  # a hand of no card is read by its suits instead
        rows = np.flatnonzero(counts == size)
        out = np.empty((rows.size, size), np.int8)
        cards_of_rows(flat, rows, out)
        assert (out == flat[rows][present[rows]].reshape(-1, size)).all()
    assert len(set(counts.tolist())) >= 4


@pytest.mark.parametrize(
    ("stakes", "one"),
    [
        ([0, 0, 0], 0),
        ([0, 5, 5, 0, 5], 5),
        ([5, 5, 5], 5),
        ([5, 0, 10], -1),
        ([10, 5], -1),
        ([0, -5, -5], -1),
    ],
)
def test_the_one_stake_every_lane_wagered(stakes: list[int], one: int) -> None:
    """The stake a paytable's row pays at one product: where every lane wagered it or
    nothing (what ``max`` and a test of every lane against it and 0 find), else none."""
    st = np.array(stakes, np.int64)
    most = int(st.max())
    alike = bool(np.all((st == most) | (st == 0))) and most >= 0
    assert one_stake(st) == one == (most if alike else -1)
    lanes = _rng(len(stakes)).choice(st, size=N * S) if stakes else st
    most = int(lanes.max())
    alike = bool(np.all((lanes == most) | (lanes == 0))) and most >= 0
    assert one_stake(lanes) == (most if alike else -1)


def test_the_lanes_a_rule_holds_at_follow_it_and_are_taken_out_of_the_open() -> None:
    """A strategy's rows in turn: each row's lanes (a part of those no row took yet) get
    the row's number and leave the open lanes, as ``which += m * k; open_ ^= m`` does; a
    row holding nowhere changes nothing and says so."""
    rng = _rng(7)
    which, open_ = np.zeros(N * S, np.int16), np.ones(N * S, bool)
    want_which, want_open = which.copy(), open_.copy()
    for k in range(1, 6):
        m = open_ & (rng.random(N * S) < 0.3) if k != 3 else np.zeros(N * S, bool)
        assert follow_rule(m, k, which, open_) == bool(m.any())
        want_which += m * np.int16(k)
        want_open ^= m
        assert (which == want_which).all() and (open_ == want_open).all()
    assert set(np.unique(which).tolist()) == {0, 1, 2, 4, 5}


@pytest.mark.parametrize("code_dtype", [np.int8, np.int64])
def test_what_every_other_seats_hand_pays_each_lane(code_dtype: type) -> None:
    """An Envy Bonus (§ 641a.11(c)(5)(v)(A); § 641a.12(d)(5)): at each lane, the sum over
    its round's other seats of the amount each holder's hand pays, as the numpy passes find
    it (every lane's amount, the round's sum, less the lane's own); a seat not holding pays
    nothing."""
    rng = _rng(11)
    held = rng.integers(-1, 9, (N, S)).astype(np.int8)
    code_of_held: np.ndarray = rng.integers(0, 4, 10).astype(code_dtype)  # by category + 1
    amounts = np.array([0, 5_000_000, 50_000_000, 1_000_000_000], np.int64)  # by row + 1
    holder = rng.random((N, S)) < 0.8
    each = amounts[code_of_held.take(held + 1)] * holder
    expected = (each.sum(axis=1)[:, None] - each).reshape(-1)
    idx = np.flatnonzero(rng.random(N * S) < 0.5)
    out = np.empty(idx.size, np.int64)
    envy_lanes(held.reshape(-1), S, code_of_held, amounts, holder.reshape(-1), idx, out)
    assert (out == expected[idx]).all()
    assert (out > 0).any()


def test_a_draw_asked_for_is_written_at_the_lanes_only() -> None:
    """The pending draw's five arrays where a draw option was chosen, as ``pick`` (numpy's
    select) writes them; elsewhere what they held."""
    rng = _rng(13)
    m = rng.random((N, S)) < 0.4
    keep = rng.integers(-1, 3, (N, S))
    paired, named = rng.random((N, S)) < 0.5, rng.random((N, S)) < 0.5
    option, kind = rng.integers(-1, 3, (N, S)), rng.integers(0, 3, (N, S))
    kept, was_paired, was_named = rng.integers(0, 5, (N, S)), paired[::-1].copy(), ~named
    want = [
        pick(m, 2, option), pick(m, 1, kind), pick(m, np.maximum(keep, 0), kept),
        pick(m, paired, was_paired), pick(m, named, was_named),
    ]  # fmt: skip
    o, k, kp = option.copy(), kind.copy(), kept.copy()
    pd, nd = was_paired.copy(), was_named.copy()
    ask_draw(
        m.reshape(-1), 2, 1, keep.reshape(-1), paired.reshape(-1), named.reshape(-1),
        o.reshape(-1), k.reshape(-1), kp.reshape(-1), pd.reshape(-1), nd.reshape(-1),
    )  # fmt: skip
    for g, w in zip([o, k, kp, pd, nd], want, strict=True):
        assert g.dtype == w.dtype and (g == w).all()


@pytest.mark.parametrize("added", [0, 1, 2])
def test_the_hands_whose_cards_changed_as_numpy_compares_them(added: int) -> None:
    """The rows whose cards differ from those before, a place the row had no card in read
    as -1 (a card added by a draw): in order, each once."""
    rng = _rng(added)
    before = rng.integers(-1, 52, (N * S, 5)).astype(np.int8)
    cards = np.concatenate([before, np.full((N * S, added), -1, np.int8)], axis=1)
    some = rng.random(N * S) < 0.5  # a card changed at one place of half the rows
    cards[some, rng.integers(0, cards.shape[1], int(some.sum()))] = rng.integers(
        -1, 52, int(some.sum())
    )
    was = np.concatenate([before, np.full((N * S, added), -1, np.int8)], axis=1)
    expected = np.flatnonzero((cards != was).any(axis=1))
    rows = np.full(N * S, -7, np.int64)
    got = rows[: changed_rows(cards, before, rows)]
    assert 0 < expected.size < N * S
    assert got.tolist() == expected.tolist()


def test_a_fee_paid_at_the_lanes_and_added_to_each_rounds_wagered_and_kept() -> None:
    """An Options fee (§ 589.11(d)(2)): the stake times the fee's multiple at the lanes that
    chose the option, added to their fees and to their round's money wagered and kept."""
    rng = _rng(589)
    m = rng.random((N, S)) < 0.4
    stake = rng.integers(0, 5, (N, S)) * 1_000_000
    fees = rng.integers(0, 3, (N, S)) * 1_000_000
    wagered = rng.integers(0, 9, N) * 1_000_000
    house = rng.integers(-9, 9, N) * 1_000_000
    fee = stake * 2 * m
    want = fees + fee, wagered + fee.sum(axis=1), house + fee.sum(axis=1)
    pay_fee(m.reshape(-1), stake.reshape(-1), 2, fees.reshape(-1), wagered, house)
    assert (fees == want[0]).all()
    assert (wagered == want[1]).all()
    assert (house == want[2]).all()
