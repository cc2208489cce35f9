"""The GTP engine with every command set tengen ships: the protocol's own (`tengen.io.gtp`), the analysis
commands of Lizzie, Sabaki and KaTrain, GoGui's analyze commands with `tengen-endgame`, and GNU Go's
life-and-death commands. The one place they are put together: the engine imports none of them."""
from __future__ import annotations

from tengen.io.gtp import GtpEngine
from tengen.io.gtp_analysis import AnalysisCommands
from tengen.io.gtp_gogui import GoGuiCommands
from tengen.io.gtp_life import LifeCommands


def gtp_engine(life_network=None, **settings) -> GtpEngine:
    """A `GtpEngine(**settings)` with every handler registered; `life_network` (a loader of the
    evaluator) makes the life-and-death commands judge by the network instead of searching without one."""
    engine = GtpEngine(**settings)
    engine.register(AnalysisCommands(engine), GoGuiCommands(engine), LifeCommands(engine, network=life_network))
    return engine
