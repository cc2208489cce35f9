"""The additive move prior in the search (issue 25): its formula, its effect, and prior_weight 0 changing nothing;
the PBN's prior builder on the committed models."""
from __future__ import annotations

import math

import numpy as np
import pytest

from tengen.eval.pbn.inference import predict_board
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.search import Search, SearchConfig
from tengen.search.node import Node

from standin_networks import UniformNetwork
from tengen.search.pbn_prior import combine_regions, load_prior_models, pbn_move_prior

TARGET = (9, 9)  # the centre: a move no region of the PBN covers, so only the stand-in prior favours it


FlatEvaluator = UniformNetwork  # uniform policy, an even game everywhere: only the priors steer the search


class ConcentratedPrior:
    """All of the prior on one point; counts its calls."""

    def __init__(self, point=TARGET, as_dict: bool = False):
        self.point, self.as_dict, self.calls = point, as_dict, 0

    def __call__(self, board: Board):
        self.calls += 1
        if self.as_dict:
            return {self.point: 1.0}
        grid = np.zeros((board.height, board.width))
        grid[self.point] = 1.0
        return grid


def _visits(result) -> dict:
    return {m.move: m.visits for m in result.moves}


def _board(size: int = 19) -> Board:
    board = Board(size)
    board.play(BLACK, (3, 3))
    board.play(WHITE, (15, 15))
    return board


@pytest.mark.parametrize("as_dict", [False, True])
def test_a_concentrated_prior_draws_visits_to_its_move(as_dict):
    config = SearchConfig(visits=48, batch_size=4, seed=1)
    plain = Search(FlatEvaluator(), config).run(_board())
    prior = ConcentratedPrior(as_dict=as_dict)
    weighted = Search(FlatEvaluator(), SearchConfig(visits=48, batch_size=4, seed=1, prior_weight=2.0),
                      move_prior=prior).run(_board())
    assert _visits(weighted).get(TARGET, 0) > _visits(plain).get(TARGET, 0)
    assert weighted.best == TARGET
    assert prior.calls >= 1


def test_prior_weight_0_leaves_the_search_as_it_was():
    prior = ConcentratedPrior()
    base = Search(FlatEvaluator(), SearchConfig(visits=40, batch_size=4, seed=2)).run(_board())
    off = Search(FlatEvaluator(), SearchConfig(visits=40, batch_size=4, seed=2, prior_weight=0.0),
                 move_prior=prior).run(_board())
    assert _visits(off) == _visits(base) and off.best == base.best
    assert [m.winrate for m in off.moves] == [m.winrate for m in base.moves]
    assert prior.calls == 0


def test_the_prior_is_computed_on_19x19_only():
    prior = ConcentratedPrior(point=(4, 4))
    search = Search(FlatEvaluator(), SearchConfig(visits=16, batch_size=4, prior_weight=5.0), move_prior=prior)
    search.run(Board(9))
    assert prior.calls == 0
    search.clear()
    search.run(_board(19))
    assert prior.calls >= 1


def test_prior_weight_is_checked():
    for bad in (-0.1, math.inf, math.nan):
        with pytest.raises(ValueError):
            SearchConfig(prior_weight=bad)


def _hand_node() -> Node:
    """A root with three candidates: a well-visited good move, a little-visited poor one, an unvisited one."""
    node = Node(None, BLACK, 1.0)
    node.moves = [(0, 0), (0, 1), (0, 2)]
    node.priors = np.array([0.7, 0.25, 0.05])
    node.children = [None, None, None]
    node.expanded = True
    for _ in range(35):
        node.add(0.6, 0.0, None)
    a = Node((0, 0), WHITE, 0.7, node)
    for _ in range(30):
        a.add(0.7, 0.0, None)
    b = Node((0, 1), WHITE, 0.25, node)
    for _ in range(4):
        b.add(0.3, 0.0, None)
    node.children[0], node.children[1] = a, b
    node.move_prior = np.array([0.0, 0.9, 0.0])
    return node


def _score(cfg: SearchConfig, node: Node, i: int) -> float:
    """The docstring's formula: Q + c_puct P sqrt(N) / (1 + n) + prior_weight p / (1 + n)."""
    child = node.children[i]
    n = 0 if child is None else child.visits
    if n == 0:
        q = node.utility_for(node.to_play, cfg.score_utility) - cfg.fpu_reduction
    else:
        q = child.utility_for(node.to_play, cfg.score_utility)
    return (q + cfg.c_puct * node.priors[i] * math.sqrt(node.visits) / (1 + n)
            + cfg.prior_weight * node.move_prior[i] / (1 + n))


def test_the_formula_on_a_hand_built_node():
    node = _hand_node()
    cfg0 = SearchConfig(score_utility=0.0)
    s0 = [_score(cfg0, node, i) for i in range(3)]
    assert int(np.argmax(s0)) == 0
    # the weight at which move 1's bonus 0.9 w / (1 + 4) overtakes move 0's lead (move 0's prior term is 0)
    w_star = (s0[0] - s0[1]) / (0.9 / (1 + node.children[1].visits))
    for w, expected in ((0.98 * w_star, 0), (1.02 * w_star, 1)):
        cfg = SearchConfig(score_utility=0.0, prior_weight=w)
        search = Search(FlatEvaluator(), cfg)
        scores = [_score(cfg, node, i) for i in range(3)]
        assert int(np.argmax(scores)) == expected
        assert search._pick(node) == expected
    node.move_prior = None  # a node expanded without the prior: the plain PUCT
    assert Search(FlatEvaluator(), SearchConfig(score_utility=0.0, prior_weight=100.0))._pick(node) == 0


def test_the_pbn_prior_on_a_19x19_board():
    board = _board()
    prior = pbn_move_prior()
    grid = prior(board)
    assert grid.shape == (19, 19)
    assert grid[3, 3] == 0 and grid[15, 15] == 0  # stones
    assert grid[9, 9] == 0  # outside every region
    assert 0 < grid.max() <= 1 and grid.min() >= 0
    per_kind = predict_board(load_prior_models(), board.array(), board.to_play)
    stacked = np.concatenate([on_board for _, on_board in per_kind.values()])
    assert np.allclose(grid, stacked.max(axis=0))
    mean = combine_regions(per_kind, "mean")
    assert mean.shape == (19, 19) and (mean <= grid + 1e-12).all()
    assert pbn_move_prior(combine="mean")(board) == pytest.approx(mean)
    assert not pbn_move_prior()(Board(9)).any()
    with pytest.raises(ValueError):
        pbn_move_prior(combine="median")


def test_the_pbn_prior_steers_the_search_to_the_corners():
    board = _board()
    config = SearchConfig(visits=40, batch_size=4, seed=3, prior_weight=3.0)
    result = Search(FlatEvaluator(), config, move_prior=pbn_move_prior()).run(board)
    r, c = result.best
    assert min(r, c, 18 - r, 18 - c) <= 4  # a move in a side or corner region
