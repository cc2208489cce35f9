"""The local-move network's training parts: the loss on tiny batches, the colour view of inputs and outputs,
the augmentations, and a two-step training smoke run on the CPU that writes loadable weights and resumes."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from tengen.eval.localnet.compact import EMPTY_CODE, NO_MOVE, POINTS, compact_row, stack_rows, target_index
from tengen.eval.localnet.infer import predict
from tengen.eval.localnet.planes import PLANES, build_planes, legal_mask, target_to_relative, tensors, to_absolute
from tengen.eval.localnet.weights import LocalNetWeightsError, load_weights
from tengen.go import BLACK, WHITE, Board
from tengen.train.localdata.dataset import Examples
from tengen.train.localnet.augment import apply_symmetries, jitter_mask, remove_far_stones, symmetry_maps
from tengen.train.localnet.loss import NO_MOVE_LAMBDA, local_move_loss
from tengen.train.localnet.metrics import auc, move_metrics
from tengen.train.localnet.training import TrainConfig, train


def test_cross_entropy_of_uniform_logits_is_log_723():
    logits = torch.zeros(2, 723)
    target = torch.tensor([5, 400])
    loss, parts = local_move_loss(logits, torch.zeros(2), target, torch.tensor([-1, -1]))
    assert float(parts["ce"]) == pytest.approx(math.log(723), rel=1e-5)
    assert float(parts["no_move_penalty"]) == 0.0 and float(parts["answer"]) == 0.0
    assert float(loss) == pytest.approx(math.log(723), rel=1e-5)


def test_no_move_targets_pay_lambda_times_the_move_mass():
    logits = torch.zeros(1, 723)
    logits[0, NO_MOVE] = math.log(722.0)  # P(no move) = 1/2
    _, parts = local_move_loss(logits, torch.zeros(1), torch.tensor([NO_MOVE]), torch.tensor([-1]))
    assert float(parts["ce"]) == pytest.approx(math.log(2.0), rel=1e-5)
    assert float(parts["no_move_penalty"]) == pytest.approx(NO_MOVE_LAMBDA * 0.5, rel=1e-5)


def test_the_answer_head_learns_only_from_labelled_examples():
    answer_logit = torch.tensor([0.0, 5.0, -5.0])
    _, parts = local_move_loss(torch.zeros(3, 723), answer_logit, torch.tensor([1, 2, 3]), torch.tensor([1, -1, -1]))
    assert float(parts["answer"]) == pytest.approx(math.log(2.0), rel=1e-5)


def test_weights_scale_each_example():
    logits = torch.zeros(2, 723)
    logits[1, 7] = 10.0
    target = torch.tensor([7, 7])
    _, even = local_move_loss(logits, torch.zeros(2), target, torch.tensor([-1, -1]))
    _, first = local_move_loss(logits, torch.zeros(2), target, torch.tensor([-1, -1]), weight=torch.tensor([1.0, 0.0]))
    assert float(first["ce"]) == pytest.approx(-math.log(1 / 723), rel=1e-5)
    assert float(even["ce"]) < float(first["ce"])


def _row(board, region, history=(), to_play=BLACK):
    return compact_row(board, region, history, to_play)


def _small_board() -> Board:
    board = Board(9)
    board.play(BLACK, (4, 4))
    board.play(WHITE, (4, 5))
    return board


def test_inputs_and_outputs_are_seen_from_the_side_to_move():
    board = _small_board()
    rows = stack_rows([_row(board, [(5, 5)], to_play=BLACK), _row(board, [(5, 5)], to_play=WHITE)])
    planes = build_planes(tensors(rows))
    assert planes.shape == (2, PLANES, 19, 19)
    assert planes[0, 1, 4, 4] == 1 and planes[0, 2, 4, 5] == 1  # Black to play: "mine" is Black
    assert planes[1, 1, 4, 5] == 1 and planes[1, 2, 4, 4] == 1  # White to play: "mine" is White
    assert planes[0, 0, :9, :9].all() and not planes[0, 0, 9:, :].any()  # a 9x9 board in the 19x19 canvas
    targets = torch.tensor([target_index(BLACK, (5, 5)), target_index(WHITE, (5, 5)), NO_MOVE])
    for to_play in (BLACK, WHITE):
        tp = torch.full((3,), to_play)
        rel = target_to_relative(targets, tp)
        one_hot = torch.nn.functional.one_hot(rel, 723).float()
        assert torch.equal(to_absolute(one_hot, tp).argmax(1), targets)
    legal = legal_mask(tensors(rows))
    assert not legal[0, 4 * 19 + 4] and legal[0, 5 * 19 + 5] and legal[0, NO_MOVE] and not legal[0, 10 * 19]


def test_symmetries_move_the_stones_the_region_the_history_and_the_target_together():
    board = Board(19)
    board.play(BLACK, (3, 15))
    board.play(WHITE, (2, 16))
    row = _row(board, [(2, 15), (3, 16)], history=((BLACK, (3, 15)), (WHITE, (2, 16))))
    t = tensors(stack_rows([row] * 8))
    target = torch.full((8,), target_index(BLACK, (2, 15)))
    maps = symmetry_maps()
    out, moved = apply_symmetries(t, target, torch.arange(8), maps)
    for s in range(8):
        point = int(moved[s]) - POINTS
        assert (int(out["codes"][s, point]) & 3) == EMPTY_CODE and bool(out["region"][s, point])
        assert (int(out["codes"][s, int(out["recent"][s, 0])]) & 3) == 3  # White's stone at the last move
        assert (int(out["codes"][s, int(out["recent"][s, 1])]) & 3) == 2
    assert len({int(m) for m in moved}) == 8


def test_far_stones_are_removed_and_near_ones_kept():
    board = Board(19)
    board.play(BLACK, (0, 0))
    board.play(WHITE, (18, 18))
    row = _row(board, [(1, 1)])
    t = tensors(stack_rows([row] * 64))
    gen = torch.Generator().manual_seed(0)
    out = remove_far_stones(t, torch.full((64,), NO_MOVE), gen, rate=1.0, keep_prob=0.0)
    assert ((out["codes"][:, 0] & 3) == 2).all()  # next to the region: kept
    assert ((out["codes"][:, 18 * 19 + 18] & 3) == EMPTY_CODE).all()  # far away: removed


def test_mask_jitter_grows_or_shrinks_the_region_by_one_step_and_never_empties_it():
    board = Board(19)
    block = [(r, c) for r in (8, 9, 10) for c in (8, 9, 10)]
    line = [(2, 2), (2, 3), (2, 4)]
    t = tensors(stack_rows([_row(board, block)] * 200 + [_row(board, line)] * 200))
    out = jitter_mask(t, torch.Generator().manual_seed(1), rate=0.3)
    sizes = out["region"].sum(1).tolist()
    assert set(sizes[:200]) == {1, 9, 21}  # eroded to the centre, kept, grown by a ring of 12
    assert set(sizes[200:]) == {3, 11}  # a line has no inside: erosion would empty it, so it is kept


def test_metrics():
    probs = np.zeros((3, 723))
    probs[0, 5] = 1.0
    probs[1, NO_MOVE] = 1.0
    probs[2, 400] = 0.6
    probs[2, 5] = 0.4
    m = move_metrics(probs, np.array([5, NO_MOVE, 5]))
    assert m["top1"] == pytest.approx(2 / 3) and m["top5"] == 1.0 and m["color_accuracy"] == 0.5
    assert m["no_move_precision"] == 1.0 and m["no_move_recall"] == 1.0
    assert auc(np.array([0.1, 0.9, 0.8]), np.array([0, 1, 1])) == 1.0
    assert auc(np.array([0.5, 0.5]), np.array([0, 1])) == 0.5


def _tiny_examples(n_games: int = 12, per_game: int = 6) -> Examples:
    rng = np.random.default_rng(0)
    board = _small_board()
    rows = []
    games = []
    for g in range(n_games):
        for k in range(per_game):
            region = [(5, 5), (5, 6)] if k % 2 else [(3, 3)]
            row = _row(board, region, to_play=BLACK if k % 3 else WHITE)
            row["target"] = np.int16(target_index(BLACK, region[0]) if k < per_game - 1 else NO_MOVE)
            row["answer"] = np.int8(k % 2 if k else -1)
            row["region_size"] = np.int16(len(region))
            row["seq_len"] = np.int16(per_game - 1)
            rows.append(row)
            games.append(g * 7919 + 3)  # keys spread over the splits
    arrays = {k: np.stack([r[k] for r in rows]) for k in rows[0]}
    arrays["game"] = np.asarray(games, dtype=np.uint64)
    rng.shuffle(arrays["game"])
    return Examples(arrays)


def test_two_training_steps_on_the_cpu_write_weights_that_load_and_a_run_resumes(tmp_path):
    examples = _tiny_examples()
    cfg = TrainConfig(steps=2, batch=8, eval_every=1, blocks=1, channels=8, device="cpu", val_examples=50)
    out, ckpt = tmp_path / "localnet.pt", tmp_path / "run"
    best = train(cfg, examples, out, ckpt, log=lambda m: None)
    assert best["step"] in (1, 2) and math.isfinite(best["loss"])
    model, meta = load_weights(out)
    assert meta["train"]["blocks"] == 1
    probs, answers = predict(model, examples.compact(slice(0, 4)))
    assert probs.shape == (4, 723) and np.allclose(probs.sum(1), 1, atol=1e-5) and answers.shape == (4,)
    logs = []
    train(TrainConfig(**{**cfg.__dict__, "steps": 3}), examples, out, ckpt, log=logs.append)
    assert logs[0].startswith("resumed at step 2") and any(line.startswith("step 3") for line in logs)


def test_a_weights_file_that_is_not_one_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "x.pt"
    bad.write_bytes(b"not torch")
    with pytest.raises(LocalNetWeightsError, match="cannot read"):
        load_weights(bad)
    with pytest.raises(LocalNetWeightsError, match="no such"):
        load_weights(tmp_path / "missing.pt")


def test_the_model_card_states_the_training_mix():
    from tengen.train.localnet.card import mix_line

    ds = {"examples": 1000, "cutout_examples": {"2": 150, "4": 50}}
    solved = {"examples": 300, "shapes": {"taught": 40, "not solved exactly": 10}}
    line = mix_line(ds, solved, 0.2)
    assert "whole-board positions 800 examples" in line
    assert "w=2: 150, w=4: 50" in line
    assert "300 examples from 40 taught shapes of 50 drawn, 20% of each batch" in line
    assert mix_line({"examples": 10}, None, 0.0).endswith("whole-board positions 10 examples; no solver lessons.")
