"""The SGF reader's komi: as points (x100 and Chinese 'zi' values repaired, the repair named), and whether the
record stated one at all (an absent or unreadable KM reads as 0, which is not the record's komi)."""
from __future__ import annotations

import pytest

from tengen.go.sgf import load_game_bytes


@pytest.mark.parametrize("km, komi, stated, repairs", [
    ("KM[6.5]", 6.5, True, []),
    ("KM[0.50]", 0.5, True, []),
    ("KM[0]", 0.0, True, []),
    ("KM[750]", 7.5, True, ["komi_x100"]),
    ("KM[650]", 6.5, True, ["komi_x100"]),
    ("KM[375]", 7.5, True, ["komi_x100", "komi_stones"]),
    ("KM[3.75]", 7.5, True, ["komi_stones"]),
    ("KM[-5.5]", -5.5, True, []),
    ("KM[-100.00]", -100.0, True, []),  # a real large komi (KGS), written with a point: not x100
    ("KM[6,5]", 6.5, True, []),  # a decimal comma, read leniently
    ("", 0.0, False, []),
    ("KM[abc]", 0.0, False, []),
])
def test_komi_as_points_and_whether_the_record_states_it(km, komi, stated, repairs):
    game = load_game_bytes(f"(;GM[1]FF[4]SZ[19]{km};B[pd];W[dp])".encode(), "k.sgf")
    assert (game.komi, game.komi_stated, game.repairs) == (komi, stated, repairs)


def test_a_declared_codec_that_is_no_text_encoding_falls_back():
    """CA[base64_codec] names a codec Python knows but not a text encoding (found by the slow fuzz test: a
    LookupError traceback on the first text property): read with the fallback encodings instead."""
    game = load_game_bytes(b"(;GM[1]SZ[19]RU[Chinese]CA[base64_codec];B[aa])", "codec.sgf")
    assert len(game.moves) == 1
