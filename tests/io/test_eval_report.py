"""`evaluate_sgf` and the text report behind `tengen eval`, on a tiny random network."""
import pytest

from tengen.eval.katago import KataGoEvaluator, evaluate_sgf
from tengen.io.eval_report import ownership_map, render_evaluation
from tengen.eval.katago.tiny import random_model

SGF = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[ee];W[cc];B[gc];W[cg];B[gg])"


@pytest.fixture(scope="module")
def tiny():
    return KataGoEvaluator(random_model(21, 15))


def test_evaluate_sgf_at_a_move(tmp_path, tiny):
    path = tmp_path / "g.sgf"
    path.write_text(SGF)
    board, ev = evaluate_sgf(path, move=2, evaluator=tiny, komi_sweep=False)
    assert len(board.moves) == 2 and ev.to_play == 1 and ev.komi == 6.5
    assert ev.winrate_by_komi is None
    board, ev = evaluate_sgf(path, evaluator=tiny)
    assert len(board.moves) == 5 and len(ev.winrate_by_komi) == 41
    assert min(ev.winrate_by_komi) == -12.5 and max(ev.winrate_by_komi) == 27.5


def test_report_text(tmp_path, tiny):
    path = tmp_path / "g.sgf"
    path.write_text(SGF)
    board, ev = evaluate_sgf(path, evaluator=tiny)
    text = render_evaluation(board, ev)
    assert "Black win rate:" in text and "Black win rate by komi:" in text
    assert "-12.5:" in text and "+27.5:" in text
    lines = ownership_map(board, ev).splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    assert lines[1].startswith(" 9 ") and lines[9].startswith(" 1 ")
    e5 = lines[1 + 4].split()[1 + 4]  # row 5 (index 4 from the top), column E
    assert e5 in ("X", "x")
