"""The one archive streamer: .sgf members in archive order, every n-th, a limit, named members; the
collection an archive holds; the games folder from the one shared-data helper."""

from __future__ import annotations

import pytest

from tengen.files import SharedDataMissing
from tengen.train.archives import collection_of, games_dir, iter_archive, manifest_counts

from train_fixtures import write_archive


@pytest.fixture
def archive(tmp_path):
    files = {f"g/{n}.sgf": f"(;SZ[19];B[{'abcdefg'[n]}a])".encode() for n in range(7)}
    files["g/README.txt"] = b"not a game"
    files["g/7.SGF"] = b"(;SZ[19])"
    path = tmp_path / "kgs_6d_test.tar.xz"
    write_archive(path, files)
    return path


@pytest.mark.parametrize("options, names", [
    ({}, ["g/0.sgf", "g/1.sgf", "g/2.sgf", "g/3.sgf", "g/4.sgf", "g/5.sgf", "g/6.sgf", "g/7.SGF"]),
    ({"every": 3}, ["g/0.sgf", "g/3.sgf", "g/6.sgf"]),
    ({"limit": 2}, ["g/0.sgf", "g/1.sgf"]),
    ({"every": 2, "limit": 3}, ["g/0.sgf", "g/2.sgf", "g/4.sgf"]),
    ({"wanted": {"g/README.txt", "g/5.sgf"}}, ["g/5.sgf", "g/README.txt"]),  # archive order, any suffix
])
def test_members_streamed(archive, options, names):
    got = list(iter_archive(archive, **options))
    assert [name for name, _ in got] == names
    assert all(data.startswith(b"(") or name.endswith(".txt") for name, data in got)


@pytest.mark.parametrize("name, collection", [
    ("pro_aeb_gosei-kifu_71934.tar.xz", "pro_aeb"), ("tom_9d_yenw_50956_sgf.tar.xz", "tom"),
    ("kgs_6d_godmoves_36692.tar.xz", "kgs"), ("yenw_ai_7259_sgf.tar.xz", "yenw_ai"),
    ("/data/fox_pro_featurecat_10348.tar.xz", "fox_pro"), ("mine.tar.xz", "other"),
])
def test_collection_of_an_archive(name, collection):
    assert collection_of(name) == collection


def test_games_folder_comes_from_the_shared_data_helper(tmp_path, monkeypatch):
    monkeypatch.setenv("TENGEN_SHARED_DATA", str(tmp_path))
    with pytest.raises(SharedDataMissing, match="TENGEN_SHARED_DATA"):
        games_dir()
    (tmp_path / "games").mkdir()
    assert games_dir() == tmp_path / "games"
    assert manifest_counts(tmp_path / "games") == {}
