"""A game record replayed by the rules core: the positions at the phase moves (stones, prisoners, side to
move), and a record that breaks the rules skipped."""

from __future__ import annotations

import numpy as np
import pytest

from tengen.go.diagram import parse_diagram
from tengen.train.records.game import SkipGame, parse_game
from tengen.train.records.replay import extract_positions

from train_fixtures import capture_game, sgf

AFTER_30 = """
. X . . . . . . . . . . . . . . . . .
X . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . X . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . O O O . . . . . . . . . .
. . . . . . X X X . . . . . . . . . .
. . . . . . O O O . . . . . . . . . .
. . . . . . X X X . . . . . . . . . .
. . . . . . O O O . . . . . . . . . .
. . . . . . X X . . . . . . . . . . .
. . . . . . O O . . . . . . . . . . .
. . . . . . X X . . . . . . . . . . .
. . . . . . O O . . . . . . . . . . .
. . . O . . X X . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
"""


def test_positions_at_the_phases_with_prisoners_and_side_to_move():
    out = extract_positions(parse_game(capture_game(85)))
    assert [p[0] for p in out] == [30, 80]  # 85 moves: no position at 130 or 180
    n, stones, by_black, by_white, to_play = out[0]
    assert stones.dtype == np.int8
    np.testing.assert_array_equal(stones, parse_diagram(AFTER_30)[0])
    assert (by_black, by_white) == (1, 0)  # the A19 stone
    assert to_play == 1  # Black plays move 31


FILLER = [f"{'BW'[i % 2]}[{c}{r}]" for i, (c, r) in enumerate((c, r) for c in "klmno" for r in "klmnopqrs")]


@pytest.mark.parametrize("moves, reason", [
    (["B[aa]", "W[aa]"], "illegal_move_occupied"),
    (["B[ba]", "W[pp]", "B[ab]", "W[aa]"], "illegal_move_suicide"),
    # . X O .      Black takes at C18, White retakes at B18 at once
    # X O . O
    # . X O .
    (["B[ba]", "W[ca]", "B[ab]", "W[db]", "B[bc]", "W[cc]", "B[pp]", "W[bb]", "B[cb]", "W[bb]"], "illegal_move_ko"),
])
def test_a_record_that_breaks_the_rules_is_skipped(moves, reason):
    record = parse_game(sgf(moves + FILLER[len(moves) % 2:][:40]))
    with pytest.raises(SkipGame) as err:
        extract_positions(record)
    assert err.value.reason == reason
