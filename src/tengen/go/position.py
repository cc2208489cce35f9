"""A position read from a game record: the record, the board after some moves of its main line, and the
node that holds it (where SQ[] markup and variations for that position live). The one loader every command
and the library use."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from tengen.go.board import Board
from tengen.go.sgf import Game, load_game


@dataclass
class Position:
    """`board` after `move` moves of `game`'s main line (None: the end), held by `node`."""

    game: Game
    board: Board
    node: object
    move: Optional[int] = None


def load_position(path: str | os.PathLike, move: Optional[int] = None, rules: Optional[str] = None) -> Position:
    """An SGF file's position after `move` moves of the main line (the end by default; illegal moves are
    placed as editors do, and `game.forced_warnings()` names them), under `rules` (a name, as RU or GTP
    write it; None: the record's, `Game.rules_said` says whence). Raises SgfError or ValueError in one line."""
    game = load_game(path)
    if rules is not None:
        game.override_rules(rules)
    return Position(game, game.board_at(move, strict=False), game.node_at(move), move)
