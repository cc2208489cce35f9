"""The search against exact minimax on tiny boards, and its bookkeeping: batches, tree reuse, komi, passes."""
from __future__ import annotations

import numpy as np
import pytest

from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.go.rules import Rules
from tengen.go.scoring import area_score
from tengen.search import Search, SearchConfig

from standin_networks import UniformNetwork


BlindEvaluator = UniformNetwork  # uniform policy, even game: the search finds only what the game ends say


class CountingEvaluator(BlindEvaluator):
    """A weak heuristic: the uniform policy, and a value leaning towards whoever leads the area count now."""

    def evaluate(self, boards):
        out = super().evaluate(boards)
        for b, e in zip(boards, out):
            margin = area_score(b).margin
            e.win = 0.5 + 0.3 * float(np.tanh(margin / 4.0))
            e.loss = 1.0 - e.win
        return out


def minimax(board: Board, depth: int = 14, memo: dict | None = None) -> int:
    """Black's result with perfect play (1 win, 0 loss) under area counting, for a game that ends by two
    passes; a game still running `depth` moves on counts as it stands (these positions settle well before).
    Positions repeat only through kos, so the memo keys on the stones, the side to move, passes and depth."""
    memo = {} if memo is None else memo
    passes = min(board.consecutive_passes, 2)
    key = (board.hash, board.to_play, passes, depth)
    if key in memo:
        return memo[key]
    if passes >= 2 or depth == 0:
        value = 1 if area_score(board).margin > 0 else 0
    else:
        color = board.to_play
        results = []
        for move in board.legal_moves(color) + [None]:
            board.play(color, move)
            results.append(minimax(board, depth - 1, memo))
            board.undo()
            if results[-1] == (1 if color == BLACK else 0):
                break
        value = max(results) if color == BLACK else min(results)
    memo[key] = value
    return value


def _value_after(board: Board, move) -> int:
    board.play(board.to_play, move)
    v = minimax(board)
    board.undo()
    return v


SIMPLE_KO = Rules("simple-ko area", 0.5, "area", "simple", False, 0)

# (diagram, side to move, komi): small endgames whose result hinges on the move chosen
TINY_POSITIONS = [
    ("""
     . X O
     X . O
     X O .
     """, BLACK, 0.5),
    ("""
     . X O
     X . O
     X O .
     """, WHITE, 0.5),
    ("""
     X X .
     O . X
     . O O
     """, BLACK, 0.5),
    ("""
     . . .
     X O .
     . . .
     """, WHITE, 0.5),
    ("""
     . X .
     X . O
     . O .
     """, BLACK, 1.5),
]


@pytest.mark.parametrize("diagram,to_play,komi", TINY_POSITIONS)
def test_search_finds_the_minimax_result_on_tiny_boards(diagram, to_play, komi):
    board = board_from_diagram(diagram, SIMPLE_KO.with_komi(komi))
    board.to_play = to_play
    exact = minimax(board.copy())
    result = Search(CountingEvaluator(), SearchConfig(visits=1500, batch_size=8, score_utility=0.0)).run(board)
    mover_wins = exact == 1 if to_play == BLACK else exact == 0
    chosen = _value_after(board.copy(), result.best)
    assert chosen == exact, f"search chose {result.best}, which does not keep the minimax result"
    # the root's value leans the right way
    assert (result.winrate > 0.5) == mover_wins


def test_batches_go_to_the_evaluator_together_and_visits_are_exact():
    board = Board(9)
    evaluator = BlindEvaluator()
    result = Search(evaluator, SearchConfig(visits=97, batch_size=16)).run(board)
    assert result.visits >= 97
    assert evaluator.rows == result.evaluations
    # one root call, then full batches of 16 (terminal leaves cost no network row)
    assert evaluator.calls <= 1 + -(-96 // 16) + 2
    assert sum(m.visits for m in result.moves) == result.visits - 1
    assert result.moves[0].visits == max(m.visits for m in result.moves)
    assert [m.order for m in result.moves] == list(range(len(result.moves)))
    assert result.moves[0].pv[0] == result.moves[0].move


def test_tree_is_reused_when_the_game_continues():
    board = Board(5, rules=Rules.tromp_taylor(0.5))
    search = Search(BlindEvaluator(), SearchConfig(visits=200, batch_size=4))
    first = search.run(board)
    move = first.best
    child_visits = first.moves[0].visits
    board.play(board.to_play, move)
    second = search.run(board, visits=1)  # the kept subtree already has more than one visit
    assert second.visits == child_visits
    other = Board(5, rules=Rules.tromp_taylor(0.5))
    other.play(BLACK, (0, 0))
    if move != (0, 0):
        assert search.run(other, visits=1).visits == 1  # a different game: a fresh tree


def test_komi_override_changes_the_exact_result():
    # Black owns 5 points, White 4: Black wins at komi 0.5, loses at komi 1.5 once both pass
    board = board_from_diagram("""
        X X O
        X X O
        X O O
        """, Rules.tromp_taylor(0.5))
    search = Search(BlindEvaluator(), SearchConfig(visits=300, batch_size=4, score_utility=0.0))
    assert search.run(board).winrate > 0.9
    search.clear()
    assert search.run(board, komi=1.5).winrate < 0.1
    assert search.result().komi == 1.5


def test_terminal_curve_is_backed_up_when_the_evaluator_gives_komi_labels():
    class CurveEvaluator(BlindEvaluator):
        def evaluate(self, boards):
            out = super().evaluate(boards)
            for e in out:
                e.winrate_by_komi = {k: 0.5 for k in (-0.5, 0.5, 1.5, 2.5)}
            return out

    board = board_from_diagram("""
        X X O
        X X O
        X O O
        """, Rules.tromp_taylor(0.5))
    result = Search(CurveEvaluator(), SearchConfig(visits=400, batch_size=4)).run(board)
    curve = result.winrate_by_komi
    assert curve is not None and sorted(curve) == [-0.5, 0.5, 1.5, 2.5]
    assert curve[-0.5] >= curve[0.5] >= curve[1.5] >= curve[2.5]  # Black's chances fall as komi rises
    assert curve[0.5] > 0.8 and curve[2.5] < 0.2


def test_stop_callback_and_progress_reports():
    board = Board(7)
    reports = []
    calls = {"n": 0}

    def stop():
        calls["n"] += 1
        return calls["n"] > 3

    result = Search(BlindEvaluator(), SearchConfig(visits=10_000, batch_size=8)).run(
        board, should_stop=stop, on_progress=reports.append, progress_every=0.0)
    assert result.visits <= 1 + 3 * 8
    assert reports and all(r.visits <= result.visits for r in reports)


def test_invalid_settings_are_refused():
    with pytest.raises(ValueError):
        SearchConfig(visits=0)
    with pytest.raises(ValueError):
        SearchConfig(batch_size=0)


def test_allowed_root_moves_restrict_the_root_only_and_an_empty_overlap_is_ignored():
    board = Board(5, rules=Rules.chinese(komi=0.5))
    allowed = {(2, 2), (0, 0), None}
    result = Search(BlindEvaluator(), SearchConfig(visits=40, batch_size=4, root_symmetries=1)).run(
        board, allowed_root_moves=allowed)
    assert {s.move for s in result.moves} <= allowed and sum(s.visits for s in result.moves) == result.visits - 1
    deeper = {m for s in result.moves for m in s.pv[1:2]}
    assert deeper - allowed  # the opponent's replies are not filtered
    unfiltered = Search(BlindEvaluator(), SearchConfig(visits=20, batch_size=4, root_symmetries=1)).run(
        board, allowed_root_moves={(9, 9)})  # no such candidate: the filter is ignored
    assert unfiltered.moves
