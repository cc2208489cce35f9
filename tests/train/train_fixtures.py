"""Synthetic game records and archives for the train tests (imported by name: tests/train is on sys.path)."""
from __future__ import annotations

import io
import tarfile


def write_archive(path, files: dict[str, bytes]) -> None:
    """A tar.xz holding `files` (name -> bytes) in order."""
    with tarfile.open(path, "w:xz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def sgf(moves: list[str], props: str = "KM[6.5]RE[B+R]") -> bytes:
    """A 19x19 record with the given root properties and main-line moves ("B[pd]", ...)."""
    return f"(;GM[1]FF[4]SZ[19]{props};{';'.join(moves)})".encode()


def capture_game(n_moves: int, props: str = "KM[6.5]RE[B+R]") -> bytes:
    """Black takes White's corner stone at A19 with move 5, then both sides fill a block from G13 down."""
    seq = ["B[ba]", "W[aa]", "B[pd]", "W[dp]", "B[ab]"]
    far = [f"{c}{r}" for c in "ghijklmnop" for r in "ghijklmnop"]
    color = "W"
    for point in far[: n_moves - len(seq)]:
        seq.append(f"{color}[{point}]")
        color = "B" if color == "W" else "W"
    return sgf(seq, props)
