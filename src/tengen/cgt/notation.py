"""Reading and writing games in the usual notation: `{3||2|1}` (more bars bind looser), `{0, 1 | 2}`,
`{{+inf | {2 | -inf}} | -2}`, numbers like `-2/3`, threats `+inf` / `-inf`, `*` and `x*`."""
from __future__ import annotations

from tengen.cgt.game import Game
from tengen.cgt.numbers import to_value


class GameSyntaxError(ValueError):
    """Text that is not a game in {L | R} notation."""


def parse_game(text: str) -> Game:
    """Parse '{3||2|1}', '{{4|2}|0}', '2', '-inf', '{0,*|1}', '1*' ... into a Game (structure kept as written)."""
    s = "".join(text.split())
    if not s:
        raise GameSyntaxError("empty text")
    if _top_level_bars(s):
        return _parse_body(s)
    return _parse_term(s)


def _matching(s: str, i: int) -> int:
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
            if depth < 0:
                break
    raise GameSyntaxError(f"unbalanced braces in {s!r}")


def _top_level_bars(s: str) -> list[tuple[int, int]]:
    """(start, length) of each run of '|' outside braces."""
    runs, depth, i = [], 0, 0
    while i < len(s):
        ch = s[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise GameSyntaxError(f"unbalanced braces in {s!r}")
        elif ch == "|" and depth == 0:
            j = i
            while j < len(s) and s[j] == "|":
                j += 1
            runs.append((i, j - i))
            i = j
            continue
        i += 1
    if depth != 0:
        raise GameSyntaxError(f"unbalanced braces in {s!r}")
    return runs


def _split_commas(s: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    return parts


def _parse_body(s: str) -> Game:
    runs = _top_level_bars(s)
    if not runs:
        raise GameSyntaxError(f"no '|' in {{{s}}}")
    widest = max(n for _, n in runs)
    at = [i for i, n in runs if n == widest]
    if len(at) > 1:
        raise GameSyntaxError(f"ambiguous bars in {{{s}}}: {widest} bars appear {len(at)} times")
    i = at[0]
    return Game(_parse_side(s[:i]), _parse_side(s[i + widest:]))


def _parse_side(s: str) -> list[Game]:
    if s == "":
        return []
    if _top_level_bars(s):
        return [_parse_body(s)]
    parts = _split_commas(s)
    if any(p == "" for p in parts):
        raise GameSyntaxError(f"empty option in {s!r}")
    return [_parse_term(p) for p in parts]


def _parse_term(s: str) -> Game:
    if s.startswith("{"):
        end = _matching(s, 0)
        if end != len(s) - 1:
            raise GameSyntaxError(f"text after the closing brace in {s!r}")
        return _parse_body(s[1:-1]) if s[1:-1] else Game()
    if s == "*":
        return Game([0], [0])
    if s.endswith("*"):  # x* = {x | x}
        x = _number(s[:-1])
        return Game([x], [x])
    return Game(value=_number(s))


def _number(s: str):
    try:
        return to_value(s)
    except (ValueError, ZeroDivisionError) as exc:
        raise GameSyntaxError(f"not a number: {s!r}") from exc
