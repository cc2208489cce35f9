"""tengen: Go endgame analysis by combinatorial game theory, with a fast rules core and neural evaluators."""

__version__ = "0.1.0"
