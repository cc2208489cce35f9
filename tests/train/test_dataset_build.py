"""The winner dataset's build: checkpoints per chunk, resume, dedup across collections, the hash split, the
counts (komi defaults included), loading a split; the replay against sgfmill on real games (slow)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tengen.train.archives import iter_archive
from tengen.train.records.__main__ import main
from tengen.train.records.build import build
from tengen.train.records.game import SkipGame, parse_game
from tengen.train.records.replay import extract_positions
from tengen.train.records.store import PHASES, load_split
from tengen.train.splits import SPLITS, split_of

from train_fixtures import capture_game, write_archive


def test_split_is_a_pure_function_of_the_key():
    splits = [split_of(k) for k in range(1000)]
    assert splits.count(2) == 150 and splits.count(1) == 100 and splits.count(0) == 750


def _fox_game(n: int) -> bytes:
    """A Fox-style record with KM[0] (the collection's default komi applies) and n moves."""
    return capture_game(n, "KM[0]RE[B+R]")


def test_build_dedupes_splits_counts_and_resumes(tmp_path):
    data_dir, cache = tmp_path / "games", tmp_path / "cache"
    data_dir.mkdir()
    games = {f"kgs/g{n}.sgf": capture_game(n) for n in range(30, 60)}
    games["kgs/dup.sgf"] = capture_game(45)  # same moves as g45
    games["kgs/void.sgf"] = capture_game(30, "KM[6.5]RE[Void]")
    games["kgs/readme.txt"] = b"not a game"
    write_archive(data_dir / "kgs_6d_test.tar.xz", games)
    write_archive(data_dir / "pro_aeb_test.tar.xz", {"pro/x.sgf": capture_game(45)})  # cross-collection dup
    write_archive(data_dir / "fox_pro_test.tar.xz", {f"fox/{n}.sgf": _fox_game(100 + n) for n in range(3)})
    root = build(data_dir, cache, workers=1, chunk_size=8, progress=False)
    summary = json.loads((root / "summary.json").read_text())
    counts = summary["counts"]
    assert counts["files"] == 36 and counts["skip_void"] == 1 and counts["duplicate"] == 2
    assert counts["komi_default_fox_pro"] == 3
    assert sum(s["games"] for s in summary["splits"].values()) == 33
    assert sum(s["positions"]["30"] for s in summary["splits"].values()) == 33
    assert sum(s["positions"]["80"] for s in summary["splits"].values()) == 3  # the fox games only
    chunks = sorted((root / "chunks").glob("*.npz"))
    assert len(chunks) == 6  # 32 SGF files in chunks of 8, one for the pro archive, one for the fox one
    stamps = {c: c.stat().st_mtime_ns for c in chunks}
    chunks[1].unlink()  # as if the build had been killed before this chunk
    build(data_dir, cache, workers=1, chunk_size=8, progress=False)
    assert all(c.stat().st_mtime_ns == stamps[c] for c in chunks if c != chunks[1]) and chunks[1].exists()
    komi = {}
    for split in SPLITS:
        ps = load_split(split, cache)
        assert all(split_of(int(k)) == SPLITS.index(split) for k in ps.games["game_key"])
        assert len(set(ps.games["game_key"].tolist())) == len(ps.games["game_key"])
        assert ps.boards.dtype == np.int8 and set(ps.winner.tolist()) <= {1}
        komi.update(zip(ps.games["game_path"].tolist(), ps.games["game_komi"].tolist()))
    assert {komi[f"fox/{n}.sgf"] for n in range(3)} == {7.5} and komi["kgs/g30.sgf"] == 6.5
    with pytest.raises(SystemExit, match="was built with"):
        build(data_dir, cache, workers=1, chunk_size=4, progress=False)


@pytest.mark.parametrize("command", ["build", "komi"])
def test_without_the_shared_data_the_command_says_where_it_looked(command, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TENGEN_SHARED_DATA", str(tmp_path / "none"))
    assert main([command, "--cache-dir", str(tmp_path / "cache")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(tmp_path / "none" / "games") in err and "TENGEN_SHARED_DATA" in err
    assert not (tmp_path / "cache").exists()


@pytest.mark.slow
def test_replay_matches_sgfmill_on_real_games(shared):
    """300 KGS records: stones and prisoners at each phase equal sgfmill's own replay."""
    from sgfmill import sgf, sgf_moves

    archive = shared("games", "kgs_6d_godmoves_36692.tar.xz")
    checked = 0
    for name, data in iter_archive(archive, limit=300):
        try:
            positions = extract_positions(parse_game(data, name))
        except SkipGame:
            continue
        board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(data))
        caps = {"b": 0, "w": 0}
        snaps = {}
        for i, (color, move) in enumerate(plays, 1):
            if move is not None:
                before = sum(1 for c, _ in board.list_occupied_points() if c != color)
                board.play(move[0], move[1], color)
                caps[color] += before - sum(1 for c, _ in board.list_occupied_points() if c != color)
            if i in PHASES:
                arr = np.zeros((19, 19), np.int8)
                for c, (r, col) in board.list_occupied_points():
                    arr[18 - r, col] = 1 if c == "b" else -1  # sgfmill rows count from the bottom
                snaps[i] = (arr, caps["b"], caps["w"])
        for phase, stones, by_black, by_white, _ in positions:
            np.testing.assert_array_equal(stones, snaps[phase][0])
            assert (by_black, by_white) == snaps[phase][1:]
            checked += 1
    assert checked > 800
