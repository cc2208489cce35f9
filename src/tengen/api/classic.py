"""The classic evaluator's wiring: `tengen.eval.classic` takes its life judge, sealed-region
valuer and orthodox chooser as injected callables (layer 2 may not import the search, the endgame solver or the
CGT layer); here they are `tengen.life.search`, `tengen.endgame.exact.solve` and `tengen.cgt.orthodox`."""
from __future__ import annotations

# the classic evaluator's budgets (counts, never seconds): nodes per life-and-death search (attack or
# defence) and positions per exact sealed-region solve
CLASSIC_LIFE_NODES, CLASSIC_SOLVER_NODES = 400, 5_000


def classic_evaluator(life_nodes: int = CLASSIC_LIFE_NODES, solver_nodes: int = CLASSIC_SOLVER_NODES, config=None):
    """The classic evaluator (no network) judging weak groups by `tengen.life.search` and valuing sealed
    regions by the exact solver `tengen.endgame.exact.solve`, each under its node budget."""
    from tengen.eval.classic import ClassicConfig, ClassicEvaluator

    return ClassicEvaluator(config or ClassicConfig(), life_judge=SearchLifeJudge(life_nodes),
                            region_valuer=ExhaustiveRegionValuer(solver_nodes), chooser=orthodox_chooser)


def orthodox_chooser(sources, to_play: int):
    """The classic evaluator's orthodox move by `tengen.cgt.orthodox` (sentestrat, the ko rule, tedomari)
    over its sources: the exact valuer's games and kos, stand-ins of the other sources' mean, temperature
    and kind; the hottest source when the sum is unusual."""
    from fractions import Fraction

    from tengen.cgt.game import Game
    from tengen.cgt.orthodox import BLACK as CGT_BLACK
    from tengen.cgt.orthodox import WHITE as CGT_WHITE
    from tengen.cgt.orthodox import PlayState, SimpleKo, orthodox
    from tengen.cgt.standin import stand_in
    from tengen.cgt.thermo import BLACK_SENTE, GOTE, WHITE_SENTE
    from tengen.eval.classic.policy import hottest_source
    from tengen.go.colors import BLACK

    usable, components = [], []
    for s in sources:
        if s.move(to_play) is None:
            continue
        c = s.component if isinstance(s.component, (Game, SimpleKo)) else None
        if c is None and s.temperature > 0:
            kind = s.kind if s.kind in (GOTE, BLACK_SENTE, WHITE_SENTE) else GOTE
            c = stand_in(Fraction(s.mean).limit_denominator(64), Fraction(s.temperature).limit_denominator(64), kind)
        if c is not None:
            usable.append(s)
            components.append(c)
    if not usable:
        return None
    try:
        move = orthodox(PlayState(tuple(components), CGT_BLACK if to_play == BLACK else CGT_WHITE), [])
    except Exception:  # noqa: BLE001 - an unusual sum: the hottest source decides
        move = None
    return usable[move.index] if move is not None else hottest_source(usable, to_play)


class SearchLifeJudge:
    """`tengen.life.search.analyze_group` as the classic evaluator's life judge (`LifeJudge`)."""

    def __init__(self, max_nodes: int = CLASSIC_LIFE_NODES):
        from tengen.life.search import LifeConfig

        self.config = LifeConfig(max_nodes=max_nodes)

    def __call__(self, board, point):
        """The search's verdict on the chain at `point`."""
        from tengen.eval.classic import LifeVerdict
        from tengen.life.search import analyze_group

        result = analyze_group(board, point, self.config)
        return LifeVerdict(result.status, result.attack, result.defense, result.nodes)


class ExhaustiveRegionValuer:
    """`tengen.endgame.exact.solve.solve_region` as the classic evaluator's sealed-region valuer: the exact
    thermograph, or None (not sealed as the solver means it, over its position budget, or unsupported)."""

    def __init__(self, max_nodes: int = CLASSIC_SOLVER_NODES):
        self.max_nodes = max_nodes

    def __call__(self, board, points):
        """The region's exact value, or None."""
        from tengen.cgt.game import Game
        from tengen.cgt.orthodox import SimpleKo
        from tengen.cgt.thermo import KO
        from tengen.endgame.cgt_bridge import solver_declined
        from tengen.endgame.exact import OK, ExhaustiveConfig, solve_region
        from tengen.endgame.exact import RegionNotSealed
        from tengen.eval.classic import RegionValue

        try:
            result = solve_region(board, points, ExhaustiveConfig(max_nodes=self.max_nodes, seconds=None))
        except (RegionNotSealed, ValueError):
            return None
        if result.status != OK or result.mean is None or result.temperature is None or solver_declined(result):
            return None  # no value: never a failed solve's ±inf count
        ko = result.ko
        if result.kind == KO and ko is not None and ko.moves == 3:
            component = SimpleKo(ko.black_exit, ko.white_exit, ko.taker)
        else:
            component = result.game if isinstance(result.game, Game) else None
        return RegionValue(float(result.mean), float(result.temperature), result.kind, list(result.best_black),
                           list(result.best_white), exact=True, component=component,
                           thermograph=result.thermograph, nodes=result.nodes, notes=list(result.notes))
