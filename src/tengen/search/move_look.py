"""The orthodox move checked by search (`tengen.endgame.move_check.MoveLook`): each candidate's score lead
for the mover by a fresh MCTS of `visits` from the position after it (`tengen.search.mcts`, PUCT over the
analysis's evaluator, a fixed seed), so the recommended move is the orthodox one unless a search finds one
of the network's likeliest moves (`alternatives`) better by more than the margin."""
from __future__ import annotations

from typing import Sequence

from tengen.go.board import Board
from tengen.go.coords import Move, Point
from tengen.search.mcts import Search
from tengen.search.results import SearchConfig, SearchResult

ALTERNATIVES = 3  # the network's likeliest moves compared with the orthodox one: four candidates searched
SEARCH_MARGIN = 0.5  # points; a search of this size moves by about half a point between equal moves


class SearchLook:
    """`leads_after` by search: the root's score lead after each move, from the mover's side."""

    def __init__(self, evaluator, visits: int, seed: int = 0, margin: float = SEARCH_MARGIN,
                 alternatives: int = ALTERNATIVES):
        self.visits, self.margin, self.alternatives = visits, margin, alternatives
        self.how = f"by a {visits}-visit search after each"
        self._search = Search(evaluator, SearchConfig(visits=visits, seed=seed))

    def leads_after(self, board: Board, moves: Sequence[Point]) -> list[float]:
        # the opponent moves next: its lead, negated, is the mover's
        return [-search_after(self._search, board, move, self.visits).score_lead for move in moves]


def search_after(search: Search, board: Board, move: Move, visits: int) -> SearchResult:
    """A fresh search of `visits` from the position after the side to play plays `move` (None: a pass);
    its values are the opponent's, who moves next."""
    after = board.copy()
    after.play(board.to_play, move)
    search.clear()
    return search.run(after, visits=visits)
