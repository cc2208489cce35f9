"""An analysed region as a PNG (issue 59, item 4: the workbench's picture): its diagram on the board (the
region shaded, each side's best first move marked) beside its thermograph, as `tengen analyze --plots`
draws it (`tengen.io.region_plot`)."""
from __future__ import annotations

import io

from tengen.endgame.results import Analysis


def region_png(analysis: Analysis, index: int) -> bytes:
    """Region `index`'s figure as PNG bytes (the region must have a game: `RegionResult.game`)."""
    from tengen.io.region_plot import region_figure

    buffer = io.BytesIO()
    region_figure(analysis, index).savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()
