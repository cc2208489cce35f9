"""Local diagrams as players study them: a few stones on an otherwise empty 19x19 board, the region marked
with SQ[], the correct variations as SGF children. `tengen analyze --predictor oracle --leaves exact`
must give the hand-verified values (area scoring: count = mean, temperature, type, first moves).

Hand verification (area counts over the marked points; forced replies elsewhere are ±inf threats):
- hane-connect: B E1, W F1, B D1 -> +2; W D1, B C1, W E1 -> -2: {{inf|{2|-inf}}|{{inf|-2}|-inf}}: 0, t 2, gote.
- sente hane: B E1, W F1 -> 0; W E1 -> -2: {{inf|0}|-2}: mean 0, t 2, Black sente.
- capture or connect: B E1 (captures D1), W F1, B D1 -> +2; W E1 (connects) -> -2: mean 0, t 2, gote.
- ko: B E1 takes, B D1 connects -> +2, White's retake is banned; W E1 connects -> -2: mean -2/3, t 4/3, ko.
- first-line corridor (A1-D1 under Black's wall): B D1 -> +4; W D1, B C1 -> +2; W D1, W C1, B B1 -> 0;
  W D1, W C1, W B1 -> -3 (A1 dame): {4 | {2 | {0 | -3}}}: mean 17/8, t 15/8, gote.
What each side's first move leaves (the follow-up: the temperature after it): in the hand trees a forced
reply is a threat ("threat": inf), so a hane leaves a threat; the exact solver plays the replies out, so after
the hane-connect's hane nothing gains any more (temperature 0) and after capture-or-connect's capture the
count is settled. White's corridor push leaves 7/4 (Black's block C1 or White's next push), just below the
push's own 15/8: gote by the thermograph, nearly sente ("settled": a number, temperature below 0).
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from sgfmill import sgf as sgfmill_sgf

from tengen.cli import main
from tengen.go import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.go.diagram import parse_diagram

SIZE = 19

DIAGRAMS = [
    dict(
        name="first-line hane-connect",
        diagram="""
            X X X X O O O O
            . . . . . . . .
        """,
        region="C1 D1 E1 F1",
        variations={"B E1": {"W F1": {"B D1": {}}}, "W D1": {"B C1": {"W E1": {}}}},
        count=0, temperature=2, kind="gote", black="E1", white="D1",
        after_tree=("threat", "threat"), after_exact=(0, 0),
    ),
    dict(
        name="sente hane",
        diagram="""
            . . . X O O O O
            . . . X . . . .
        """,
        region="E1 F1",
        variations={"B E1": {"W F1": {}}, "W E1": {}},
        count=0, temperature=2, kind="black_sente", black="E1", white="E1",
        after_tree=("threat", "settled"), after_exact=("threat", "settled"),
    ),
    dict(
        name="capture or connect",
        diagram="""
            . . . X O O O O
            . . X O . . . .
        """,
        region="C1 D1 E1 F1",
        variations={"B E1": {"W F1": {"B D1": {}}}, "W E1": {}},
        count=0, temperature=2, kind="gote", black="E1", white="E1",
        after_tree=("threat", "settled"), after_exact=("settled", "settled"),
    ),
    dict(
        name="ko",
        diagram="""
            . . . X O O O O
            . . X O . O . .
        """,
        region="C1 D1 E1 F1",
        variations={"B E1": {"B D1": {}, "W D1": {}}, "W E1": {}},
        count=-2 / 3, temperature=4 / 3, kind="ko", black="E1", white="E1",
        after_tree=(4 / 3, "settled"), after_exact=(4 / 3, "settled"),
    ),
    dict(
        name="first-line corridor",
        diagram="""
            X X X X O O O O
            . . . . O . . .
        """,
        region="A1 B1 C1 D1",
        variations={"B D1": {}, "W D1": {"B C1": {}, "W C1": {"B B1": {}, "W B1": {}}}},
        count=17 / 8, temperature=15 / 8, kind="gote", black="D1", white="D1",
        after_tree=("settled", 7 / 4), after_exact=("settled", 7 / 4),
    ),
]


def assert_follow_ups(region: dict, expected: tuple) -> None:
    """The JSON's temperatures after each side's first move against a diagram's expectation."""
    for got, want in zip((region["follow_up_black"], region["follow_up_white"]), expected):
        if want == "threat":
            assert got == "inf"
        elif want == "settled":
            assert got < 0
        else:
            assert got == pytest.approx(want)


def _sgf_bytes(d) -> bytes:
    """The diagram's stones in the bottom-left corner (its last row on the first line), SQ on the region,
    children = variations."""
    game = sgfmill_sgf.Sgf_game(size=SIZE)
    root = game.get_root()
    grid, _ = parse_diagram(d["diagram"])
    height = grid.shape[0]
    black = {(height - 1 - int(r), int(c)) for r, c in zip(*np.nonzero(grid == BLACK))}  # sgfmill: rows from the bottom
    white = {(height - 1 - int(r), int(c)) for r, c in zip(*np.nonzero(grid == WHITE))}
    root.set_setup_stones(black, white)
    root.set("SQ", {_sgfmill(v) for v in d["region"].split()})

    def add(node, tree):
        for key, sub in tree.items():
            color, vertex = key.split()
            child = node.new_child()
            child.set_move(color.lower(), _sgfmill(vertex))
            add(child, sub)

    add(root, d["variations"])
    return game.serialise()


def _sgfmill(vertex: str):
    r, c = from_gtp(vertex, SIZE)
    return SIZE - 1 - r, c


@pytest.mark.parametrize("d", DIAGRAMS, ids=[d["name"] for d in DIAGRAMS])
def test_local_diagram_values(tmp_path, d, capsys):
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    out = tmp_path / "analysis.json"
    rc = main(["analyze", str(path), "--move", "0", "--predictor", "oracle", "--leaves", "exact",
               "--missing", "threat", "--json", str(out), "--no-progress"])
    assert rc == 0
    report = json.loads(out.read_text())
    (region,) = report["regions"]
    assert sorted(region["points"]) == sorted(d["region"].split())
    assert region["count"] == pytest.approx(d["count"])
    assert region["temperature"] == pytest.approx(d["temperature"])
    assert region["type"] == d["kind"]
    assert region["method"] == "tree"
    assert d["black"] in region["best_black"] and d["white"] in region["best_white"]
    assert_follow_ups(region, d["after_tree"])
    text = capsys.readouterr().out
    assert "recommended for Black" in text


@pytest.mark.parametrize("predictor", ["exhaustive", "default"])
@pytest.mark.parametrize("d", DIAGRAMS, ids=[d["name"] for d in DIAGRAMS])
def test_exhaustive_solver_reads_a_diagram_on_an_empty_board(tmp_path, d, predictor, monkeypatch):
    # The marked region vouches for its surroundings: the open board beyond the diagram belongs to the
    # color of the nearest stones, so the exact solver needs no variations and no network; the default
    # predictor (auto) solves it exactly too and never loads a network.
    import tengen.api

    def no_network(*args, **kwargs):
        raise AssertionError("a solvable local diagram must not load the network")

    monkeypatch.setattr(tengen.api, "default_evaluator", no_network)
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    out = tmp_path / "analysis.json"
    chosen = [] if predictor == "default" else ["--predictor", predictor]
    rc = main(["analyze", str(path), "--move", "0", *chosen, "--json", str(out), "--no-progress"])
    assert rc == 0
    (region,) = json.loads(out.read_text())["regions"]
    assert region["method"] == "exhaustive"
    assert region["count"] == pytest.approx(d["count"])
    assert region["temperature"] == pytest.approx(d["temperature"])
    assert region["type"] == d["kind"]
    assert d["black"] in region["best_black"] and d["white"] in region["best_white"]
    assert_follow_ups(region, d["after_exact"])


def test_an_unmarked_region_on_an_empty_board_is_not_sealed():
    from tengen.endgame.exact import ExhaustiveConfig, solve_region
    from tengen.endgame.exact import RegionNotSealed
    from tengen.go.sgf import load_game_bytes

    d = DIAGRAMS[0]
    game = load_game_bytes(_sgf_bytes(d))
    board = game.board_at(0)
    points = [from_gtp(v, SIZE) for v in d["region"].split()]
    with pytest.raises(RegionNotSealed):
        solve_region(board, points)  # the open board borders both colors: nobody vouched for it
    assert solve_region(board, points, ExhaustiveConfig(vouched=True)).temperature == 2


TIE = """
    . . . . .
    . . . . .
    X . . . O
    . . . . .
    . . . . .
"""


def test_a_vouched_outside_point_equally_near_both_colors_is_neutral():
    # C2 is as near to A3 as to E3: nobody's (dame), so C1 borders both colors; B1 is Black's and D1
    # White's, so each side's C1 breaks into the other's side: no value (unsolved, not a refusal)
    from tengen.endgame.cgt_bridge import solver_declined
    from tengen.endgame.exact import ExhaustiveConfig, solve_region
    from tengen.go.diagram import board_from_diagram

    board = board_from_diagram(TIE)
    solved = solve_region(board, [from_gtp("C1", 5)], ExhaustiveConfig(vouched=True))
    assert any("neutral outside points" in n and "C2" in n for n in solved.notes)
    assert "unbounded" in solver_declined(solved)


@pytest.mark.network_model
@pytest.mark.parametrize("name", ["sente hane", "ko"])
def test_kata_with_the_exact_rules_reads_a_diagram_on_an_empty_board(tmp_path, name, default_model_path):
    # The real network proposes the moves; the rules core ends the lines and counts them, so the sparse
    # board around the diagram (which KataGo reads as open) cannot leak into the values.
    d = next(x for x in DIAGRAMS if x["name"] == name)
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    out = tmp_path / "analysis.json"
    rc = main(["analyze", str(path), "--move", "0", "--predictor", "kata", "--model", str(default_model_path),
               "--json", str(out), "--no-progress"])
    assert rc == 0
    (region,) = json.loads(out.read_text())["regions"]
    assert (region["count"], region["temperature"], region["type"]) == pytest.approx((d["count"], d["temperature"], d["kind"]))
    assert d["black"] in region["best_black"] and d["white"] in region["best_white"]
    assert any("sealed region" in note for note in region["notes"])


@pytest.mark.parametrize("name,lines", [
    ("first-line corridor", ["Black first: B D1 (after B D1: settled)", "White first: W D1 B C1 (after W D1: temperature 1.75)"]),
    ("sente hane", ["Black first: B E1 W F1 (after B E1: a threat that must be answered)", "White first: W E1 (after W E1: settled)"]),
    ("first-line hane-connect", ["Black first: B E1 (after B E1: no gain left, temperature 0)"]),
])
def test_the_report_says_what_each_first_move_leaves(tmp_path, capsys, name, lines):
    d = next(x for x in DIAGRAMS if x["name"] == name)
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    assert main(["analyze", str(path), "--move", "0", "--predictor", "exhaustive", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert all(line in out for line in lines), out


def test_solver_leaves_count_a_line_cut_short_by_its_mean(tmp_path):
    # The corridor's variations cut after each side's first move: White's push D1 leaves a game with moves
    # left ({2 | {0 | -3}}: mean 1/4, temperature 7/4). Counted as it stands (`--leaves exact`) that leaf
    # is wrong; solved exactly (`--leaves solver`) it is counted by its mean, as a textbook counts it, and
    # the cut tree gives the full game's value (17/8, 15/8, gote: the push's follow-up is cooler than it).
    d = dict(DIAGRAMS[4], variations={"B D1": {}, "W D1": {}})
    assert d["name"] == "first-line corridor"
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    regions = {}
    for leaves in ("exact", "solver"):
        out = tmp_path / f"{leaves}.json"
        assert main(["analyze", str(path), "--move", "0", "--predictor", "oracle", "--leaves", leaves,
                     "--json", str(out), "--no-progress"]) == 0
        (regions[leaves],) = json.loads(out.read_text())["regions"]
    solved = regions["solver"]
    assert solved["count"] == pytest.approx(17 / 8)
    assert solved["temperature"] == pytest.approx(15 / 8)
    assert solved["type"] == "gote"
    assert regions["exact"]["temperature"] != pytest.approx(15 / 8)
    assert any("2 valued by the exact solver" in note for note in solved["notes"])
