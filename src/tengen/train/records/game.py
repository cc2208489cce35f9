"""One archive SGF as a `GameRecord` (winner, result kind, komi, handicap, setup stones, moves), read through
tengen.go's SGF reader, or `SkipGame` naming why the dataset leaves it out; and the record's move key (the
dedup and split key)."""
from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field

from tengen.go.colors import BLACK
from tengen.go.sgf import Game, SgfError, load_game_bytes
from tengen.train.records.komi import record_komi
from tengen.train.records.store import BOARD_SIZE


class SkipGame(Exception):
    """A game left out of the dataset; ``reason`` is the counter key written to the log."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass
class GameRecord:
    """What the dataset needs from one SGF: size, winner, komi, handicap, setup stones and moves."""

    path: str
    collection: str
    winner: int  # BLACK = 1, WHITE = -1
    result_kind: str  # score / resign / time / winner_only
    komi: float  # NaN when unknown
    handicap: int
    setup_black: list[tuple[int, int]] = field(default_factory=list)
    setup_white: list[tuple[int, int]] = field(default_factory=list)
    moves: list[tuple[int, tuple[int, int] | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # counted quirks that did not skip the game


_RESULT = re.compile(r"^([BW])\s*\+\s*(.*)$")


def parse_result(text: str | None) -> tuple[int, str]:
    """RE value -> (winner, kind); raises SkipGame for no result, draws, Void, B+0.0 and odd strings."""
    if text is None or not text.strip():
        raise SkipGame("no_result")
    value = text.strip()
    upper = value.upper()
    if upper.startswith("VOID"):
        raise SkipGame("void", value)
    if upper in ("0", "DRAW", "JIGO", "B+0", "W+0") or upper.startswith(("JIGO", "DRAW")):
        raise SkipGame("draw", value)
    m = _RESULT.match(upper)
    if not m:
        raise SkipGame("odd_result", value)
    winner = 1 if m.group(1) == "B" else -1
    tail = m.group(2).strip()
    if tail == "":
        return winner, "winner_only"
    if tail in ("R", "RESIGN"):
        return winner, "resign"
    if tail in ("T", "TIME"):
        return winner, "time"
    if tail in ("F", "FORFEIT"):
        raise SkipGame("forfeit", value)
    try:
        margin = float(tail)
    except ValueError:
        raise SkipGame("odd_result", value) from None
    if margin == 0 or not math.isfinite(margin):
        raise SkipGame("zero_margin", value)
    return winner, "score"


def _raw_root(game: Game, prop: str) -> str | None:
    """A root property as written (bytes as Latin-1, so any encoding reads), None when absent."""
    root = game.sgf.get_root()
    return root.get_raw(prop).decode("latin-1") if root.has_property(prop) else None


def parse_game(data: bytes, path: str = "", collection: str = "other") -> GameRecord:
    """Parse one SGF file's bytes into a GameRecord; raises SkipGame (with a reason) when it is unusable."""
    notes: list[str] = []
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b";"):
        notes.append("fixed_missing_paren")  # the reader repairs it; counted among the archives' quirks
    try:
        game = load_game_bytes(data, path)
    except SgfError as exc:
        raise SkipGame("parse_error", exc.problem[:80]) from None
    if (game.width, game.height) != (BOARD_SIZE, BOARD_SIZE):
        raise SkipGame("not_19x19", str(game.width))
    winner, kind = parse_result(_raw_root(game, "RE"))
    black: list[tuple[int, int]] = []
    white: list[tuple[int, int]] = []
    moves: list[tuple[int, tuple[int, int] | None]] = []
    root = game.sgf.get_root()
    for event in game.events:
        if event.is_move:
            moves.append((event.color, event.point))
            continue
        if event.node is not root:
            if moves or event.setup_empty:
                raise SkipGame("setup_in_game")
            notes.append("setup_after_root")  # handicap stones in the node after the root (YuanYu files)
        black += event.setup_black
        white += event.setup_white
    if not moves:
        raise SkipGame("no_moves")
    handicap = record_handicap(game, notes)
    even = handicap == 0 and not black and not white  # HA[1]: a no-komi game (records.komi)
    komi = record_komi(game, collection, even, notes)
    return GameRecord(path, collection, winner, kind, komi, handicap, black, white, moves, notes)


def record_handicap(game: Game, notes: list[str]) -> int:
    """HA as written: HA[1] stays 1 (sgfmill, and so `Game.handicap`, read it as malformed, 0; in the archives
    it marks a no-komi game); unreadable is 0, noted."""
    text = _raw_root(game, "HA")
    try:
        return int(text or 0)
    except ValueError:
        notes.append("handicap_unreadable")
        return 0


def move_key(record: GameRecord) -> int:
    """64-bit hash of setup stones and the move sequence: the dedup key and the split key."""
    parts = ["B" + ",".join(f"{r}.{c}" for r, c in sorted(record.setup_black)),
             "W" + ",".join(f"{r}.{c}" for r, c in sorted(record.setup_white))]
    parts += [("b" if col == BLACK else "w") + ("-" if p is None else f"{p[0]}.{p[1]}") for col, p in record.moves]
    digest = hashlib.blake2b(";".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")
