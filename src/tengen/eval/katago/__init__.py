"""KataGo networks in tengen's own PyTorch code: file reader/writer, input features, network, evaluator.

Typical use::

    from tengen.eval.katago import KataGoEvaluator
    ev = KataGoEvaluator()                 # default network, fetched into the cache on first use
    e = ev.evaluate([board])[0]            # an Evaluation, Black's view
    ev.winrate_by_komi(board)              # Black's win rate for komi -12.5 ... 27.5

`evaluate_sgf(path, move)` (`evaluate_board(board)` for a position in hand) serve the `tengen eval` command
(its text: `tengen.io.eval_report`), `score_game(boards, evaluator)` the `tengen score` command, `list_cached()` `tengen models`.
"""
from tengen.eval.katago.evaluator import DEFAULT_KOMIS, KataGoEvaluator
from tengen.eval.katago.final_score import FinalScore, dead_stones, score_final_position, score_game
from tengen.eval.katago.model_desc import ModelDesc, ModelFormatError, UnsupportedModelError
from tengen.eval.katago.model_reader import read_model
from tengen.eval.katago.model_writer import write_model
from tengen.eval.katago.one_position import evaluate_board, evaluate_sgf
from tengen.eval.katago.weights import ModelDownloadError, cache_dir, default_model_path, list_cached

__all__ = [
    "DEFAULT_KOMIS", "KataGoEvaluator", "ModelDesc", "ModelFormatError", "UnsupportedModelError", "read_model",
    "write_model", "evaluate_sgf", "evaluate_board", "ModelDownloadError", "cache_dir", "default_model_path",
    "list_cached", "FinalScore", "dead_stones", "score_final_position", "score_game",
]
