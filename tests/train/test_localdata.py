"""The local-move dataset: regions, blacklist and zones from ownership diagrams; local sequences, targets and
answer labels from hand-made games; the build from stored labels (shards, resume, counts) without a network."""
from __future__ import annotations


import numpy as np
import pytest

from tengen.eval.localnet.compact import NO_MOVE, POINTS, flat, target_index
from tengen.go import BLACK, WHITE, Board
from tengen.go.coords import from_gtp
from tengen.go.diagram import parse_diagram
from tengen.train.localdata.build import BuildConfig, StoredLabels, build
from tengen.train.localdata.dataset import load
from tengen.train.localdata.extract import UNASSIGNED, assign_moves, partition, sequence_examples, LocalSequence
from tengen.train.localdata.games import finished_games, prepare_game, snapshot_moves
from tengen.train.records.game import move_key, parse_game
from tengen.train.splits import split_of

from train_fixtures import write_archive


def ownership_of(text: str) -> np.ndarray:
    """An ownership map from a diagram: B = +1, W = -1, b / w = +-0.5 (undecided), . = 0."""
    values = {"B": 1.0, "W": -1.0, "b": 0.5, "w": -0.5, ".": 0.0}
    rows = [line.split() for line in text.strip().splitlines()]
    return np.array([[values[c] for c in row] for row in rows])


OWNERSHIP = """
B B B . W W
B B B . W W
B B b . w W
B B B B W W
"""
FINAL_SAME = OWNERSHIP.replace(".", "B").replace("b", "B").replace("w", "W")


def test_undecided_points_form_the_regions_and_every_point_joins_the_nearest():
    part = partition(ownership_of(OWNERSHIP), ownership_of(FINAL_SAME))
    assert [r.points for r in part.regions] == [[(0, 3), (1, 3), (2, 2), (2, 3), (2, 4)]]
    assert (part.zone == 0).all() and not part.blacklisted.any()


def test_two_regions_split_the_board_by_distance():
    own = ownership_of("""
        . B B B B .
        B B B B B B
        """)
    part = partition(own, own.clip(0.5, 1))
    assert [r.points for r in part.regions] == [[(0, 0)], [(0, 5)]]
    assert part.zone[1, 0] == 0 and part.zone[1, 5] == 1
    assert part.zone[0, 2] == 0 and part.zone[0, 3] == 1  # the middle splits by distance (ties: first reached)


def test_settled_points_that_changed_hands_are_blacklisted_and_get_no_moves():
    final = ownership_of(FINAL_SAME)
    final[0, 0] = -1.0
    part = partition(ownership_of(OWNERSHIP), final)
    assert part.blacklisted[0, 0] and part.blacklisted.sum() == 1
    assert part.zone[0, 0] == UNASSIGNED
    assign_moves(part, [(BLACK, (0, 0)), (WHITE, (0, 3)), (BLACK, None)], 0)
    assert part.regions[0].moves == [(1, WHITE, (0, 3))]  # the blacklisted point and the pass are dropped


HANE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X O O O O O
. . . X O . . . .
. . . X O . . . .
. . . . . . . . .
"""


def hane_board() -> Board:
    grid, _ = parse_diagram(HANE)
    board = Board(9)
    board.set_array(grid)
    return board


def test_a_local_sequence_gives_one_example_per_move_and_a_no_move_example():
    board = hane_board()
    e1, f1, d1 = (from_gtp(v, 9) for v in ("E1", "F1", "D1"))
    # game move 10: Black hanes at E1; 11: White blocks (an answer); 14: Black connects (after moves elsewhere)
    seq = LocalSequence(points=[e1, d1], moves=[(10, BLACK, e1), (11, WHITE, f1), (14, BLACK, d1)])
    rows = sequence_examples(board, BLACK, seq)
    assert [int(r["target"]) for r in rows] == [target_index(BLACK, e1), target_index(WHITE, f1),
                                                 target_index(BLACK, d1), NO_MOVE]
    assert [int(r["answer"]) for r in rows] == [-1, 1, 0, -1]
    assert [int(r["to_play"]) for r in rows] == [BLACK, WHITE, BLACK, WHITE]  # then: opponent of the last mover
    assert [int(r["depth"]) for r in rows] == [0, 1, 2, 3]
    assert int(rows[2]["recent"][0]) == flat(f1) and int(rows[2]["recent_color"][0]) == WHITE
    assert int(rows[2]["recent"][1]) == flat(e1) and int(rows[2]["recent_color"][1]) == BLACK
    assert all(int(r["region_size"]) == 2 and int(r["seq_len"]) == 3 for r in rows)
    codes = rows[3]["codes"]
    assert codes[flat(e1)] & 3 == 2 and codes[flat(f1)] & 3 == 3  # the local moves are on the board
    assert codes[flat(d1)] & 3 == 2 and board.get(e1) == 0  # and the caller's board is untouched


def test_a_local_move_illegal_without_the_game_s_other_moves_ends_the_sequence_without_no_move():
    board = hane_board()
    occupied = from_gtp("D2", 9)
    seq = LocalSequence(points=[occupied], moves=[(5, BLACK, from_gtp("E1", 9)), (6, WHITE, occupied)])
    rows = sequence_examples(board, BLACK, seq)
    assert len(rows) == 1 and int(rows[0]["target"]) != NO_MOVE


CUT = """
    . . . . . . . . .
    . O . . . . . X .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X X O . . .
    . . X . . . O . .
    . . X . . . O . .
    . . . . . . . . .
"""


def test_a_cut_out_keeps_the_stones_near_the_region_and_nothing_else():
    from tengen.train.localdata.extract import cut_out

    grid, _ = parse_diagram(CUT)
    board = Board(9)
    board.set_array(grid)
    region = [from_gtp(v, 9) for v in ("E2", "E3", "D2")]
    diagram = cut_out(board, region, 2)
    for vertex in ("D4", "E4", "F4", "C3", "C2", "G3", "G2"):  # the walls, within 2 points
        assert diagram.get(from_gtp(vertex, 9)) == board.get(from_gtp(vertex, 9)) != 0
    assert diagram.get(from_gtp("B8", 9)) == 0 and diagram.get(from_gtp("H8", 9)) == 0  # far stones gone
    assert board.get(from_gtp("B8", 9)) != 0  # the source is untouched
    assert cut_out(board, region, 4).get(from_gtp("B8", 9)) == 0
    assert cut_out(board, region, 5).get(from_gtp("B8", 9)) != 0  # B8 lies 5 rows above E3, 2 columns from D2


def test_cut_out_rows_replay_the_sequence_on_the_diagram_and_are_marked_with_their_width():
    from tengen.train.localdata.extract import position_examples

    grid, _ = parse_diagram(CUT)
    board = Board(9)
    board.set_array(grid)
    own = np.where(grid > 0, 1.0, np.where(grid < 0, -1.0, 1.0))
    for vertex in ("E2", "E3", "D2", "D3", "E1", "F2", "F3"):
        own[from_gtp(vertex, 9)] = 0.0
    e2, f2 = from_gtp("E2", 9), from_gtp("F2", 9)
    moves = [(BLACK, e2), (WHITE, f2)]
    _, plain = position_examples(board, BLACK, own, np.ones_like(own), moves, 0)
    _, rows = position_examples(board, BLACK, own, np.ones_like(own), moves, 0, cutouts=(2,))
    whole = [r for r in rows if int(r["cutout"]) == 0]
    cut = [r for r in rows if int(r["cutout"]) == 2]
    assert len(whole) == len(plain) == len(cut) == 3  # two moves and the no-move row, on each board
    assert [int(r["target"]) for r in cut] == [int(r["target"]) for r in whole]
    far = flat(from_gtp("B8", 9))
    assert all(r["codes"][far] & 3 != 2 and r["codes"][far] & 3 != 3 for r in cut)  # no stone there
    assert all(r["codes"][far] == w["codes"][far] for r, w in zip(plain, whole))


def test_a_build_refuses_to_mix_shards_of_other_settings(tmp_path):
    from tengen.train.localdata.build import DatasetConfigMismatch, check_config

    root = tmp_path / "localmoves-v1"
    root.mkdir()
    check_config(root, {"phases": [0.5], "cutouts": []})
    check_config(root, {"phases": [0.5], "cutouts": [2]})  # no shards yet: the new settings are taken
    (root / "x-0000.npz").write_bytes(b"")
    check_config(root, {"phases": [0.5], "cutouts": [2]})
    with pytest.raises(DatasetConfigMismatch, match="cutouts"):
        check_config(root, {"phases": [0.5], "cutouts": [3]})


def test_snapshots_are_late_positions_with_moves_left():
    assert snapshot_moves(200, (0.7, 0.8, 0.9)) == [140, 160, 180]
    assert snapshot_moves(3, (0.7, 0.8, 0.9)) == [2]
    assert snapshot_moves(1, (0.7,)) == []


def _record(moves: list[str], result: str = "B+3.5") -> bytes:
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[{result}];{';'.join(moves)})".encode()


GAME = ["B[pd]", "W[dp]", "B[pp]", "W[dd]", "B[qf]", "W[nc]", "B[rd]", "W[qc]", "B[qd]", "W[pc]"]
EXTRA = ["B[aj]", "W[bj]", "B[cj]", "W[sj]"]  # later moves on the undecided row 10 (SGF row j)


def _labels_for(tmp_path, games: dict[str, bytes], archive: str, phases=(0.5, 0.9)):
    """A labels file giving every position of each game the same made-up ownership: the lower half Black's,
    the upper half White's, row 9 (counted from the top, 0-based) undecided."""
    own = np.zeros((19, 19), np.float32)
    own[:9], own[10:] = -1.0, 1.0
    paths, counts, stack = [], [], []
    for name, data in games.items():
        prepared = prepare_game((archive, name, data), phases, encode_positions=False)
        paths.append(name)
        counts.append(len(prepared.encoded))
        stack += [own] * len(prepared.encoded)
    path = tmp_path / "labels.npz"
    np.savez_compressed(path, paths=np.asarray(paths), counts=np.asarray(counts, np.int16),
                        ownership=np.rint(np.stack(stack) * 100).astype(np.int8))
    return path


def test_build_from_stored_labels_writes_shards_resumes_and_counts(tmp_path):
    cache = tmp_path / "cache"
    games = {f"fox/g{n}.sgf": _record(GAME[:n] + EXTRA) for n in (6, 8, 10)}
    games["fox/bad.sgf"] = _record(["B[pd]", "W[pd]"])  # an illegal record
    games_dir, archive, games = _games_folder(tmp_path, games)
    labels = _labels_for(tmp_path, {k: v for k, v in games.items() if k != "fox/bad.sgf"}, archive)
    cfg = BuildConfig(phases=(0.5, 0.9), shard_games=2, workers=1, games_dir=games_dir, labels=labels)
    root = build(cfg, cache)
    shards = sorted(root.glob("*.npz"))
    assert [p.name for p in shards] == ["fox_pro_test-0000.npz", "fox_pro_test-0001.npz"]
    stamp = shards[0].stat().st_mtime_ns
    build(cfg, cache)  # resumes: nothing to redo
    assert shards[0].stat().st_mtime_ns == stamp
    examples, stats = load(cache)
    assert stats["games_read"] == 4 and stats["games_used"] == 3
    assert stats["skipped"] == {"illegal_move_occupied": 1}
    assert stats["positions"] == 6  # two late positions per game
    assert stats["regions"] == 6  # one undecided row each
    # each position's region gets the later moves on row 10 (the others are on settled points nearest it)
    targets = examples.arrays["target"]
    assert (targets == NO_MOVE).sum() == 6
    keys = {move_key(parse_game(games[f"fox/g{n}.sgf"], "", "fox_pro")) for n in (6, 8, 10)}
    assert set(np.unique(examples.arrays["game"]).tolist()) == keys
    assert stats["games_by_split"] == {name: sum(split_of(k) == i for k in keys)
                                       for i, name in enumerate(("train", "val", "test"))}
    assert examples.arrays["region"].shape[1] == POINTS


def _games_folder(tmp_path, games=None, unlisted=None, more_lines: str = ""):
    """(folder, archive name, games): one archive holding `games` (default: three short games with later moves
    on the undecided row 10) and `unlisted` ones, and the finished-games list naming `games` (plus
    `more_lines`)."""
    folder = tmp_path / "games"
    folder.mkdir()
    archive = "fox_pro_test.tar.xz"
    if games is None:
        games = {f"fox/g{n}.sgf": _record(GAME[:n] + EXTRA) for n in (6, 8, 10)}
    write_archive(folder / archive, {**games, **(unlisted or {})})
    (folder / "finished_19x19_scored_games.txt").write_text(
        "archive\tpath\tRE\tKM\tHA\tmoves\n" + "".join(f"{archive}\t{name}\tB+3.5\t6.5\t0\t9\n" for name in games)
        + more_lines)
    return folder, archive, games


def test_a_folder_of_labels_files_gives_the_same_dataset_as_one_file(tmp_path):
    """Each labelling run adds a file to labels/localnet; the build reads the folder as one set of labels."""
    games_dir, archive, games = _games_folder(tmp_path)
    whole = _labels_for(tmp_path, games, archive)
    folder = tmp_path / "labels"
    folder.mkdir()
    names = sorted(games)
    for i, part in enumerate((names[:1], names[1:])):
        (folder / f"part{i}").mkdir()
        _labels_for(folder / f"part{i}", {k: games[k] for k in part}, archive).rename(folder / f"part{i}.npz")
    assert len(StoredLabels(folder)) == 3
    built = {}
    for name, labels in (("file", whole), ("folder", folder)):
        cfg = BuildConfig(phases=(0.5, 0.9), shard_games=2, workers=1, games_dir=games_dir, labels=labels)
        built[name] = load(root=build(cfg, tmp_path / name))[0].arrays
    assert built["file"].keys() == built["folder"].keys()
    for key in built["file"]:
        assert np.array_equal(built["file"][key], built["folder"][key]), key
    with pytest.raises(FileNotFoundError, match="no labels files"):
        StoredLabels(tmp_path / "games")


def test_gathered_labels_leave_out_known_games_saturate_and_rebuild_the_same_dataset(tmp_path, capsys):
    """`localdata labels OUT --exclude KNOWN`: only the games KNOWN lacks, |ownership| >= 0.95 stored as 1,
    and the examples built from the gathered file equal those built from the labels it came from."""
    from tengen.train.localdata.build import labels_file

    games_dir, archive, games = _games_folder(tmp_path)
    source = _labels_for(tmp_path, games, archive)
    with np.load(source) as z:
        arrays = dict(z)
    arrays["ownership"][:, 0, :3] = [97, -96, 93]  # beyond and below the saturation
    np.savez_compressed(source, **arrays)
    cfg = BuildConfig(phases=(0.5, 0.9), shard_games=2, workers=1, games_dir=games_dir, labels=source)
    root = build(cfg, tmp_path / "cache")
    known = tmp_path / "known"
    known.mkdir()
    _labels_for(known, {"fox/g6.sgf": games["fox/g6.sgf"]}, archive)
    out, count = labels_file(root, tmp_path / "new.npz", exclude=known)
    assert count == 2
    with np.load(out) as z:
        assert sorted(z["paths"].tolist()) == ["fox/g10.sgf", "fox/g8.sgf"]
        assert z["ownership"][:, 0, :3].tolist() == [[100, -100, 93]] * len(z["ownership"])
    whole, _ = labels_file(root, tmp_path / "all.npz")
    rebuilt = load(root=build(BuildConfig(phases=(0.5, 0.9), shard_games=2, workers=1, games_dir=games_dir,
                                          labels=whole), tmp_path / "again"))[0].arrays
    first = load(root=root)[0].arrays
    for key in ("target", "region", "game"):
        assert np.array_equal(first[key], rebuilt[key]), key
    with pytest.raises(FileNotFoundError, match="beyond those"):
        labels_file(root, tmp_path / "none.npz", exclude=whole)
    from tengen.train.localdata.__main__ import main

    assert main(["labels", str(tmp_path / "none.npz"), "--cache-dir", str(tmp_path / "cache"),
                 "--exclude", str(whole)]) == 2  # nothing new: one line, no file
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: no labelled games") and not (tmp_path / "none.npz").exists()


def test_a_labelling_run_continues_stored_labels_game_by_game(tmp_path, monkeypatch):
    """`build --labels L --label-missing`: the games L holds take its labels, the others the network's; the
    shards then hold every game's labels (what `labels --exclude` gathers)."""
    from tengen.train.localdata import build as build_module

    games_dir, archive, games = _games_folder(tmp_path)
    known = {"fox/g8.sgf": games["fox/g8.sgf"]}
    stored = _labels_for(tmp_path, known, archive)
    asked: list[int] = []

    class Network:
        def ownership_of_encoded(self, encoded):
            asked.append(len(encoded))
            own = np.zeros((len(encoded), 19, 19), np.float32)
            own[:, :9], own[:, 10:] = -1.0, 1.0
            return own

    monkeypatch.setattr(build_module, "_evaluator", lambda cfg: Network())
    cfg = BuildConfig(phases=(0.5, 0.9), shard_games=5, workers=1, games_dir=games_dir, labels=stored,
                      label_missing=True)
    root = build(cfg, tmp_path / "cache")
    assert asked == [6]  # two games of three positions each (two late ones and the final one) went to the network
    with np.load(next(root.glob("*.npz"))) as z:
        assert sorted(z["label_paths"].tolist()) == sorted(games)
    whole = _labels_for(tmp_path / "games", games, archive)  # every game, the same made-up ownership
    again = load(root=build(BuildConfig(phases=(0.5, 0.9), shard_games=5, workers=1, games_dir=games_dir,
                                        labels=whole), tmp_path / "again"))[0].arrays
    first = load(root=root)[0].arrays
    for key in ("target", "region", "codes"):
        assert np.array_equal(first[key], again[key]), key


def test_slim_archives_hold_the_listed_games_and_build_the_same_dataset(tmp_path, capsys):
    """`localdata games --out DIR` keeps only the listed records (what a GPU call can carry); a build from DIR
    equals the build from the full archive."""
    from tengen.train.archives import iter_archive
    from tengen.train.localdata.__main__ import main

    games_dir, archive, listed = _games_folder(
        tmp_path, {f"fox/g{n}.sgf": _record(GAME[:n] + EXTRA) for n in (6, 8)}, {"fox/unlisted.sgf": _record(GAME[:4])},
        "other.tar.xz\tx.sgf\tB+1.5\t6.5\t0\t9\n")  # an archive this folder lacks: left out
    slim = tmp_path / "slim"
    assert main(["games", "--out", str(slim), "--games-dir", str(games_dir)]) == 0
    assert "2 of 2 listed records" in capsys.readouterr().out
    assert [name for name, _ in iter_archive(slim / archive)] == sorted(listed)
    assert "other.tar.xz" not in (slim / "finished_19x19_scored_games.txt").read_text()
    labels = _labels_for(tmp_path, listed, archive)
    built = [load(root=build(BuildConfig(phases=(0.5, 0.9), workers=1, games_dir=where, labels=labels),
                             tmp_path / where.name))[0].arrays for where in (games_dir, slim)]
    for key in built[0]:
        assert np.array_equal(built[0][key], built[1][key]), key


def test_the_finished_list_is_read_per_archive(tmp_path):
    (tmp_path / "finished_19x19_scored_games.txt").write_text("archive\tpath\nA.tar.xz\tx.sgf\nB.tar.xz\ty.sgf\nA.tar.xz\tz.sgf\n")
    assert finished_games(tmp_path) == {"A.tar.xz": ["x.sgf", "z.sgf"], "B.tar.xz": ["y.sgf"]}
