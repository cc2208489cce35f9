"""tengen: Go endgame analysis by combinatorial game theory, with a fast rules core and neural evaluators.

`tengen.analyze(position, ...)` runs the main job from Python (`tengen.api`); it loads on first use, so
importing the package stays light.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    if name == "analyze":
        from tengen.api import analyze

        return analyze
    raise AttributeError(f"module 'tengen' has no attribute {name!r}")
