"""Games written in the usual notation (`tengen.cgt.notation` reads it): `{3 | {2 | 1}}` with every
subgame braced, or `{3||2|1}` with bars. It reads a game's options and value only, so `Game` can print
itself with it without the reader's import of `Game`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from tengen.cgt.numbers import format_value

if TYPE_CHECKING:
    from tengen.cgt.game import Game


def format_game(g: Game, bars: bool = False) -> str:
    """'{3 | {2 | 1}}' (every subgame braced, like the data files) or, with bars=True, '{3||2|1}'."""
    if g.value is not None:
        return format_value(g.value)
    if bars:
        return "{" + _bars(g)[0] + "}"
    left = ", ".join(format_game(o) for o in g.left)
    right = ", ".join(format_game(o) for o in g.right)
    return "{" + (left + " " if left else "") + "|" + (" " + right if right else "") + "}"


def _bars(g: Game) -> tuple[str, int]:
    """Body text without outer braces and its number of bars."""
    sides, width = [], 0
    for opts in (g.left, g.right):
        if len(opts) == 1 and opts[0].value is None and opts[0].left and opts[0].right:
            text, n = _bars(opts[0])
            width = max(width, n)
            sides.append(text)
        else:
            sides.append(",".join(format_value(o.value) if o.value is not None else "{" + _bars(o)[0] + "}"
                                  for o in opts))
    width += 1
    return sides[0] + "|" * width + sides[1], width
