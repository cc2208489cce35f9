"""`KataGoEvaluator`: tengen positions in, `Evaluation`s out, through a KataGo network in PyTorch.

Post-processing follows KataGo's `NNEvaluator` (`cpp/neuralnet/nneval.cpp`): policy softmax over legal
moves (optimism mixes in the optimistic head), win/loss/no-result softmax (no-result impossible under
superko area rules), score mean / stdev / lead from their scaled outputs, ownership through tanh; then
everything is turned to Black's view. Symmetries (1 to 8) are averaged after post-processing.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

import numpy as np

from tengen.eval.devices import pick_device
from tengen.eval.evaluation import Evaluation
from tengen.eval.katago.features import SUPPORTED_INPUT_VERSION, Encoded, KataRules, encode
from tengen.eval.katago.model_desc import ModelDesc, UnsupportedModelError
from tengen.eval.katago.model_reader import read_model
from tengen.eval.katago.network import KataGoNet, NetOutput
from tengen.lru import LruCache
from tengen.phases import phase

import torch  # noqa: E402  (network sets OMP_WAIT_POLICY before torch loads)

DEFAULT_KOMIS: tuple[float, ...] = tuple(k - 12.5 for k in range(41))  # -12.5 ... 27.5
PRECISIONS = ("fp32", "bf16", "fp16")


def inputs_version(model_version: int) -> int:
    """KataGo's input-feature version for a model version (`modelversion.cpp`)."""
    if 8 <= model_version <= 17:
        return 7
    return {7: 6, 6: 5, 5: 4, 4: 3, 3: 3}.get(model_version, -1)


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.where(x > 40.0, x, np.log1p(np.exp(np.minimum(x, 40.0))))


@dataclass
class _Job:
    """One network row: an encoded position under one symmetry."""

    index: int  # which requested evaluation it belongs to
    encoded: Encoded
    symmetry: int
    rules: KataRules


def transform(x: torch.Tensor, symmetry: int) -> torch.Tensor:
    """Apply symmetry (bit 0 flip rows, bit 1 flip columns, bit 2 transpose) to (N, H, W, ...) tensors."""
    if symmetry & 1:
        x = x.flip(1)
    if symmetry & 2:
        x = x.flip(2)
    if symmetry & 4:
        x = x.transpose(1, 2)
    return x


def untransform(x: torch.Tensor, symmetry: int) -> torch.Tensor:
    """Inverse of `transform`."""
    if symmetry & 4:
        x = x.transpose(1, 2)
    if symmetry & 2:
        x = x.flip(2)
    if symmetry & 1:
        x = x.flip(1)
    return x


# rows per network call when none is asked for: on a 2-core CPU batches of 4-8 ran fastest (about 20 rows/s)
# and 16 about 12 % slower (`bench/analysis_speed.py`); a GPU wants larger ones
CPU_BATCH_SIZE, GPU_BATCH_SIZE = 8, 16


def default_batch_size(device: torch.device) -> int:
    return CPU_BATCH_SIZE if device.type == "cpu" else GPU_BATCH_SIZE


class KataGoEvaluator:
    """Evaluate tengen `Board`s with a KataGo network.

    model: a path to any KataGo `.bin.gz` (default: the cached default network, downloaded on first
    use), or a `ModelDesc`. symmetries: how many of the 8 board symmetries to average (1 = identity).
    precision: fp32 (default), bf16 (autocast) or fp16 (CUDA). threads: torch CPU threads (None keeps
    torch's setting). compile: run the network through `torch.compile`. batch_size: rows per network
    call (None: `default_batch_size` of the device).
    """

    def __init__(self, model: Union[str, Path, ModelDesc, None] = None, device: str = "cpu",
                 threads: Optional[int] = None, batch_size: Optional[int] = None, symmetries: int = 1,
                 precision: str = "fp32", compile: bool = False, policy_optimism: float = 0.0,
                 cache_size: int = 512):
        if model is None:
            from tengen.eval.katago.weights import default_model_path

            model = default_model_path()
        self.desc = model if isinstance(model, ModelDesc) else read_model(model)
        if inputs_version(self.desc.version) != SUPPORTED_INPUT_VERSION:
            raise UnsupportedModelError(
                f"{self.desc.name}: model version {self.desc.version} uses input features version "
                f"{inputs_version(self.desc.version)}; only version {SUPPORTED_INPUT_VERSION} (models 8-17) "
                "is implemented")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}")
        if not 1 <= symmetries <= 8:
            raise ValueError("symmetries must be 1..8")
        if threads is not None:
            torch.set_num_threads(int(threads))
        self.device = pick_device(device)
        self.threads = threads
        self.batch_size = max(1, int(batch_size if batch_size is not None else default_batch_size(self.device)))
        self.symmetries = symmetries
        self.precision = precision
        self.policy_optimism = float(policy_optimism)
        self.net = KataGoNet(self.desc).to(self.device).eval()
        self.compiled = bool(compile)
        self._forward = torch.compile(self.net, dynamic=False) if compile else self.net
        self._cache: LruCache[np.ndarray] = LruCache(cache_size)  # komi sweeps
        self.evaluations_run = 0  # network rows computed (for tests and benchmarks)

    # ------------------------------------------------------------------ network
    def run_network(self, spatial: torch.Tensor, global_: torch.Tensor) -> NetOutput:
        """One forward pass over a (N, H, W, C) batch, in the configured precision, as float32 results."""
        spatial = spatial.to(self.device, non_blocking=True)
        global_ = global_.to(self.device, non_blocking=True)
        with torch.inference_mode(), phase("network", rows=spatial.shape[0]):
            if self.precision == "fp32":
                out = self._forward(spatial, global_)
            else:
                dtype = torch.bfloat16 if self.precision == "bf16" else torch.float16
                with torch.autocast(self.device.type, dtype=dtype):
                    out = self._forward(spatial, global_)
        self.evaluations_run += spatial.shape[0]
        return NetOutput(*(t.float().cpu() for t in out))

    def _symmetry_list(self, h: int, w: int) -> list[int]:
        allowed = list(range(8)) if h == w else [0, 1, 2, 3]
        return allowed[: min(self.symmetries, len(allowed))]

    def _run_jobs(self, jobs: list[_Job]) -> list[dict]:
        """Run every job (grouped by board size, batched) and post-process each row (side to move's view)."""
        results: list[Optional[dict]] = [None] * len(jobs)
        groups: dict[tuple[int, int], list[int]] = {}
        for j, job in enumerate(jobs):
            h, w, _ = job.encoded.spatial.shape
            groups.setdefault((h, w), []).append(j)
        for (h, w), idxs in groups.items():
            for start in range(0, len(idxs), self.batch_size):
                chunk = idxs[start : start + self.batch_size]
                sp = torch.from_numpy(np.stack([jobs[j].encoded.spatial for j in chunk]))
                gl = torch.from_numpy(np.stack([jobs[j].encoded.global_ for j in chunk]))
                syms = [jobs[j].symmetry for j in chunk]
                if any(syms):
                    sp = torch.stack([transform(sp[i : i + 1], s)[0] for i, s in enumerate(syms)])
                if self.compiled and len(chunk) < self.batch_size:  # one shape per board size: no recompiles
                    pad = self.batch_size - len(chunk)
                    sp = torch.cat([sp, sp[-1:].expand(pad, *sp.shape[1:])])
                    gl = torch.cat([gl, gl[-1:].expand(pad, *gl.shape[1:])])
                out = self.run_network(sp.contiguous(), gl)
                for i, j in enumerate(chunk):
                    results[j] = self._postprocess(out, i, jobs[j])
        return results  # type: ignore[return-value]

    def _postprocess(self, out: NetOutput, i: int, job: _Job) -> dict:
        enc, sym = job.encoded, job.symmetry
        pol = untransform(out.policy[i : i + 1], sym)[0].numpy()  # (H, W, P)
        own = untransform(out.ownership[i : i + 1, :, :, None], sym)[0, :, :, 0].numpy()
        h, w = own.shape
        passes = out.policy_pass[i].numpy()
        if pol.shape[-1] >= 2 and self.policy_optimism:
            logits = pol[..., 0] + (pol[..., 1] - pol[..., 0]) * self.policy_optimism
            pass_logit = passes[0] + (passes[1] - passes[0]) * self.policy_optimism
        else:
            logits, pass_logit = pol[..., 0], passes[0]
        flat = np.concatenate([logits.reshape(-1), [pass_logit]]).astype(np.float64)
        flat = np.where(enc.legal, flat, -np.inf)
        flat = np.exp(flat - flat.max())
        probs = flat / flat.sum()

        v = out.value[i].numpy().astype(np.float64)
        no_result_impossible = job.rules.ko != "simple" and job.rules.scoring != "territory"
        if no_result_impossible:
            v = v.copy()
            v[2] -= 100000.0
        e = np.exp(v - v.max())
        if no_result_impossible:
            e[2] = 0.0
        win, loss, no_result = e / e.sum()
        s = out.score[i].numpy().astype(np.float64)
        post = self.desc.post
        score_mean = s[0] * post.score_mean
        stdev = float(_softplus(np.array(s[1]))) * post.score_stdev
        mean_sq = score_mean * score_mean + stdev * stdev
        lead = s[2] * post.lead if len(s) >= 3 else s[0] * post.score_mean
        extras = {}
        if len(s) >= 4:
            extras["var_time_left"] = float(_softplus(np.array(s[3]))) * post.variance_time
        if len(s) >= 6:
            if self.desc.version >= 14:
                a = float(_softplus(np.array(s[4] * 0.5)))
                b = float(_softplus(np.array(s[5] * 0.5)))
                extras["shortterm_winloss_error"] = math.sqrt(a * a * post.shortterm_value_error)
                extras["shortterm_score_error"] = math.sqrt(b * b * post.shortterm_score_error)
            else:
                extras["shortterm_winloss_error"] = math.sqrt(float(_softplus(np.array(s[4])))
                                                              * post.shortterm_value_error)
                extras["shortterm_score_error"] = math.sqrt(float(_softplus(np.array(s[5])))
                                                            * post.shortterm_score_error)
        keep = 1.0 - no_result
        return {
            "policy": probs[:-1].reshape(h, w).astype(np.float32), "pass": float(probs[-1]),
            "win": float(win), "loss": float(loss), "no_result": float(no_result),
            "score_mean": score_mean * keep, "score_mean_sq": mean_sq * keep, "lead": lead * keep,
            "ownership": np.tanh(own).astype(np.float32), "extras": extras,
        }

    # ------------------------------------------------------------------ encoding
    def encode(self, board, to_play: Optional[int] = None, komi: Optional[float] = None) -> Encoded:
        """Network inputs for `board` (see `features.encode`)."""
        return encode(board, to_play, komi, self.desc.prefer_pass_alive_under_suicide)

    def _jobs_for(self, index: int, enc: Encoded, krules: KataRules) -> list[_Job]:
        h, w, _ = enc.spatial.shape
        return [_Job(index, enc, s, krules) for s in self._symmetry_list(h, w)]

    @staticmethod
    def _combine(rows: list[dict], to_play: int) -> dict:
        """Average symmetries and turn the side-to-move view into Black's view."""
        n = len(rows)
        avg = {k: sum(r[k] for r in rows) / n for k in ("policy", "pass", "win", "loss", "no_result", "score_mean",
                                                         "score_mean_sq", "lead", "ownership")}
        extras = {k: sum(r["extras"][k] for r in rows) / n for k in rows[0]["extras"]}
        sign = 1.0 if to_play == 1 else -1.0
        stdev = math.sqrt(max(0.0, avg["score_mean_sq"] - avg["score_mean"] ** 2))
        win, loss = (avg["win"], avg["loss"]) if to_play == 1 else (avg["loss"], avg["win"])
        return {"policy": avg["policy"].astype(np.float32), "pass": float(avg["pass"]), "win": float(win),
                "loss": float(loss), "no_result": float(avg["no_result"]), "score_mean": sign * avg["score_mean"],
                "score_stdev": stdev, "lead": sign * avg["lead"],
                "ownership": (sign * avg["ownership"]).astype(np.float32), "extras": extras}

    # ------------------------------------------------------------------ public API
    def evaluate(self, positions: Sequence, opponent_policy: bool = False,
                 komi_sweep: Optional[Sequence[float]] = None) -> list[Evaluation]:
        """Evaluate every position (tengen `Board`s) in batches.

        opponent_policy: also evaluate each position with the other side to move (KataGo networks have
        no opponent-policy head). komi_sweep: also fill `winrate_by_komi` for these komi values.
        """
        boards = list(positions)
        jobs: list[_Job] = []
        metas = []
        for i, board in enumerate(boards):
            krules = KataRules.from_rules(board.rules)
            with phase("encode"):
                enc = self.encode(board)
            metas.append((enc, krules))
            jobs += self._jobs_for(2 * i, enc, krules)
            if opponent_policy:
                jobs += self._jobs_for(2 * i + 1, self.encode(board, to_play=-board.to_play), krules)
        rows = self._run_jobs(jobs)
        grouped: dict[int, list[dict]] = {}
        for job, row in zip(jobs, rows):
            grouped.setdefault(job.index, []).append(row)
        out = []
        for i, board in enumerate(boards):
            enc = metas[i][0]
            r = self._combine(grouped[2 * i], enc.to_play)
            ev = Evaluation(
                to_play=enc.to_play, komi=float(board.rules.komi), policy=r["policy"], pass_policy=r["pass"],
                ownership=r["ownership"], score_mean=float(r["score_mean"]), score_stdev=float(r["score_stdev"]),
                score_lead=float(r["lead"]), win=r["win"], loss=r["loss"], no_result=r["no_result"],
                extras=dict(r["extras"], model=self.desc.name, symmetries=len(grouped[2 * i])))
            if opponent_policy:
                o = self._combine(grouped[2 * i + 1], -enc.to_play)
                ev.opponent_policy, ev.opponent_pass_policy = o["policy"], o["pass"]
            out.append(ev)
        if komi_sweep is not None:
            for board, ev in zip(boards, out):
                ks = tuple(float(k) for k in komi_sweep)
                ev.winrate_by_komi = dict(zip(ks, self.winrate_by_komi(board, ks).tolist()))
        return out

    def ownership_of_encoded(self, encoded: Sequence[Encoded]) -> np.ndarray:
        """Black's-view ownership (N, H, W) of positions already encoded (one board size, identity symmetry):
        the bulk-labelling path, where worker processes encode and only the network runs here."""
        if not encoded:
            return np.zeros((0, 0, 0), dtype=np.float32)
        return self.label_inputs(np.stack([e.spatial for e in encoded]), np.stack([e.global_ for e in encoded]),
                                 np.array([e.to_play for e in encoded]))["ownership"]

    def label_inputs(self, spatial: np.ndarray, global_: np.ndarray, to_play: np.ndarray) -> dict[str, np.ndarray]:
        """Bulk labels of encoded positions (spatial (N, H, W, C) of 0/1 in any dtype, e.g. uint8 from worker
        processes; global (N, G); to_play (N,)), identity symmetry, all from Black's side: `ownership`
        (N, H, W), `lead` (N,) points and `win` (N,) probability (no-result ignored, as under area rules)."""
        own, lead, win = [], [], []
        for start in range(0, len(to_play), self.batch_size):
            sp = torch.from_numpy(np.ascontiguousarray(spatial[start:start + self.batch_size]))
            gl = torch.from_numpy(np.ascontiguousarray(global_[start:start + self.batch_size], dtype=np.float32))
            out = self.run_network(sp.to(self.device, non_blocking=True).float(), gl)
            sign = torch.from_numpy(np.where(to_play[start:start + self.batch_size] == 1, 1.0, -1.0).astype(np.float32))
            own.append((torch.tanh(out.ownership) * sign[:, None, None]).numpy())
            lead.append((out.score[:, 2] * self.desc.post.lead * sign).numpy() if out.score.shape[1] >= 3
                        else (out.score[:, 0] * self.desc.post.score_mean * sign).numpy())
            p_win = torch.softmax(out.value[:, :2], 1)[:, 0]
            win.append(torch.where(sign > 0, p_win, 1 - p_win).numpy())
        if not own:
            return {"ownership": np.zeros((0,) + spatial.shape[1:3], np.float32), "lead": np.zeros(0, np.float32),
                    "win": np.zeros(0, np.float32)}
        return {"ownership": np.concatenate(own).astype(np.float32), "lead": np.concatenate(lead).astype(np.float32),
                "win": np.concatenate(win).astype(np.float32)}

    def winrate_by_komi(self, board, ks: Sequence[float] = DEFAULT_KOMIS) -> np.ndarray:
        """Black's win probability for each komi in `ks` (one batched network pass per komi; cached).

        Komi replaces the rules' komi; everything else the rules imply (handicap compensation under
        Chinese / AGA rules, territory counting) stays as in a real game under those rules.
        """
        ks = tuple(float(k) for k in ks)
        base = self.encode(board)
        krules = KataRules.from_rules(board.rules)
        key = self._sweep_key(base, board.rules.komi, ks)
        known = self._cache.get(key)
        if known is not None:
            return known.copy()
        jobs: list[_Job] = []
        for idx, k in enumerate(ks):
            enc = self.encode(board, komi=k) if idx == 0 else _with_komi(base, board.rules.komi, k)
            jobs += self._jobs_for(idx, enc, krules)
        rows = self._run_jobs(jobs)
        grouped: dict[int, list[dict]] = {}
        for job, row in zip(jobs, rows):
            grouped.setdefault(job.index, []).append(row)
        result = np.array([self._combine(grouped[i], base.to_play)["win"] for i in range(len(ks))])
        self._cache.put(key, result)
        return result.copy()

    @staticmethod
    def _sweep_key(enc: Encoded, komi: float, ks: tuple) -> str:
        g = enc.global_.copy()
        g[5] = g[18] = 0.0
        sign = -1.0 if enc.to_play == 1 else 1.0
        offset = enc.self_komi - sign * komi  # handicap / territory compensation, from the side to move
        h = hashlib.sha1()
        for part in (enc.spatial.tobytes(), g.tobytes(), enc.legal.tobytes(), repr((enc.to_play, offset, ks))):
            h.update(part if isinstance(part, bytes) else part.encode())
        return h.hexdigest()


def _with_komi(enc: Encoded, old_komi: float, new_komi: float) -> Encoded:
    """The same inputs with another komi (only global inputs 5 and 18 depend on komi)."""
    from tengen.eval.katago.features import KOMI_CLIP_RADIUS, komi_parity_wave

    h, w, _ = enc.spatial.shape
    sign = -1.0 if enc.to_play == 1 else 1.0
    self_komi = enc.self_komi + sign * (new_komi - old_komi)
    area = float(h * w)
    clipped = min(max(self_komi, -area - KOMI_CLIP_RADIUS), area + KOMI_CLIP_RADIUS)
    g = enc.global_.copy()
    g[5] = clipped / 20.0
    if enc.global_[9] == 0.0:  # area scoring: parity wave present
        g[18] = komi_parity_wave(clipped, w, h)
    return Encoded(enc.spatial, g, enc.legal, enc.to_play, self_komi)
