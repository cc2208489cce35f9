"""The value network: each of Wu et al.'s four variants (docs/ARCHITECTURE.md, Sources) as a configuration (output shapes, losses, a few steps
that fit a batch), its input planes, the komi-curve helpers, and the committed BV-ML-VN on three 19x19
diagrams whose ownership and winner are obvious (striped finished boards, a dead stone, colours swapped)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tengen.eval.localnet.compact import board_codes, flat
from tengen.eval.valuenet.curve import curve_at, expected_difference
from tengen.eval.valuenet.model import KOMIS, VARIANTS, ValueNet, ValueNetConfig
from tengen.eval.valuenet.planes import PLANES, value_planes
from tengen.eval.valuenet.weights import ValueNetWeightsError, default_weights, load_weights, save_weights
from tengen.go import BLACK, WHITE, Rules
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram
from tengen.train.valuenet.loss import komi_targets, ownership_loss, value_loss

# Columns: Black's territory and wall, White's wall and territory, in stripes two or three points wide, every
# stripe the board's full height: a finished game (Black 11 columns = 209 points, White 8 = 152, n = 57).
ROW = ". . X O . . O X . . X O . . O X . . ."
STRIPES = "\n".join([ROW] * 19)
BLACK_STRIPES = [c for c, ch in zip("ABCDEFGHJKLMNOPQRST", ROW.split()) if ch == "." and c in "ABJKRST"]
WHITE_STRIPES = [c for c, ch in zip("ABCDEFGHJKLMNOPQRST", ROW.split()) if ch == "." and c in "EFNO"]


def board(text: str, to_play: int = BLACK, komi: float = 7.5):
    b = board_from_diagram(text, Rules("records", komi, "area", "simple", False))
    b.to_play = to_play
    return b


def batch_of(boards) -> torch.Tensor:
    codes = torch.from_numpy(np.stack([board_codes(b) for b in boards]))
    return value_planes(codes, torch.tensor([b.to_play for b in boards]), torch.full((len(boards),), -1))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_has_its_heads_and_losses(variant):
    torch.manual_seed(0)
    model = ValueNet(ValueNetConfig.of_variant(variant, blocks=2, channels=16))
    planes = batch_of([board(STRIPES), board(STRIPES, WHITE)])
    value, own = model(planes)
    multi, bv = VARIANTS[variant]
    assert value.shape == (2, 41 if multi else 1)
    assert (own is not None) == bv and (own is None or own.shape == (2, 2, 361))
    n, komi = torch.tensor([57.0, 57.0]), torch.tensor([7.5, 7.5])
    loss = value_loss(value, n, komi)
    if bv:
        on_board = planes[:, 0].reshape(2, -1)
        target = torch.ones(2, 361)
        loss = loss + ownership_loss(own, target, target, on_board)
    assert torch.isfinite(loss) and loss.item() > 0
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    first = loss.item()
    for _ in range(30):  # the heads can fit one batch: the losses reach their targets
        value, own = model(planes)
        loss = value_loss(value, n, komi) + (ownership_loss(own, target, target, on_board) if bv else 0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert loss.item() < 0.5 * first


def test_planes_show_stones_liberties_ko_and_side_to_move():
    b = board(STRIPES, WHITE)
    planes = value_planes(torch.from_numpy(board_codes(b))[None], torch.tensor([WHITE]), torch.tensor([flat((0, 0))]))
    assert planes.shape == (1, PLANES, 19, 19)
    p = planes[0]
    assert p[0].sum() == 361 and p[1, 0, 2] == 1 and p[2, 0, 3] == 1 and p[3, 0, 0] == 1
    assert p[6, 0, 2] == 1 and p[9, 0, 3] == 1  # every wall chain has 3+ liberties
    assert p[10, 0, 0] == 1 and p[10].sum() == 1  # the ko point
    assert p[12].sum() == 361 and p[11].sum() == 0  # White to move


def test_curve_helpers_read_win_rate_and_expected_difference():
    step = (KOMIS < 3.0).astype(float)  # P(n > k) for n = 3 exactly
    assert expected_difference(step) == pytest.approx(3.0)
    assert curve_at(step, 2.5) == 1.0 and curve_at(step, 3.5) == 0.0 and curve_at(step, 3.0) == pytest.approx(0.5)
    assert curve_at(step, -40.0) == 1.0 and curve_at(step, 40.0) == 0.0  # clipped at the grid's ends
    assert komi_targets(torch.tensor([3.0]), torch.as_tensor(KOMIS))[0].numpy().tolist() == step.tolist()


def test_weights_round_trip_and_refuse_foreign_files(tmp_path):
    model = ValueNet(ValueNetConfig.of_variant("bvvn", blocks=1, channels=8))
    save_weights(tmp_path / "w.pt", model, {"note": "x"})
    loaded, meta = load_weights(tmp_path / "w.pt")
    assert loaded.config == model.config and meta == {"note": "x"}
    (tmp_path / "bad.pt").write_bytes(b"not a torch file")
    with pytest.raises(ValueNetWeightsError, match="cannot read"):
        load_weights(tmp_path / "bad.pt")
    with pytest.raises(ValueNetWeightsError, match="no such"):
        load_weights(tmp_path / "missing.pt")


needs_weights = pytest.mark.skipif(default_weights() is None, reason="no trained value network in models/valuenet")


@pytest.fixture(scope="module")
def evaluator():
    from tengen.eval.valuenet.evaluator import ValueNetEvaluator

    return ValueNetEvaluator()


def column_points(columns):
    return [from_gtp(f"{c}{r}", 19) for c in columns for r in range(1, 20)]


@needs_weights
@pytest.mark.parametrize("to_play", [BLACK, WHITE])
def test_striped_finished_board_ownership_and_winner(evaluator, to_play):
    ev = evaluator.evaluate([board(STRIPES, to_play)])[0]
    assert all(ev.ownership[p] > 0.5 for p in column_points(BLACK_STRIPES))
    assert all(ev.ownership[p] < -0.5 for p in column_points(WHITE_STRIPES))
    assert ev.win > 0.9 and ev.winrate_by_komi[27.5] > 0.5  # n = 57: Black wins at every komi of the grid


@needs_weights
def test_a_dead_stone_in_a_stripe_is_the_owner_s_point(evaluator):
    rows = [ROW] * 19
    rows[9] = "O" + ROW[1:]  # White's lone stone at A10 inside Black's two-point-wide stripe
    ev = evaluator.evaluate([board("\n".join(rows), BLACK)])[0]
    assert ev.ownership[from_gtp("A10", 19)] > 0.5


@needs_weights
def test_colours_swapped_white_wins(evaluator):
    swapped = STRIPES.replace("X", "b").replace("O", "X").replace("b", "O")
    ev = evaluator.evaluate([board(swapped, WHITE)])[0]
    assert ev.win < 0.1 and ev.score_lead < -20
    assert all(ev.ownership[p] < -0.5 for p in column_points(BLACK_STRIPES))


def test_evaluator_refuses_other_board_sizes(tmp_path):
    from tengen.eval.valuenet.evaluator import ValueNetError, ValueNetEvaluator

    save_weights(tmp_path / "w.pt", ValueNet(ValueNetConfig(blocks=1, channels=8)))
    ev = ValueNetEvaluator(tmp_path / "w.pt")
    with pytest.raises(ValueNetError, match="19x19"):
        ev.evaluate([board("\n".join([". . X O . . . . ."] * 9))])
