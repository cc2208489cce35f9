"""The network's evaluation of one position (of an SGF file, or a board in hand), with a komi sweep: what
`tengen eval` shows (rendered by `tengen.io.eval_report`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from tengen.eval.evaluation import Evaluation


def evaluate_sgf(path: Union[str, Path], move: Optional[int] = None, evaluator=None, model=None,
                 komi_sweep: bool = True, opponent_policy: bool = False, symmetries: int = 1):
    """Evaluate the position after `move` moves of the SGF's main line (None = the end).

    Returns (board, evaluation). `evaluator` (a `KataGoEvaluator`) is reused when given; otherwise one is
    built on `model` (a path; None = the default network).
    """
    from tengen.go.sgf import load_game

    board = load_game(path).board_at(move)
    return board, evaluate_board(board, evaluator, model, komi_sweep, opponent_policy, symmetries)


def evaluate_board(board, evaluator=None, model=None, komi_sweep: bool = True, opponent_policy: bool = False,
                   symmetries: int = 1) -> Evaluation:
    """The network's evaluation of one position (`evaluator` reused when given, else built on `model`)."""
    from tengen.eval.katago.evaluator import DEFAULT_KOMIS, KataGoEvaluator

    ev = evaluator or KataGoEvaluator(model, symmetries=symmetries)
    return ev.evaluate([board], opponent_policy=opponent_policy, komi_sweep=DEFAULT_KOMIS if komi_sweep else None)[0]
