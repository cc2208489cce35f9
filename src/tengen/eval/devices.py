"""Where a network runs (evaluators, training, bulk labelling): "auto" is CUDA when the machine has it, else the CPU.

One analysis keeps all its networks on one device: the local-move and value networks follow the evaluator's
(`device_of`), so `--device cuda` moves the whole analysis, not KataGo alone."""
from __future__ import annotations

from typing import TYPE_CHECKING

from tengen.eval.evaluation import OnDevice, wrapped_chain

if TYPE_CHECKING:
    import torch


class DeviceUnavailable(RuntimeError):
    """A device was asked for that this machine (or this torch build) does not have."""


def pick_device(name: str = "auto") -> "torch.device":
    """The torch device `name` names ("auto": CUDA when available, else CPU); asking for CUDA on a machine
    without it is a one-line error here rather than a torch assertion at the first tensor."""
    import torch

    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise DeviceUnavailable(f"{name} was asked for, but this machine has no CUDA device "
                                f"(torch {torch.__version__}); use --device cpu or auto")
    return device


def device_of(evaluator) -> str:
    """The device an evaluator's network runs on, through any caches or guards wrapped around it (their
    `evaluator` or `inner`); "cpu" for one without a network. The analysis's other networks follow it."""
    for inner in wrapped_chain(evaluator):
        if isinstance(inner, OnDevice) and inner.device is not None:
            return str(inner.device)
    return "cpu"
