"""From a local variation tree (what a Go region analysis produces) to a game and its numbers.

`Variation` is one local position: Black's moves, White's moves, or a leaf value (area count of the
settled region, or a +-inf threat). A move flagged with `repeats = 2` is an immediate ko retake that the
ko rule forbids (it would recreate the position two plies up); `game_from_tree` gives it a phantom value
by the ko rule of `tengen.cgt.ko`, or raises `UnsupportedKo`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Hashable, Mapping, Optional

from tengen.cgt.game import Game, le
from tengen.cgt.ko import KoChain, UnsupportedKo, simple_ko
from tengen.cgt.numbers import Value, is_infinite, to_value
from tengen.cgt.thermo import KO, Thermo, orthodox_indices
from tengen.cgt.values import MoveValues, move_values


@dataclass(eq=False)
class Variation:
    """A local position in a variation tree.

    black / white: (move label, resulting position) for each move considered; value: a leaf's area
    count (Black minus White over the region) or +-inf for a threat; repeats: 0 for an ordinary move,
    k > 0 when this move is forbidden because it would recreate the position k plies up (2 = simple ko
    retake; its own options and value are ignored); info: free annotations (dead stones, dame, notes).
    """

    black: list[tuple[Hashable, "Variation"]] = field(default_factory=list)
    white: list[tuple[Hashable, "Variation"]] = field(default_factory=list)
    value: Optional[Value] = None
    repeats: int = 0
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def leaf(cls, value: object, **info: Any) -> "Variation":
        """A settled position (area count) or a threat ('+inf' / '-inf')."""
        return cls(value=to_value(value), info=info)

    @classmethod
    def ko_retake(cls, repeats: int = 2, **info: Any) -> "Variation":
        """A retake the ko rule forbids now (it would recreate the position `repeats` plies up)."""
        return cls(repeats=repeats, info=info)

    @property
    def is_leaf(self) -> bool:
        return self.repeats == 0 and self.value is not None


@dataclass(frozen=True)
class TreeAnalysis:
    """The numbers of a variation tree: the game, its thermograph, kind ('ko' when the root is a ko),
    mean, temperature, labelled move values, the orthodox first moves, and the ko chain if any."""

    game: Game
    thermograph: Thermo
    kind: str
    mean: Optional[Value]
    temperature: Value
    move_values: MoveValues
    best_black: list[Hashable]
    best_white: list[Hashable]
    ko: Optional[KoChain]


NORMAL_PLAY, STOP = "normal", "stop"  # how a position with one side's moves only is valued (`analyze_tree`)


def game_from_tree(root: Variation, one_sided: str = NORMAL_PLAY) -> Game:
    """The game of a variation tree (ko retakes get phantom values; UnsupportedKo where impossible)."""
    return _Builder(root, one_sided).game(root)


def analyze_tree(root: Variation, one_sided: str = NORMAL_PLAY) -> TreeAnalysis:
    """Game, thermograph, kind, mean, temperature, move values and best moves of a variation tree.

    one_sided: a position where only one side has moves is, in normal play, a number ({| 4} = 0,
    {4 |} = 5); with STOP the other side simply cannot play there (Go under area scoring: it loses
    nothing by playing elsewhere), so the position gets that side's option at the moving side's stop
    and is worth that stop ({| 4} becomes {4 | 4}: mean 4, temperature 0)."""
    builder = _Builder(root, one_sided)
    game = builder.game(root)
    th = game.thermograph
    chain = builder.kos.get(id(root))
    kind = KO if chain is not None else th.kind
    li, ri = orthodox_indices([o.thermograph for o in game.left], [o.thermograph for o in game.right], th)
    # an index past the tree's own moves is the stop option a one-sided position got: not a move
    best_b = [root.black[i][0] for i in li if i < len(root.black) and root.black[i][1].repeats == 0]
    best_w = [root.white[i][0] for i in ri if i < len(root.white) and root.white[i][1].repeats == 0]
    return TreeAnalysis(game, th, kind, th.mean, th.temperature, move_values(kind, th.temperature),
                        best_b, best_w, chain)


class _Builder:
    """Builds games bottom-up; resolves each ko anchor (the position a banned retake would recreate)."""

    def __init__(self, root: Variation, one_sided: str = NORMAL_PLAY):
        if one_sided not in (NORMAL_PLAY, STOP):
            raise ValueError(f"one_sided must be {NORMAL_PLAY!r} or {STOP!r}")
        self.one_sided = one_sided
        self.banned: dict[int, list[tuple[Variation, Variation]]] = {}  # id(anchor) -> [(parent, retake)]
        self.phantom: dict[int, Value] = {}
        self.kos: dict[int, Optional[KoChain]] = {}
        self.memo: dict[int, Game] = {}
        leaves: list[Value] = []
        self._scan(root, [], leaves, set())
        finite = [v for v in leaves if not is_infinite(v)]
        self.lo: Value = min(finite, default=0)
        self.hi: Value = max(finite, default=0)

    def _scan(self, node: Variation, path: list[Variation], leaves: list[Value], on_path: set[int]) -> None:
        if id(node) in on_path:
            raise ValueError("the variation tree has a cycle; mark ko retakes with repeats instead")
        if node.repeats:
            depth = len(path)  # the retake would sit at this depth; the repeated position is `repeats` up
            if node.repeats != 2:
                raise UnsupportedKo(f"a cycle of {node.repeats} plies (only simple ko retakes are supported)")
            if depth - node.repeats < 0:
                raise UnsupportedKo("a ko retake that repeats a position above the root of the tree")
            anchor, parent = path[depth - 2], path[depth - 1]
            self.banned.setdefault(id(anchor), []).append((parent, node))
            return
        if node.value is not None:
            if node.black or node.white:
                raise ValueError("a leaf with a value cannot also have moves")
            leaves.append(node.value)
            return
        if not node.black and not node.white:
            raise ValueError("a position with no moves needs a leaf value (its area count)")
        on_path.add(id(node))
        for _, child in (*node.black, *node.white):
            self._scan(child, path + [node], leaves, on_path)
        on_path.discard(id(node))

    # ------------------------------------------------------------ building
    def game(self, node: Variation) -> Game:
        got = self.memo.get(id(node))
        if got is not None:
            return got
        if node.repeats:  # a banned retake has no position of its own: only its parent's phantom values it
            raise UnsupportedKo("a banned ko retake reached where a position was expected")
        if node.value is not None:
            g = Game(value=node.value)
        else:
            if id(node) in self.banned and id(node) not in self.phantom:
                self._resolve(node)
            lefts = [self._option(node, c) for _, c in node.black]
            rights = [self._option(node, c) for _, c in node.white]
            if self.one_sided == STOP and bool(lefts) != bool(rights):
                lefts, rights = _with_stop_option(lefts, rights)
            g = Game(lefts, rights)
        self.memo[id(node)] = g
        return g

    def _option(self, parent: Variation, child: Variation) -> Game:
        if child.repeats:
            for anchor_id, pairs in self.banned.items():
                if any(r is child and p is parent for p, r in pairs):
                    if anchor_id not in self.phantom:
                        raise UnsupportedKo("a ko retake whose repeated position is not yet valued")
                    return Game(value=self.phantom[anchor_id])
            raise UnsupportedKo("an unregistered ko retake")
        return self.game(child)

    def _with_phantom(self, anchor: Variation, value: Value) -> Game:
        saved = dict(self.memo), dict(self.phantom), dict(self.kos)
        self.memo.clear()
        self.phantom[id(anchor)] = value
        g = self.game(anchor)
        self.memo, self.phantom, self.kos = saved[0], saved[1], saved[2]
        return g

    def _resolve(self, anchor: Variation) -> None:
        """Choose the phantom of the retakes that return to `anchor` (or raise UnsupportedKo)."""
        g_lo = self._with_phantom(anchor, self.lo)
        g_hi = self._with_phantom(anchor, self.hi)
        if g_lo.equal(g_hi):  # the ko does not matter: any phantom gives the same game
            self.phantom[id(anchor)] = self.lo
            self.kos[id(anchor)] = None
            self.memo.clear()
            return
        pairs = self.banned[id(anchor)]
        if len(pairs) != 1:
            raise UnsupportedKo("several ko retakes return to one position (branching ko)")
        taken, retake = pairs[0]
        in_black = any(c is taken for _, c in anchor.black)
        in_white = any(c is taken for _, c in anchor.white)
        if in_black == in_white:
            raise UnsupportedKo("the ko-taking move is ambiguous")
        taker = "black" if in_black else "white"
        taker_opts, banned_opts = (taken.black, taken.white) if in_black else (taken.white, taken.black)
        if len(banned_opts) != 1 or banned_opts[0][1] is not retake:
            raise UnsupportedKo("the ko-banned side has other moves after the take (several exits)")
        other_opts = anchor.white if in_black else anchor.black
        if any(c.repeats for _, c in (*taker_opts, *other_opts)):
            raise UnsupportedKo("a ko exit is itself a banned ko retake (several kos at once)")
        exit_taker = self._single_exit([self.game(c) for _, c in taker_opts], left=in_black)
        exit_other = self._single_exit([self.game(c) for _, c in other_opts], left=not in_black)
        # other taker moves at the anchor must lose to taking the ko whatever the phantom is
        worst_take = self._with_phantom_child(anchor, taken, self.lo if in_black else self.hi)
        for _, c in (anchor.black if in_black else anchor.white):
            if c is taken:
                continue
            alt = self._option(anchor, c)
            if not (le(alt, worst_take) if in_black else le(worst_take, alt)):
                raise UnsupportedKo("the ko's taker has another move that may be better than taking")
        l_game, r_game = (exit_taker, exit_other) if in_black else (exit_other, exit_taker)
        if l_game.mean is None or r_game.mean is None:
            raise UnsupportedKo("a ko exit is an unanswered threat")
        chain = simple_ko(l_game.mean, r_game.mean, taker)
        for e in (l_game, r_game):
            if e.number is None and e.temperature > chain.temperature:
                raise UnsupportedKo("a ko exit is hotter than the ko")
        self.memo.clear()
        self.phantom[id(anchor)] = chain.mean
        self.kos[id(anchor)] = chain
        g = self.game_uncached(anchor)
        if g.mean != chain.mean or g.temperature != chain.temperature:
            raise UnsupportedKo("the phantom rule does not reproduce the ko's own count here")

    def game_uncached(self, node: Variation) -> Game:
        self.memo.pop(id(node), None)
        return self.game(node)

    def _with_phantom_child(self, anchor: Variation, taken: Variation, value: Value) -> Game:
        saved = dict(self.memo), dict(self.phantom)
        self.memo.clear()
        self.phantom[id(anchor)] = value
        g = self.game(taken)
        self.memo, self.phantom = saved
        return g

    @staticmethod
    def _single_exit(games: list[Game], left: bool) -> Game:
        """The one undominated exit (Left keeps the largest, Right the smallest)."""
        best = [g for g in games
                if not any((le(g, h) and not le(h, g)) if left else (le(h, g) and not le(g, h)) for h in games)]
        unique: list[Game] = []
        for g in best:
            if not any(g.equal(u) for u in unique):
                unique.append(g)
        if len(unique) != 1:
            raise UnsupportedKo(f"the ko has {len(unique)} exits for one side (the rule needs exactly one)")
        return unique[0]


def _with_stop_option(lefts: list[Game], rights: list[Game]) -> tuple[list[Game], list[Game]]:
    """Give the side without moves one option: the number the other side's best move reaches (its stop)."""
    if lefts:
        return lefts, [Game(value=max(o.thermograph.rs for o in lefts))]
    return [Game(value=min(o.thermograph.ls for o in rights))], rights


_MOVE_KEY = re.compile(r"^([BW])\s+(.+?)(!?)$")


def variation_from_dict(d: Mapping[str, Any]) -> Variation:
    """Read the JSON tree format of the endgame data: keys 'B E1' / 'W D1' are moves ('W D1!' a banned
    ko retake), leaves carry 'area' (a number or '-2/3') or 'threat' ('+inf' / '-inf'); other keys are
    kept in `info`."""
    node = Variation()
    for key, sub in d.items():
        m = _MOVE_KEY.match(key)
        if m and isinstance(sub, Mapping):
            color, label, bang = m.groups()
            if bang:
                child = Variation.ko_retake(2, **{k: v for k, v in sub.items()})
            else:
                child = variation_from_dict(sub)
            (node.black if color == "B" else node.white).append((label, child))
        elif key in ("area", "threat"):
            if node.value is not None:
                raise ValueError("a leaf has both 'area' and 'threat'")
            node.value = to_value(sub)
        else:
            node.info[key] = sub
    return node
