"""SGF writing: analysis back onto a record as comments, markup and variations, and the record written
atomically in a charset that holds its text. Reading lives in `tengen.go.sgf`."""
from __future__ import annotations

import os
from typing import Iterable

from tengen.files import write_atomic
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point
from tengen.go.sgf import Game, comment_text


def _sgfmill_point(point: Point, size: int) -> tuple[int, int]:
    return size - 1 - point[0], point[1]


def annotate(node, comment: str = "", labels: dict[Point, str] | None = None, squares: Iterable[Point] = (),
             triangles: Iterable[Point] = (), circles: Iterable[Point] = (), crosses: Iterable[Point] = (),
             black_territory: Iterable[Point] = (), white_territory: Iterable[Point] = (), size: int = 19) -> None:
    """Add a comment (appended to any existing one) and markup (LB, SQ, TR, CR, MA, TB, TW) to a node.
    Labels are merged with the node's own (ours win where both label a point)."""
    if comment:
        old = comment_text(node)
        node.set("C", f"{old}\n\n{comment}" if old else comment)
    if labels:
        ours = {_sgfmill_point(p, size): text for p, text in labels.items()}
        try:
            kept = [(q, text) for q, text in node.get("LB") if q not in ours] if node.has_property("LB") else []
        except ValueError:
            kept = []  # unreadable labels: replaced
        node.set("LB", kept + list(ours.items()))
    for prop, points in (("SQ", squares), ("TR", triangles), ("CR", circles), ("MA", crosses),
                         ("TB", black_territory), ("TW", white_territory)):
        pts = {_sgfmill_point(p, size) for p in points}
        if pts:
            node.set(prop, pts)


def add_variation(node, moves: Iterable[tuple[int, Move]], comment: str = "", size: int = 19):
    """Append a sequence of moves as a new child line under `node`; returns the last node."""
    current = node
    for i, (color, point) in enumerate(moves):
        current = current.new_child()
        current.set_move("b" if color == BLACK else "w", None if point is None else _sgfmill_point(point, size))
        if i == 0 and comment:
            current.add_comment_text(comment)
    return current


def repair_charset(sgf_game) -> int:
    """Make every property value decodable in the record's own charset, so that what is written is valid
    text (sgfmill writes values as they were read: latin-1 bytes under CA[UTF-8] would stay invalid
    UTF-8). Bytes the charset cannot decode become U+FFFD ('?' where the charset cannot hold it).
    Returns how many values were repaired."""
    encoding = sgf_game.get_root().get_encoding()
    repaired = 0
    for node in _all_nodes(sgf_game.get_root()):
        for prop, values in node.get_raw_property_map().items():
            fixed = []
            for value in values:
                try:
                    value.decode(encoding)
                    fixed.append(value)
                except UnicodeDecodeError:
                    fixed.append(value.decode(encoding, "replace").encode(encoding, "replace"))
                    repaired += 1
            if fixed != values:
                node.set_raw_list(prop, fixed)
    return repaired


def _all_nodes(root):
    """Every node of a game tree, without recursion (records can be deep)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node)


def write_game(game: Game, path: str | os.PathLike) -> int:
    """Serialise the (annotated) sgfmill game atomically: write a temp file, then rename. Values with bytes
    outside the record's charset are repaired first (`repair_charset`); returns how many were."""
    repaired = repair_charset(game.sgf)
    try:
        data = game.sgf.serialise()
    except (UnicodeError, ValueError):  # CA names a charset that cannot hold the text as read (or none at all)
        root = game.sgf.get_root()
        root.set_raw("CA", root.get_encoding().encode("ascii"))  # the encoding the values are held in
        data = game.sgf.serialise()
    write_atomic(path, data)
    return repaired
