"""The game review (issue 41): a move's loss against orthodox play by the regions' values, sente moves, the
reasons in words, regions reused between moves with the same answers as a fresh review, the outputs, and
the CLI's checks. The network is the rule-based stand-in (no weights) and trees are grown by its policy."""
from __future__ import annotations

import json

import pytest

from tengen.cli import main
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.regions import Region
from tengen.endgame.results import Analysis, RegionResult
from tengen.endgame.review import GameReview, check_mistake, judge_move, review_game
from tengen.go import BLACK, WHITE, Board
from tengen.go.coords import from_gtp, to_gtp
from tengen.go.sgf import load_game_bytes

from standin_networks import StandInNetwork

# 5x5: three separate dame points (C5, C3, C1), each a 1-point gote; Black's territory A5, A3, A1 and
# White's E5, E3, E1. Black fills its own territory point A5 (loses the dame's 1 point), then the dames are
# taken in turn, White passing once with a dame left (a 1-point loss)
RECORD = (b"(;GM[1]FF[4]SZ[5]KM[0]RU[Chinese]"
          b"AB[ba][bb][ab][cb][bc][bd][ad][cd][be]AW[da][db][eb][dc][dd][ed][de]"
          b";B[aa];W[ca];B[cc];W[];B[ce])")


def options() -> AnalysisOptions:
    return AnalysisOptions(predictor="kata", move_check_margin=None)


def test_every_move_is_valued_against_the_hottest_region_and_said_why():
    game = load_game_bytes(RECORD, "dames.sgf")
    review = review_game(game, StandInNetwork(), options(), start=1)
    losses = [(m.number, m.loss) for m in review.moves]
    assert losses == [(1, 1.0), (2, 0.0), (3, 0.0), (4, 1.0), (5, 0.0)]
    first, _, _, passed, last = review.moves
    assert first.region is None and first.hottest_temperature == 1.0 and first.gain == 0.0
    assert first.reason.startswith("played where nothing was left to gain")
    assert passed.move is None and passed.reason.startswith("passed while a 1.0-point gote stood")
    assert last.region is not None and last.region_temperature == 1.0 and "orthodox" in last.reason
    assert all(m.network_loss is not None for m in review.moves)
    totals = review.totals()
    assert totals[BLACK]["loss"] == 1.0 and totals[WHITE]["loss"] == 1.0 and totals[BLACK]["mistakes"] == 0


def test_regions_the_move_did_not_touch_are_reused_with_the_answers_of_a_fresh_review():
    game = load_game_bytes(RECORD, "dames.sgf")
    reused = review_game(game, StandInNetwork(), options(), start=1)
    fresh = review_game(game, StandInNetwork(), options(), start=1, reuse=False)
    assert reused.region_hits > 0 and fresh.region_hits == 0
    assert reused.evaluations < fresh.evaluations
    key = [(m.region, m.region_temperature, m.hottest_temperature, m.gain, m.loss, m.reason) for m in reused.moves]
    assert key == [(m.region, m.region_temperature, m.hottest_temperature, m.gain, m.loss, m.reason)
                   for m in fresh.moves]


def _analysis(board: Board, regions: list[tuple[str, float, float, str]]) -> Analysis:
    """A hand-made analysis: regions (points as 'C1,C2', count, temperature, kind), the sure rest owned by no one."""
    import numpy as np

    results = []
    for i, (points, count, temperature, kind) in enumerate(regions):
        pts = frozenset(from_gtp(p, board.height) for p in points.split(","))
        results.append(RegionResult(Region(i, pts), count=count, temperature=temperature, kind=kind))
    return Analysis(board, results, np.zeros((board.height, board.width)), 0.0)


def test_a_move_whose_follow_up_is_the_hottest_is_sente_and_loses_nothing():
    board = Board(9)
    # before: a 2-point gote at A1 and a 5-point gote at J9; Black plays E5, leaving a 6-point follow-up there
    before = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("J9", 0.0, 5.0, "gote"), ("E5,E6", 0.0, 1.0, "gote")])
    after = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("J9", 0.0, 5.0, "gote"), ("E6,F6", 0.5, 6.0, "gote")])
    sente = judge_move(1, BLACK, from_gtp("E5", 9), before, after, 9)
    assert sente.sente and sente.loss == 0.0 and sente.reason.startswith("sente: its follow-up, worth 6.0")
    # the same move leaving only a 1-point follow-up is a small gote while 5 points stood elsewhere
    small = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("J9", 0.0, 5.0, "gote"), ("E6,F6", 0.5, 1.0, "gote")])
    gote = judge_move(1, BLACK, from_gtp("E5", 9), before, small, 9)
    assert not gote.sente and gote.gain == 0.5 and gote.loss == 4.5
    assert gote.reason == "gote 0.5 points while a 5.0-point gote stood at ?"  # no orthodox move in a hand-made analysis


def test_a_move_in_a_region_that_is_the_movers_sente_loses_nothing_without_a_follow_up_near_it():
    board = Board(9)
    # before: region E5-E6 is White's sente (count -3: the value after White's move there; Black's reverse sente
    # would gain 3), and a 5-point gote stands at J9; White plays E5: the count stays, no follow-up is left
    before = _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E5,E6", -3.0, 3.0, "white_sente")])
    after = _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E6", -3.0, 0.0, "number")])
    review = judge_move(2, WHITE, from_gtp("E5", 9), before, after, 9)
    assert review.own_sente and review.sente and review.gain == 0.0 and review.loss == 0.0
    assert review.reason.startswith("its own sente in region B")
    # Black's move in the same region is its reverse sente, a gote gaining 3 while 5 stood elsewhere
    black = judge_move(1, BLACK, from_gtp("E5", 9), before,
                       _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E6", 0.0, 0.0, "number")]), 9)
    assert not black.own_sente and not black.sente and black.gain == 3.0 and black.loss == 2.0
    # the mover's sente that gives away count is no longer free
    worse = judge_move(2, WHITE, from_gtp("E5", 9), before,
                       _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E6", -1.0, 0.0, "number")]), 9)
    assert not worse.own_sente and worse.loss == 7.0  # gote: 5 elsewhere less its gain of -2


class FixedLook:
    """A mistake check's look with fixed score leads for the mover after each move (a stand-in for a search)."""

    how = "by a fixed look"
    margin = 0.5
    alternatives = 1

    def __init__(self, leads: dict[str, float]):
        self.leads, self.asked = leads, []

    def leads_after(self, board, moves):
        self.asked.append(list(moves))
        return [self.leads[to_gtp(m, board.height)] for m in moves]


@pytest.mark.parametrize("leads, refuted, said", [
    ({"E5": 1.0, "J9": 5.0}, False, "confirmed by search: J9 is 4.0 points ahead by a fixed look"),
    ({"E5": 4.7, "J9": 5.0}, True, "not a mistake by search: J9 is 0.3 points ahead by a fixed look"),
    ({"E5": 5.5, "J9": 5.0}, True, "not a mistake by search: the move is 0.5 points ahead of J9 by a fixed look"),
])
def test_a_mistake_by_the_regions_values_is_listed_only_where_the_search_finds_it(leads, refuted, said):
    board = Board(9)
    # a 5-point gote at J9 stands while Black plays a 0.5-point gote at E5: 4.5 lost by the regions' values
    before = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("J9", 0.0, 5.0, "gote"), ("E5,E6", 0.0, 1.0, "gote")])
    after = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("J9", 0.0, 5.0, "gote"), ("E6,F6", 0.5, 1.0, "gote")])
    move = judge_move(1, BLACK, from_gtp("E5", 9), before, after, 9)
    move.orthodox = from_gtp("J9", 9)  # what the analysis recommended (a hand-made analysis names none)
    look = FixedLook(leads)
    check_mistake(move, board, look)
    assert look.asked == [[from_gtp("E5", 9), from_gtp("J9", 9)]]
    assert move.loss == 4.5 and move.search_loss == round(leads["J9"] - leads["E5"], 2)
    assert move.refuted == refuted and said in move.reason
    review = GameReview([move], 1, "asked", 9, 7.5, "chinese", mistake_check=look.how)
    assert review.mistakes() == ([] if refuted else [move]) and review.refuted() == ([move] if refuted else [])
    assert review.totals()[BLACK]["mistakes"] == (0 if refuted else 1)


@pytest.mark.parametrize("leads, listed", [({"E5": 1.0, "J9": 4.0}, True), ({"E5": 3.5, "J9": 4.0}, False)])
def test_a_move_the_regions_cannot_value_is_valued_by_search_alone(leads, listed):
    board = Board(9)
    # the region Black plays in has no count after the move (a threat its tree left unanswered)
    before = _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E5,E6", 0.0, 1.0, "gote")])
    after = _analysis(board, [("J9", 0.0, 5.0, "gote"), ("E6,F6", None, None, "unsolved")])
    move = judge_move(1, BLACK, from_gtp("E5", 9), before, after, 9)
    assert move.loss is None and move.reason.startswith("not valued: region B next to the move has no value")
    move.orthodox = from_gtp("J9", 9)
    check_mistake(move, board, FixedLook(leads))
    assert move.search_loss == leads["J9"] - leads["E5"]
    assert not move.refuted and "; valued by search alone: J9 is" in move.reason
    review = GameReview([move], 1, "asked", 9, 7.5, "chinese", mistake_check="by a fixed look")
    # reported beside the mistakes (2 points or more by search), never among them: no region's value says why
    assert review.mistakes() == [] and review.searched_only() == ([move] if listed else [])
    assert review.totals()[BLACK]["valued_by_search"] == 1 and review.totals()[BLACK]["valued"] == 0


def test_a_move_below_the_mistake_line_or_the_orthodox_one_is_not_searched():
    board = Board(9)
    before = _analysis(board, [("J9", 0.0, 2.0, "gote"), ("E5,E6", 0.0, 1.0, "gote")])
    after = _analysis(board, [("J9", 0.0, 2.0, "gote"), ("E6,F6", 0.5, 1.0, "gote")])
    small = judge_move(1, BLACK, from_gtp("E5", 9), before, after, 9)  # 1.5 lost: below the mistake line
    look = FixedLook({})
    check_mistake(small, board, look)
    assert small.loss == 1.5 and small.search_loss is None and look.asked == [] and not small.refuted


def test_white_gains_are_counted_from_whites_side():
    board = Board(9)
    before = _analysis(board, [("A1", 0.0, 3.0, "gote")])
    after = _analysis(board, [("A2", -3.0, 0.0, "number")])  # White took the 3-point gote: the count fell by 3
    review = judge_move(2, WHITE, from_gtp("A1", 9), before, after, 9)
    assert review.gain == 3.0 and review.loss == 0.0


@pytest.mark.parametrize("argv, message", [
    (["--from", "0"], "move numbers start at 1"),
    (["--from", "x"], "expected a move number or 'auto'"),
    (["--from", "9"], "--from 9: the record has 5 moves"),
    (["--from", "4", "--to", "2"], "--from 4 comes after --to 2"),
    (["--rules", "pirate"], "--rules pirate: not a rule set tengen knows"),
])
def test_review_refuses_bad_ranges_in_one_line(tmp_path, capsys, argv, message):
    path = tmp_path / "dames.sgf"
    path.write_bytes(RECORD)
    try:
        code = main(["review", str(path), *argv])
    except SystemExit as exc:  # the parser's own refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_review_outputs_json_lines_sgf_and_graph(tmp_path, monkeypatch):
    from tengen.io.review_report import (annotate_review_sgf, review_json, review_json_lines, review_text,
                                         temperature_png)

    game = load_game_bytes(RECORD, "dames.sgf")
    review = review_game(game, StandInNetwork(), options(), start=1)
    data = review_json(review)
    assert [m["loss"] for m in data["moves"]] == [1.0, 0.0, 0.0, 1.0, 0.0]
    assert data["moves"][1]["move"] == "C5" and data["moves"][1]["region_points"] == ["C5"]
    assert "rules chinese, komi 0" in data["assumptions"]
    lines = [json.loads(line) for line in review_json_lines(review).splitlines()]
    assert [line["move_number"] for line in lines] == [1, 2, 3, 4, 5]
    text = review_text(review)
    assert "mistakes (a loss of 2 points or more, largest first): none" in text
    assert temperature_png(review).startswith(b"\x89PNG")
    annotate_review_sgf(game, review)
    first = game.node_at(1)
    assert "tengen review: B A5: loss 1.0" in first.get("C") and first.get_raw_list("TR")  # the orthodox dame marked


def test_the_region_cache_keeps_a_region_until_a_stone_near_it_changes():
    from tengen.endgame.region_cache import RegionCache

    board = Board(9)
    region = Region(0, frozenset({from_gtp("E5", 9)}))
    cache = RegionCache()
    cache.put(board, RegionResult(region, count=1.0, temperature=2.0), "settings")
    far, near = board.copy(), board.copy()
    far.play(BLACK, from_gtp("A1", 9))
    near.play(BLACK, from_gtp("E7", 9))  # two points away: on the walls' side the cache looks at
    again = cache.get(far, Region(3, region.points), "settings")
    assert again is not None and again.reused and again.region.id == 3 and again.count == 1.0
    assert cache.get(near, region, "settings") is None
    assert cache.get(far, region, "other settings") is None
    assert (cache.hits, cache.misses) == (1, 2)


def test_kept_regions_stay_as_they_were_and_the_rest_is_decomposed_around_them():
    import numpy as np

    from tengen.endgame.regions import keep_and_find

    own = np.ones((5, 5))
    own[0, 0:3] = 0.0  # an undecided strip A5-C5 on the top edge...
    own[4, 4] = 0.2    # ...and a point E1
    kept = [frozenset({(0, 0), (0, 1)})]  # last position's region A5-B5: the move did not come near it
    regions = keep_and_find(own, kept)
    assert [sorted(r.points) for r in regions] == [[(0, 0), (0, 1)], [(0, 2)], [(4, 4)]]  # board order
    assert [r.id for r in regions] == [0, 1, 2]
    assert regions[0].notes == ("kept from the previous position: the move did not come near it",)


def test_review_refuses_an_output_it_cannot_write_before_any_work(tmp_path, capsys):
    path = tmp_path / "dames.sgf"
    path.write_bytes(RECORD)
    taken = tmp_path / "a_file"
    taken.write_text("kept")
    assert main(["review", str(path), "--out", str(taken)]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and len(err.strip().splitlines()) == 1
    assert taken.read_text() == "kept"  # nothing lost
    assert main(["review", str(path), "--json", str(path)]) == 2  # the record itself is never overwritten
    assert path.read_bytes() == RECORD


def test_review_warns_of_an_illegal_move_as_show_does(tmp_path, capsys, monkeypatch):
    import tengen.api

    monkeypatch.setattr(tengen.api, "default_evaluator", lambda model=None: StandInNetwork())
    path = tmp_path / "occupied.sgf"
    path.write_bytes(RECORD[:-1] + b";W[cc])")  # White's last move on Black's stone at C3
    warning = f"tengen: warning: {path}: move 6 (W C3) is illegal: occupied; placed as the record says"
    assert main(["show", str(path)]) == 0
    assert warning in capsys.readouterr().err
    assert main(["review", str(path), "--from", "5", "--quiet"]) == 0
    assert warning in capsys.readouterr().err.splitlines()


def test_an_endgame_start_found_after_the_last_move_asked_is_said_plainly(monkeypatch):
    import tengen.endgame.review

    monkeypatch.setattr(tengen.endgame.review, "find_endgame_start", lambda *args: (4, "from move 4: found"))
    game = load_game_bytes(RECORD, "dames.sgf")
    with pytest.raises(ValueError, match=r"^the endgame start found \(move 4\) lies after the last move to review \(2\)$"):
        review_game(game, StandInNetwork(), options(), start=None, end=2)


def test_review_makes_its_output_folder(tmp_path, monkeypatch):
    """`--out DIR` names a folder that need not exist yet: checked before the work, made for the outputs."""
    import tengen.api

    monkeypatch.setattr(tengen.api, "default_evaluator", lambda model=None: StandInNetwork())
    path = tmp_path / "dames.sgf"
    path.write_bytes(RECORD)
    out = tmp_path / "reviews" / "dames"
    assert main(["review", str(path), "--from", "1", "--out", str(out), "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["review.json", "review.jsonl", "review.sgf", "temperature.png"]


def test_a_move_next_to_an_unvalued_region_says_why_by_the_note_that_says_so():
    from tengen.endgame.notes import Note

    board = Board(9)
    before = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("E5,E6", 0.0, 1.0, "gote")])
    after = _analysis(board, [("A1", 0.0, 2.0, "gote"), ("E6,F6", 0.0, 1.0, "gote")])
    unvalued = after.regions[1]
    unvalued.count, unvalued.kind = None, "unsupported"
    unvalued.notes = [Note("positions", "exhaustive: 12 positions"), Note("ko", "unsupported ko: two exits")]
    review = judge_move(1, BLACK, from_gtp("E5", 9), before, after, 9)
    assert review.loss is None
    assert review.reason == "not valued: region B next to the move has no value (unsupported ko: two exits)"
