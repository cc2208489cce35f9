"""The rules core: colors, coordinates, rules, the board, scoring and Benson's unconditional life.

Zero knowledge of networks or search. The board's hot paths run in the C extension `_native`.
"""
from tengen.go.colors import BLACK, EMPTY, WHITE, opponent
from tengen.go.rules import Rules
from tengen.go.board import Board, IllegalMove
from tengen.go import coords

__all__ = ["BLACK", "WHITE", "EMPTY", "opponent", "Rules", "Board", "IllegalMove", "coords"]
