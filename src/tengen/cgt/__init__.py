"""Combinatorial game theory for Go endgames, in exact arithmetic (pure math: no Go import).

Conventions: Black = Left = positive. Leaves are area counts (`fractions.Fraction`) or +-inf threats
("the player who just moved would gain a lot by moving again"). Temperatures are area-scoring ones.

Tree-to-game API (what `tengen.endgame` uses)
---------------------------------------------
A Go variation tree maps node for node onto `Variation`:

    Variation(black=[(move, Variation), ...],   # Black's local moves and the positions they lead to
              white=[(move, Variation), ...],   # White's
              value=None,                        # a leaf: area count over the region, or +-inf threat
              repeats=0,                         # 2 = this move is a ko retake the ko rule forbids now
              info={})                           # free annotations (dead stones, dame, ...)

    analyze_tree(root, one_sided="normal") -> TreeAnalysis(game, thermograph, kind, mean, temperature,
                                                           move_values, best_black, best_white, ko)
    game_from_tree(root, one_sided="normal") -> Game

A position with one side's moves only is a normal-play number by default ({| 4} = 0); one_sided="stop"
values it Go-style, at the moving side's stop (the other side cannot play there and loses nothing).

Move labels are opaque (the endgame layer uses Go points). A banned ko retake (`Variation.ko_retake()`,
`repeats=2`) needs no children: it becomes a phantom option by the ko rule (`tengen.cgt.ko`): a simple
ko with exits l (Black) and r (White) has temperature (l - r) / 3 and mean (l + 2r) / 3 when Black
takes. When the phantom's value cannot change the game, the ko is ignored. Branching kos, several exits,
longer cycles or hot exits raise `UnsupportedKo`: report "unsupported", never a number.
`variation_from_dict` reads the JSON tree format of the endgame data ('B E1' keys, 'W D1!' retakes).

Kinds (`TreeAnalysis.kind`, `Thermo.kind`), from the wall slopes just below the temperature:
- 'gote': both walls slanted; each side's move is gote.
- 'black_sente': the left wall is vertical: Black's move is sente, White's move there is reverse sente.
- 'white_sente': the right wall is vertical: White's move is sente, Black's is reverse sente.
- 'ko': the root is a ko position valued by the phantom rule.
- 'number': a cold game (nobody should move; the temperature is Conway's negative one).
- 'infinitesimal': temperature 0 but not a number (like *).
- 'unbounded': a threat stays unanswered (infinite temperature, no mean).

Move values (`MoveValues`): area temperature; miai = temperature - 1 (territory counting);
deiri = 2 x miai for gote, = miai for sente / reverse sente, None for kos; swing = 2 x miai.

Other pieces: `parse_game` / `format_game` ('{3||2|1}' notation), `Game` (sums, negation, the game
order, `simplify`), `Thermo` / `combine` (thermography from option records, used by the exhaustive
solver), `orthodox` (hotstrat, sentestrat, tedomari, the ko rule, exact minimax), `thermograph_figure`.
"""
from tengen.cgt.game import Game, STAR, ZERO_GAME, game_sum, le, negate, simplify, sum_games
from tengen.cgt.ko import KoChain, UnsupportedKo, simple_ko
from tengen.cgt.notation import GameSyntaxError, parse_game
from tengen.cgt.notation_write import format_game
from tengen.cgt.numbers import INF, NEG_INF, Value, simplest_between, to_value
from tengen.cgt.thermo import (BLACK_SENTE, GOTE, INFINITESIMAL, KINDS, KO, NUMBER, UNBOUNDED, WHITE_SENTE, Thermo,
                               combine, number_thermo, orthodox_indices)
from tengen.cgt.tree import TreeAnalysis, Variation, analyze_tree, game_from_tree, variation_from_dict
from tengen.cgt.values import MoveValues, move_values, reverse_sente_player, sente_player
from tengen.cgt.walls import Wall


def thermograph_figure(game, title=None, t_max=None, kind=None):
    """A matplotlib Figure of a game's thermograph (imported lazily: matplotlib is slow to load)."""
    from tengen.cgt.plot import thermograph_figure as _figure

    return _figure(game, title=title, t_max=t_max, kind=kind)


__all__ = [
    "Game", "STAR", "ZERO_GAME", "game_sum", "le", "negate", "simplify", "sum_games",
    "KoChain", "UnsupportedKo", "simple_ko",
    "GameSyntaxError", "format_game", "parse_game",
    "INF", "NEG_INF", "Value", "simplest_between", "to_value",
    "BLACK_SENTE", "GOTE", "INFINITESIMAL", "KINDS", "KO", "NUMBER", "UNBOUNDED", "WHITE_SENTE", "Thermo",
    "combine", "number_thermo", "orthodox_indices",
    "TreeAnalysis", "Variation", "analyze_tree", "game_from_tree", "variation_from_dict",
    "MoveValues", "move_values", "reverse_sente_player", "sente_player",
    "Wall", "thermograph_figure",
]
