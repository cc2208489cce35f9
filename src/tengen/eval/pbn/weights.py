"""PBN weights files: one small `.npz` per region kind and training size (log-probabilities as float16, one
group of arrays per stone-count bucket) with a JSON `meta` (config, samples per stone count, data, held-out figures);
the committed models live in `models/pbn/` as `pbn-<kind>-<size>.npz`."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.pbn.model import BucketModel, PBNConfig, PBNModel, Subnet
from tengen.files import atomic_savez

MODELS_DIR = Path(__file__).resolve().parents[4] / "models" / "pbn"
FORMAT = "tengen-pbn-1"


def weights_name(kind: str, size: int) -> str:
    """The file name of a model of region `kind` trained on at most `size` samples per stone count."""
    return f"pbn-{kind}-{size}.npz"


def save_model(model: PBNModel, path: Path | str) -> None:
    """Write a model atomically (float16 log-probabilities, compressed)."""
    arrays: dict[str, np.ndarray] = {}
    samples: dict[str, int] = {}
    for count, b in sorted(model.buckets.items()):
        p = f"b{count}_"
        arrays[p + "l2_prior"] = b.level2.log_prior.astype(np.float16)
        arrays[p + "l2_cpt"] = b.level2.log_cpt.astype(np.float16)
        arrays[p + "l3_prior"] = b.level3.log_prior.astype(np.float16)
        arrays[p + "l3_cpt"] = b.level3.log_cpt.astype(np.float16)
        arrays[p + "top_prior"] = b.top_prior.astype(np.float16)
        arrays[p + "top_cpt"] = b.top_cpt.astype(np.float16)
        samples[str(count)] = b.samples
    meta = {"format": FORMAT, "kind": model.kind, "config": dataclasses.asdict(model.config), "samples": samples,
            **model.meta}
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    atomic_savez(Path(path), **arrays)


def load_model(path: Path | str) -> PBNModel:
    """Read a model written by `save_model` (float64 in memory)."""
    with np.load(Path(path), allow_pickle=False) as z:
        meta: dict[str, Any] = json.loads(bytes(z["meta"]).decode())
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: not a {FORMAT} file")
        buckets: dict[int, BucketModel] = {}
        for key, n in meta["samples"].items():
            p = f"b{key}_"
            f = {name: z[p + name].astype(np.float64) for name in
                 ("l2_prior", "l2_cpt", "l3_prior", "l3_cpt", "top_prior", "top_cpt")}
            buckets[int(key)] = BucketModel(Subnet(f["l2_prior"], f["l2_cpt"]), Subnet(f["l3_prior"], f["l3_cpt"]),
                                            f["top_prior"], f["top_cpt"], int(n))
    kind = meta.pop("kind")
    raw = meta.pop("config")
    raw["bucket_starts"] = tuple(raw["bucket_starts"])
    config = PBNConfig(**raw)
    meta.pop("samples")
    meta.pop("format")
    return PBNModel(kind, config, buckets, meta)


def load_models(size: int, models_dir: Path | str = MODELS_DIR, kinds: tuple[str, ...] = ("corner", "side",
                                                                                           "combined")
                ) -> dict[str, PBNModel]:
    """The models of one training size for each kind present in `models_dir`."""
    out: dict[str, PBNModel] = {}
    for kind in kinds:
        path = Path(models_dir) / weights_name(kind, size)
        if path.exists():
            out[kind] = load_model(path)
    return out
