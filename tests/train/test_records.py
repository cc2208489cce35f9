"""Dataset builder: result / komi quirks, SGF parsing, replay, dedup, split, checkpoints and resume."""

from __future__ import annotations

import io
import json
import tarfile

import numpy as np
import pytest

from tengen.train import records
from tengen.train.records import (SkipGame, assemble, build, extract_positions, move_key, normalise_komi,
                                  parse_game, parse_result, split_of)


def board_from(diagram: str) -> np.ndarray:
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    return np.array([[{"X": 1, "O": -1, ".": 0}[ch] for ch in row] for row in rows], dtype=np.int8)


@pytest.mark.parametrize("text, expected", [
    ("B+R", (1, "resign")), ("W+Resign", (-1, "resign")), ("B+T", (1, "time")), ("W+Time", (-1, "time")),
    ("B+3.5", (1, "score")), ("W+12", (-1, "score")), ("W+", (-1, "winner_only")), ("b+r", (1, "resign")),
])
def test_results_with_a_winner(text, expected):
    assert parse_result(text) == expected


@pytest.mark.parametrize("text, reason", [
    (None, "no_result"), ("", "no_result"), ("Void", "void"), ("Jigo", "draw"), ("draw", "draw"), ("0", "draw"),
    ("B+0.0", "zero_margin"), ("W+0.0", "zero_margin"), ("W+F", "forfeit"), ("X+", "odd_result"),
    ("Unfinished", "odd_result"), ("B+AW", "odd_result"), ("W+ (but B does not lose)", "odd_result"),
])
def test_results_that_are_skipped(text, reason):
    with pytest.raises(SkipGame) as err:
        parse_result(text)
    assert err.value.reason == reason


@pytest.mark.parametrize("text, komi, notes", [
    ("6.5", 6.5, []), ("0.50", 0.5, []), ("750", 7.5, ["komi_x100"]), ("650", 6.5, ["komi_x100"]),
    ("375", 7.5, ["komi_x100", "komi_stones"]), ("325", 6.5, ["komi_x100", "komi_stones"]),
    ("-5.5", -5.5, []), ("3.75", 7.5, ["komi_stones"]), ("-100.00", -100.0, []),
])
def test_komi_normalisation(text, komi, notes):
    got: list[str] = []
    assert normalise_komi(text, got) == komi
    assert got == notes


def test_missing_komi_is_nan_and_counted():
    notes: list[str] = []
    assert np.isnan(normalise_komi(None, notes)) and notes == ["komi_missing"]


GAME = b"(;GM[1]FF[4]SZ[19]KM[750]RE[W+R];B[pd];W[dp];B[pq];W[dd];B[];W[tt])"


def test_parse_game_reads_moves_passes_and_quirks():
    rec = parse_game(GAME, "g.sgf", "fox_pro")
    assert rec.winner == -1 and rec.result_kind == "resign" and rec.komi == 7.5
    assert rec.moves == [(1, (3, 15)), (-1, (15, 3)), (1, (16, 15)), (-1, (3, 3)), (1, None), (-1, None)]
    assert rec.notes == ["komi_x100"]


def test_parse_game_fixes_a_missing_parenthesis():
    rec = parse_game(b";GM[1]SZ[19]RE[B+R];B[aa];W[bb])", "p.sgf")
    assert "fixed_missing_paren" in rec.notes and rec.moves[0] == (1, (0, 0))


def test_handicap_stones_after_the_root_are_setup():
    rec = parse_game(b"(;SZ[19]HA[2]RE[B+R];AB[pd][dp];W[qp];B[dd])")
    assert rec.setup_black == [(3, 15), (15, 3)] and rec.moves == [(-1, (15, 16)), (1, (3, 3))]
    assert rec.notes == ["komi_missing", "setup_after_root"]


def test_compressed_setup_rectangle():
    rec = parse_game(b"(;SZ[19]RE[B+R]AB[aa:bb]AW[cc];B[dd])")
    assert sorted(rec.setup_black) == [(0, 0), (0, 1), (1, 0), (1, 1)] and rec.setup_white == [(2, 2)]


@pytest.mark.parametrize("data, reason", [
    (b"(;SZ[9]RE[B+R];B[aa])", "not_19x19"),
    (b"(;SZ[19]RE[Void];B[aa])", "void"),
    (b"(;SZ[19]RE[B+R])", "no_moves"),
    (b"(;SZ[19];B[aa])", "no_result"),
    (b"this is not sgf", "parse_error"),
    (b"(;SZ[19]RE[B+R];B[aa];AB[bb];W[cc])", "setup_in_game"),
])
def test_unusable_games_are_skipped_with_a_reason(data, reason):
    with pytest.raises(SkipGame) as err:
        parse_game(data)
    assert err.value.reason == reason


def _sgf(moves: str, result: str = "B+R", extra: str = "") -> bytes:
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[{result}]{extra}{moves})".encode()


def _capture_game(n_moves: int) -> bytes:
    """Black captures a white stone in the corner at move 5, then both sides play far away."""
    seq = ["B[ba]", "W[aa]", "B[pd]", "W[dp]", "B[ab]"]  # W aa captured by B ab
    far = [f"{c}{r}" for c in "ghijklmnop" for r in "ghijklmnop"]
    colour = "W"
    for point in far[: n_moves - len(seq)]:
        seq.append(f"{colour}[{point}]")
        colour = "B" if colour == "W" else "W"
    return _sgf(";" + ";".join(seq))


def test_replay_positions_prisoners_and_side_to_move():
    rec = parse_game(_capture_game(85))
    out = extract_positions(rec)
    assert [p[0] for p in out] == [30, 80]  # 85 moves: no position at 130 or 180
    n, stones, by_black, by_white, to_play = out[0]
    assert stones.dtype == np.int8 and stones.shape == (19, 19)
    assert stones[0, 0] == 0 and stones[0, 1] == 1 and stones[1, 0] == 1  # the corner stone was taken
    assert (by_black, by_white) == (1, 0)
    assert (stones == 1).sum() == 15 and (stones == -1).sum() == 14  # 30 moves, one white stone captured
    assert to_play == 1  # Black moves 31st


def test_illegal_record_is_skipped():
    rec = parse_game(_sgf(";B[aa];W[aa]" + ";B[bb];W[cc]" * 20))
    with pytest.raises(SkipGame) as err:
        extract_positions(rec)
    assert err.value.reason == "illegal_move_occupied"


def test_move_key_and_split_are_deterministic_and_cover_all_splits():
    a, b = parse_game(_capture_game(40)), parse_game(_capture_game(40))
    assert move_key(a) == move_key(b)
    assert move_key(a) != move_key(parse_game(_capture_game(41)))
    splits = [split_of(k) for k in range(1000)]
    assert splits.count(2) == 150 and splits.count(1) == 100 and splits.count(0) == 750


def _write_archive(path, files: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:xz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_build_dedupes_splits_and_resumes(tmp_path):
    data_dir, cache = tmp_path / "games", tmp_path / "cache"
    data_dir.mkdir()
    games = {f"kgs/g{n}.sgf": _capture_game(n) for n in range(30, 60)}
    games["kgs/dup.sgf"] = _capture_game(45)  # same moves as g45
    games["kgs/void.sgf"] = _sgf(";B[aa]", "Void")
    games["kgs/readme.txt"] = b"not a game"
    _write_archive(data_dir / "kgs_6d_test.tar.xz", games)
    _write_archive(data_dir / "pro_aeb_test.tar.xz", {"pro/x.sgf": _capture_game(45)})  # cross-collection dup
    root = build(data_dir, cache, workers=1, chunk_size=8, progress=False)
    summary = json.loads((root / "summary.json").read_text())
    counts = summary["counts"]
    assert counts["files"] == 33 and counts["skip_void"] == 1 and counts["duplicate"] == 2
    assert sum(s["games"] for s in summary["splits"].values()) == 30
    assert sum(s["positions"]["30"] for s in summary["splits"].values()) == 30
    assert sum(s["positions"]["80"] for s in summary["splits"].values()) == 0
    chunks = sorted((root / "chunks").glob("*.npz"))
    assert len(chunks) == 5  # 32 SGF files in chunks of 8, plus one for the second archive
    stamps = {c: c.stat().st_mtime_ns for c in chunks}
    chunks[1].unlink()  # as if the build had been killed before this chunk
    build(data_dir, cache, workers=1, chunk_size=8, progress=False)
    assert all(c.stat().st_mtime_ns == stamps[c] for c in chunks if c != chunks[1]) and chunks[1].exists()
    test = records.load_split("test", cache)
    for split in ("train", "val", "test"):
        ps = records.load_split(split, cache)
        assert all(split_of(int(k)) == ("train", "val", "test").index(split) for k in ps.games["game_key"])
        assert len(set(ps.games["game_key"].tolist())) == len(ps.games["game_key"])
    assert test.boards.dtype == np.int8 and set(test.winner.tolist()) <= {1}
    with pytest.raises(SystemExit, match="was built with"):
        build(data_dir, cache, workers=1, chunk_size=4, progress=False)


@pytest.mark.slow
def test_replay_matches_sgfmill_on_real_games(shared):
    """300 KGS records: stones and prisoners at each phase equal sgfmill's own replay."""
    from sgfmill import sgf, sgf_moves

    archive = shared("games", "kgs_6d_godmoves_36692.tar.xz")
    checked = 0
    for n, (name, data) in enumerate(records.iter_archive(archive)):
        if n == 300:
            break
        try:
            positions = extract_positions(parse_game(data, name))
        except SkipGame:
            continue
        board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(data))
        caps = {"b": 0, "w": 0}
        snaps = {}
        for i, (colour, move) in enumerate(plays, 1):
            if move is not None:
                before = sum(1 for c, _ in board.list_occupied_points() if c != colour)
                board.play(move[0], move[1], colour)
                caps[colour] += before - sum(1 for c, _ in board.list_occupied_points() if c != colour)
            if i in records.PHASES:
                arr = np.zeros((19, 19), np.int8)
                for c, (r, col) in board.list_occupied_points():
                    arr[18 - r, col] = 1 if c == "b" else -1  # sgfmill rows count from the bottom
                snaps[i] = (arr, caps["b"], caps["w"])
        for phase, stones, by_black, by_white, _ in positions:
            np.testing.assert_array_equal(stones, snaps[phase][0])
            assert (by_black, by_white) == snaps[phase][1:]
            checked += 1
    assert checked > 800


@pytest.mark.slow
def test_built_dataset_meets_the_issue():
    """The cached build (python -m tengen.train.records build): >= 20,000 test games, all four phases, no leaks."""
    root = records.dataset_dir()
    if not (root / "summary.json").exists():
        pytest.skip(f"no built dataset in {root} (python -m tengen.train.records build)")
    summary = json.loads((root / "summary.json").read_text())
    assert summary["splits"]["test"]["games"] >= 20000
    keys = {}
    for split in records.SPLITS:
        ps = records.load_split(split)
        keys[split] = set(ps.games["game_key"].tolist())
        assert set(np.unique(ps.phase).tolist()) == set(records.PHASES)
        assert ps.boards.shape[1:] == (19, 19) and set(np.unique(ps.winner).tolist()) == {-1, 1}
    assert not (keys["test"] & keys["train"]) and not (keys["test"] & keys["val"])
