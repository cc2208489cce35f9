"""The weights files of tengen's own networks: one torch file holding a format tag, the model's config, its
fp32 state dict and metadata, written atomically and read back with `weights_only` (a weights file cannot run
code); a missing, foreign or truncated file is one line of error, never a traceback."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Callable, Optional

import torch
from torch import nn

from tengen.files import NotRegularFile, read_regular_file, write_atomic

MAX_WEIGHTS_BYTES = 512 << 20  # tengen's own weights files are a few MB (committed ones at most 25 MB)


def save_weights_file(path: Path | str, fmt: str, model: nn.Module, config: dict, meta: Optional[dict] = None) -> None:
    """Write `model` (fp32 state dict) with its `config` and `meta` under the format tag `fmt`, atomically."""
    buf = io.BytesIO()
    state = {k: v.detach().float().cpu().clone() if v.is_floating_point() else v.detach().cpu().clone()
             for k, v in model.state_dict().items()}
    torch.save({"format": fmt, "config": config, "state": state, "meta": meta or {}}, buf)
    write_atomic(Path(path), buf.getvalue())


def load_weights_file(path: Path | str, fmt: str, build: Callable[[dict], nn.Module], error: type[Exception],
                      what: str, device: str = "cpu") -> tuple[nn.Module, dict]:
    """(model built from the file's config by `build`, in eval mode on `device`, metadata); `error` (one line
    naming `what` the file should be) for a missing, foreign or unreadable file."""
    path = Path(path)
    try:
        data = read_regular_file(path, MAX_WEIGHTS_BYTES, f"{what} weights file")
    except NotRegularFile as exc:
        raise error(str(exc)) from None
    except OSError:
        raise error(f"{path}: no such {what} weights file") from None
    try:
        blob = torch.load(io.BytesIO(data), map_location=device, weights_only=True)
        if not isinstance(blob, dict) or blob.get("format") != fmt:
            raise error(f"{path}: not a tengen {what} weights file")
        model = build(blob["config"])
        model.load_state_dict(blob["state"])
    except error:
        raise
    except Exception as exc:  # a truncated or foreign file: one line, not a traceback
        raise error(f"{path}: cannot read {what} weights ({exc.__class__.__name__})") from None
    return model.to(device).eval(), dict(blob.get("meta", {}))
