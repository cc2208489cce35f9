"""Short games {L | R} with exact numeric leaves: construction, sums, order, and simplification.

A `Game` is immutable and hashed structurally (two equal trees are one dictionary key); `==` is that
structural identity. The game order is `le` / `ge` / `equal` / `confused` (a partial order: two different
trees can be equal games). Leaves are numbers (`Fraction`) or +-inf threats.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional, Union

from tengen.cgt.numbers import Value, add_values, is_infinite, number_options, to_value
from tengen.cgt.thermo import Thermo, combine, number_thermo

GameLike = Union["Game", int, str, "Value"]


class Game:
    """{left options | right options}, or a number leaf (`value` set, no options)."""

    __slots__ = ("left", "right", "value", "_hash", "_thermo")

    def __init__(self, left: Iterable[GameLike] = (), right: Iterable[GameLike] = (), value: Optional[Value] = None):
        self.left: tuple[Game, ...] = tuple(as_game(o) for o in left)
        self.right: tuple[Game, ...] = tuple(as_game(o) for o in right)
        if value is not None and (self.left or self.right):
            raise ValueError("a number leaf has no options")
        self.value: Optional[Value] = value
        self._hash: Optional[int] = None
        self._thermo: Optional[Thermo] = None

    @classmethod
    def num(cls, x: object) -> "Game":
        """A number leaf (int, Fraction, '3/4', '+inf', ...)."""
        return cls(value=to_value(x))

    # ------------------------------------------------------------ identity
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Game) or hash(self) != hash(other):
            return False
        return self.value == other.value and self.left == other.left and self.right == other.right

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.value, self.left, self.right))
        return self._hash

    def __repr__(self) -> str:
        from tengen.cgt.notation_write import format_game

        return f"Game({format_game(self)!r})"

    def __str__(self) -> str:
        from tengen.cgt.notation_write import format_game

        return format_game(self)

    # ------------------------------------------------------------ thermography
    @property
    def thermograph(self) -> Thermo:
        """Walls, mean, temperature, stops and kind (cached)."""
        if self._thermo is None:
            if self.value is not None:
                self._thermo = number_thermo(self.value)
            else:
                self._thermo = combine([o.thermograph for o in self.left], [o.thermograph for o in self.right])
        return self._thermo

    @property
    def is_leaf(self) -> bool:
        return self.value is not None

    @property
    def number(self) -> Optional[Value]:
        """The number this game equals, if it is one (simplicity theorem), else None."""
        return self.thermograph.number

    @property
    def mean(self) -> Optional[Value]:
        return self.thermograph.mean

    @property
    def temperature(self) -> Value:
        return self.thermograph.temperature

    @property
    def kind(self) -> str:
        return self.thermograph.kind

    # ------------------------------------------------------------ arithmetic
    def __add__(self, other: GameLike) -> "Game":
        return game_sum(self, as_game(other))

    __radd__ = __add__

    def __neg__(self) -> "Game":
        return negate(self)

    def __sub__(self, other: GameLike) -> "Game":
        return game_sum(self, negate(as_game(other)))

    # ------------------------------------------------------------ order (CGT, partial)
    def le(self, other: GameLike) -> bool:
        return le(self, as_game(other))

    def ge(self, other: GameLike) -> bool:
        return le(as_game(other), self)

    def equal(self, other: GameLike) -> bool:
        o = as_game(other)
        return le(self, o) and le(o, self)

    def confused(self, other: GameLike) -> bool:
        o = as_game(other)
        return not le(self, o) and not le(o, self)


def as_game(x: GameLike) -> Game:
    """A Game as is; numbers and strings like '3/2', '+inf' as number leaves."""
    return x if isinstance(x, Game) else Game.num(x)


ZERO_GAME = Game.num(0)
STAR = Game([ZERO_GAME], [ZERO_GAME])


@lru_cache(maxsize=1 << 18)
def le(g: Game, h: Game) -> bool:
    """g <= h in the game order (Black = Left prefers larger). Numbers use stops and tie flags."""
    tg, th = g.thermograph, h.thermograph
    if tg.number is not None and th.number is not None:
        return tg.number <= th.number
    if tg.number is not None:  # x <= H  iff  H >= x
        x = tg.number
        return x < th.rs or (x == th.rs and th.ge_rs)
    if th.number is not None:  # G <= x
        x = th.number
        return x > tg.ls or (x == tg.ls and tg.le_ls)
    return not any(le(h, gl) for gl in g.left) and not any(le(hr, g) for hr in h.right)


@lru_cache(maxsize=1 << 16)
def negate(g: Game) -> Game:
    """-g: colors swapped."""
    if g.value is not None:
        return Game(value=-g.value)
    return Game([negate(o) for o in g.right], [negate(o) for o in g.left])


def translate(g: Game, x: Value) -> Game:
    """x + g for a number x (number translation: x + {L | R} = {x + L | x + R} for non-numbers)."""
    if x == 0:
        return g
    if g.number is not None:  # a number subgame moves as a whole (its leaves would not)
        return Game(value=add_values(g.number, x))
    if is_infinite(x):
        return Game(value=x)
    return Game([translate(o, x) for o in g.left], [translate(o, x) for o in g.right])


@lru_cache(maxsize=1 << 16)
def game_sum(g: Game, h: Game) -> Game:
    """The disjunctive sum g + h (numbers are absorbed by translation; threats absorb everything)."""
    ng, nh = g.number, h.number
    if ng is not None and nh is not None:
        return Game(value=add_values(ng, nh))
    if ng is not None:
        return translate(h, ng)
    if nh is not None:
        return translate(g, nh)
    left = [game_sum(o, h) for o in g.left] + [game_sum(g, o) for o in h.left]
    right = [game_sum(o, h) for o in g.right] + [game_sum(g, o) for o in h.right]
    return Game(left, right)


def sum_games(games: Iterable[GameLike]) -> Game:
    """g1 + g2 + ... (0 for none)."""
    out = ZERO_GAME
    for g in games:
        out = game_sum(out, as_game(g))
    return out


def _undominated(opts: list[Game], left: bool) -> list[Game]:
    """Drop options dominated by another (Left keeps maxima, Right minima); keeps one of equal ones."""
    keep: list[Game] = []
    for i, a in enumerate(opts):
        dominated = False
        for j, b in enumerate(opts):
            if i == j:
                continue
            worse = le(a, b) if left else le(b, a)
            if worse:
                better_too = le(b, a) if left else le(a, b)
                if not better_too or j < i:  # strictly dominated, or equal and not the first copy
                    dominated = True
                    break
        if not dominated:
            keep.append(a)
    return keep


def _options_of(g: Game) -> Optional[tuple[tuple[Game, ...], tuple[Game, ...]]]:
    """Options for reversibility bypass; None where a number has no short canonical form."""
    if g.value is None and g.number is None:
        return g.left, g.right
    opts = number_options(g.number)
    if opts is None:
        if is_infinite(g.number):  # a threat: no option to bypass into
            return (), ()
        return None
    return tuple(Game(value=v) for v in opts[0]), tuple(Game(value=v) for v in opts[1])


@lru_cache(maxsize=1 << 16)
def simplify(g: Game) -> Game:
    """An equal game with numbers collapsed to leaves, dominated options removed and reversible options
    bypassed (canonical form when every leaf is dyadic; bypass through non-dyadic leaves is skipped)."""
    if g.number is not None:
        return Game(value=g.number)
    left = [simplify(o) for o in g.left]
    right = [simplify(o) for o in g.right]
    while True:
        left = _undominated(list(dict.fromkeys(left)), True)
        right = _undominated(list(dict.fromkeys(right)), False)
        current = Game(left, right)
        changed = False
        for i, a in enumerate(left):  # Left option a reverses through a^R <= G
            a_opts = _options_of(a)
            opts = None if a_opts is None else _reversal(a_opts[1], current, True)
            if opts is not None:
                left = left[:i] + [simplify(o) for o in opts] + left[i + 1:]
                changed = True
                break
        if not changed:
            for i, a in enumerate(right):
                a_opts = _options_of(a)
                opts = None if a_opts is None else _reversal(a_opts[0], current, False)
                if opts is not None:
                    right = right[:i] + [simplify(o) for o in opts] + right[i + 1:]
                    changed = True
                    break
        if not changed:
            out = Game(left, right)
            return Game(value=out.number) if out.number is not None else out


def _reversal(replies: tuple[Game, ...], g: Game, left: bool) -> Optional[tuple[Game, ...]]:
    """The replacement options if some reply reverses the option (None if none does or cannot)."""
    for reply in replies:
        if (le(reply, g) if left else le(g, reply)):
            opts = _options_of(reply)
            if opts is None:
                continue
            return opts[0] if left else opts[1]
    return None


def birthday(g: Game) -> int:
    """Depth of the tree (leaves count 0): a size measure for tests and reports."""
    if g.value is not None:
        return 0
    return 1 + max((birthday(o) for o in (*g.left, *g.right)), default=-1)

