"""Examples taught by the exact solver (issue 39 item 2): cut-out diagrams on an empty board, each colour's
best local move while the region is hot, the answer label from whether the last move was sente, "no move"
once it is cold, nothing where the solver gives no exact value; shards that resume; the training mix."""
from __future__ import annotations

import math
import random

import numpy as np

from tengen.eval.localnet.compact import NO_MOVE, POINTS, unflat
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import from_gtp, to_gtp
from tengen.train.localdata.dataset import Examples
from tengen.train.localdata.lesson_shards import build_lessons
from tengen.train.localdata.lessons import MAX_EMPTY, Shape, TeachConfig, random_shape, teach
from tengen.eval.localnet.lesson_store import lesson_paths, load_lessons
from tengen.train.localnet.training import TrainConfig, mixed_weights, train


def shape(black: str, white: str, region: str) -> Shape:
    pts = lambda text: [from_gtp(v, 19, 19) for v in text.split()]  # noqa: E731
    return Shape(pts(black), pts(white), pts(region))


def lesson(rows) -> list[tuple[str, str, int]]:
    """Each row as (local moves so far, target, answer label) in GTP words."""
    out = []
    for r in rows:
        moves = [("B" if c == BLACK else "W") + to_gtp(unflat(p), 19)
                 for p, c in zip(r["recent"], r["recent_color"]) if p >= 0][::-1]
        t = int(r["target"])
        target = "none" if t == NO_MOVE else ("B" if t >= POINTS else "W") + to_gtp(unflat(t % POINTS), 19)
        out.append((" ".join(moves), target, int(r["answer"])))
    return out


# The first-line hane-connect on an open board (docs/LOCAL_GAME.md): gote 2, Black's hane at F1 or White's
# at E1 settles it.
#  2 . X X X X O O O O
#  1 . . . . . . . . .
HANE_CONNECT = shape("B2 C2 D2 E2", "F2 G2 H2 J2", "D1 E1 F1 G1")

# White's F2 after Black's E1 is sente here: Black answers at G2 (found among the generator's shapes).
#  3 . . . . O X X X .
#  2 . . O O X . . X X
#  1 . . O . . . . . X
SENTE_REPLY = shape("E2 F3 G3 H3 H2 J2 J1", "E3 C2 D2 C1", "F2 G2 D1 E1 F1 G1 H1")

# Walls of one colour only: Black's territory, nothing to play.
TERRITORY = shape("B2 C2 D2 E2 F2 F1", "", "B1 C1 D1 E1")


def test_a_gote_region_teaches_each_colours_best_move_then_no_move():
    assert lesson(teach(HANE_CONNECT)) == [
        ("", "BF1", -1), ("", "WE1", -1),  # the root: both colours' orthodox moves, no answer label
        ("BF1", "none", -1),  # the hane settles it
        ("WE1", "none", -1),
    ]


def test_the_reply_to_a_sente_move_is_labelled_an_answer_and_a_gote_moves_is_not():
    rows = lesson(teach(SENTE_REPLY))
    assert ("BE1 WF2", "BG2", 1) in rows  # White's F2 left the region hotter: Black must answer
    assert ("BE1", "WF2", 0) in rows  # Black's E1 did not: White's next local move is no answer
    assert ("BE1", "BF2", 0) in rows  # the mover's own follow-up is never an answer


def test_a_cold_region_teaches_no_move():
    assert lesson(teach(TERRITORY)) == [("", "none", -1)]


def test_a_region_the_solver_cannot_value_exactly_teaches_nothing():
    assert teach(SENTE_REPLY, TeachConfig(max_nodes=5)) == []  # too large for the budget: no guess taught


def test_random_shapes_are_edge_regions_with_both_walls_and_at_most_14_empty_points():
    rng = random.Random(3)
    shapes = [s for s in (random_shape(rng) for _ in range(200)) if s is not None]
    assert len(shapes) > 150
    for s in shapes:
        stones = set(s.black) | set(s.white)
        assert 0 < sum(1 for p in s.region if p not in stones) <= MAX_EMPTY
        assert any(p[0] == 18 for p in s.region)  # on the first line
    assert sum(1 for s in shapes if s.black and s.white) > 0.8 * len(shapes)


def test_lesson_shards_resume_and_load(tmp_path):
    first = build_lessons(tmp_path, shapes=12, seed=2, shard_shapes=6, workers=1)
    assert first["shards"] == 2 and first["examples"] > 0
    shard = lesson_paths(tmp_path)[0]
    before = shard.read_bytes()
    again = build_lessons(tmp_path, shapes=12, seed=2, shard_shapes=6, workers=1)
    assert again["examples"] == first["examples"] and shard.read_bytes() == before  # skipped, not redone
    arrays = load_lessons(tmp_path)
    assert len(arrays["target"]) == first["examples"] and arrays["region"].shape[1] == POINTS


def test_the_solved_share_of_each_batch():
    weights = mixed_weights(np.array([0.5, 0.25, 0.25]), solved_rows=4, share=0.2)
    assert math.isclose(weights[:3].sum(), 0.8) and np.allclose(weights[3:], 0.05)
    assert np.array_equal(mixed_weights(np.array([1.0]), solved_rows=2, share=0.0), [1.0, 0.0, 0.0])


def test_training_with_solved_examples_reports_their_top1_and_starts_from_given_weights(tmp_path):
    from tests.train.test_localnet_training import _tiny_examples

    games = _tiny_examples()
    games.arrays["cutout"] = np.zeros(len(games), np.int8)  # as built datasets carry it; lessons do not
    solved = Examples(load_lessons(_built(tmp_path)))
    cfg = TrainConfig(steps=2, batch=8, eval_every=1, blocks=1, channels=8, device="cpu", val_examples=50,
                      solved_share=0.5)
    best = train(cfg, games, tmp_path / "a.pt", tmp_path / "run-a", log=lambda m: None, solved=solved)
    assert "solved_top1" in best and 0 <= best["solved_top1"] <= 1
    resumed = TrainConfig(**{**cfg.__dict__, "init": str(tmp_path / "a.pt"), "blocks": 2})
    logs: list[str] = []
    train(resumed, games, tmp_path / "b.pt", tmp_path / "run-b", log=logs.append, solved=solved)
    from tengen.eval.localnet.weights import load_weights

    model, _ = load_weights(tmp_path / "b.pt")
    assert model.config.blocks == 1  # the given weights' trunk, not the config's


def _built(root):
    build_lessons(root, shapes=60, seed=4, shard_shapes=60, workers=1)
    return root
