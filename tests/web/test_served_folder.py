"""Reading a record by path under `tengen serve --folder`: opened once, name by name from the folder's own
descriptor, never through a link, so swapping a file for a link to a file outside the folder between a
check and the read cannot leak it (issue 47, item 1); FIFOs and other non-regular files are neither listed
nor opened."""
from __future__ import annotations

import os
import threading

import pytest

from tengen.web.files import FileRefused, list_records, read_under

INSIDE = b"(;GM[1]SZ[5]C[inside])"
OUTSIDE = b"(;GM[1]SZ[5]C[outside secret])"


@pytest.fixture
def folder(tmp_path):
    served = tmp_path / "served"
    (served / "sub").mkdir(parents=True)
    (served / "game.sgf").write_bytes(INSIDE)
    (served / "sub" / "deep.sgf").write_bytes(INSIDE)
    (tmp_path / "secret.sgf").write_bytes(OUTSIDE)
    return served


def test_regular_files_are_read_by_their_relative_paths(folder):
    assert read_under(folder, "game.sgf") == INSIDE
    assert read_under(folder, "sub/deep.sgf") == INSIDE
    assert read_under(folder, "./sub//deep.sgf") == INSIDE


@pytest.mark.parametrize("make_link", ["file", "directory"])
def test_links_are_never_followed(folder, make_link):
    if make_link == "file":
        os.symlink(folder.parent / "secret.sgf", folder / "link.sgf")
        path = "link.sgf"
    else:
        os.symlink(folder.parent, folder / "up")
        path = "up/secret.sgf"
    with pytest.raises(FileRefused, match="links are not followed"):
        read_under(folder, path)


def test_a_link_inside_the_folder_is_refused_too(folder):
    os.symlink(folder / "game.sgf", folder / "alias.sgf")
    with pytest.raises(FileRefused):
        read_under(folder, "alias.sgf")


def test_fifos_are_neither_listed_nor_opened(folder):
    os.mkfifo(folder / "pipe.sgf")
    assert "pipe.sgf" not in list_records(folder).files
    with pytest.raises(FileRefused, match="not a regular file"):
        read_under(folder, "pipe.sgf")  # returns at once: opened without blocking, then refused


def test_a_file_swapped_for_a_link_mid_request_never_leaks_the_outside_file(folder):
    """The race of issue 47: one thread swaps game.sgf for a link to ../secret.sgf and back as fast as it
    can while another reads; every read is the inside record or a refusal, never the outside one."""
    target = folder / "game.sgf"
    stop = threading.Event()

    def swap():
        spare = folder / "spare.sgf"
        link = folder / "link-tmp.sgf"
        while not stop.is_set():
            os.symlink(folder.parent / "secret.sgf", link)
            os.replace(link, target)  # now a link to the outside file
            spare.write_bytes(INSIDE)
            os.replace(spare, target)  # a regular file again

    swapper = threading.Thread(target=swap)
    swapper.start()
    read, refused = 0, 0
    try:
        for _ in range(3000):
            try:
                data = read_under(folder, "game.sgf")
            except FileRefused:
                refused += 1
                continue
            assert data == INSIDE
            read += 1
    finally:
        stop.set()
        swapper.join()
    assert read > 0  # the swap was really racing with reads of the real file


def test_the_listing_pages_and_searches_and_never_cuts_silently(tmp_path, monkeypatch):
    import tengen.web.files as files

    for i in range(250):
        (tmp_path / f"game-{i:03d}.sgf").write_text("(;GM[1]SZ[9])")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Honinbo-1.sgf").write_text("(;GM[1]SZ[9])")
    first = list_records(tmp_path)
    assert (len(first.files), first.total, first.complete) == (100, 251, True)
    last = list_records(tmp_path, offset=200)
    assert last.files[-1] == "sub/Honinbo-1.sgf" and len(last.files) == 51
    assert list_records(tmp_path, search="honinbo").files == ["sub/Honinbo-1.sgf"]
    assert list_records(tmp_path, search="game-12").total == 10  # game-120 to game-129
    monkeypatch.setattr(files, "MAX_SCANNED", 50)
    capped = list_records(tmp_path)
    assert (capped.total, capped.complete) == (50, False)  # said, not silent
