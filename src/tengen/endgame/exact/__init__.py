"""The exact local solver, in one room: a region's local game (`rules`: what the marked points mean, the
rules of play over bitmasks), its search (`_solver.c`, behind `native`: the one engine; its Python port,
`devkit/python_search.py`, is a test oracle outside the package), the readout of a finished search
(`readout`: best moves, principal lines, the essential-option game) and the API (`solve`). Conventions: docs/LOCAL_GAME.md and `solve`'s docstring.

    from tengen.endgame.exact import ExhaustiveConfig, solve_region
    result = solve_region(board, region_points, ExhaustiveConfig(vouched=True))
"""
from tengen.endgame.exact.native import available as native_available
from tengen.endgame.exact.rules import LocalRegion, RegionNotSealed
from tengen.endgame.exact.solve import (OK, TOO_LARGE, UNSUPPORTED, ExhaustiveConfig, ExhaustiveResult, parts_hint,
                                        solve_region)

__all__ = ["OK", "TOO_LARGE", "UNSUPPORTED", "ExhaustiveConfig", "ExhaustiveResult", "LocalRegion", "RegionNotSealed",
           "native_available", "parts_hint", "solve_region"]
