"""The GTP engine with every command set tengen ships: the protocol's own (`tengen.io.gtp`), the analysis
commands of Lizzie, Sabaki and KaTrain, GoGui's analyze commands with `tengen-endgame`, and GNU Go's
life-and-death commands. The one place they are put together: the engine imports none of them."""
from __future__ import annotations

from tengen.io.gtp import GtpEngine
from tengen.io.gtp_analysis import AnalysisCommands
from tengen.io.gtp_gogui import GoGuiCommands
from tengen.io.gtp_life import LifeCommands

HANDLERS = (AnalysisCommands, GoGuiCommands, LifeCommands)


def gtp_engine(**settings) -> GtpEngine:
    """A `GtpEngine(**settings)` with every handler of HANDLERS registered."""
    engine = GtpEngine(**settings)
    return engine.register(*(handler(engine) for handler in HANDLERS))
