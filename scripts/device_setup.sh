# Sourced by the device_*.sh GPU scripts: a bare GPU machine made ready to run tengen from this checkout
# (sgfmill from .whl/ when the machine lacks it, src/ on PYTHONPATH, the C extension built in place, the
# carried KataGo network .carry/model.bin.gz installed as the default one), $katago_model (below) and
# $workers = the cores to use for worker processes (all but one).
export PYTHONUNBUFFERED=1 TENGEN_CACHE=${TENGEN_CACHE:-/tmp/tengen-cache}
export TENGEN_MODEL_DIR=${TENGEN_MODEL_DIR:-$TENGEN_CACHE/models}
if [ -f .carry/model.bin.gz ]; then
  mkdir -p "$TENGEN_MODEL_DIR"
  cp -n .carry/model.bin.gz "$TENGEN_MODEL_DIR/b10c384h6nbttflrs.bin.gz"
fi
# $katago_model: the network file the scripts pass with --model: the float16-rounded copy when one was
# carried (.carry/model-f16.bin.gz, 24 MB: `python -m tengen.eval.katago.transport`), else the exact one
katago_model=.carry/model.bin.gz
[ -f .carry/model-f16.bin.gz ] && katago_model=.carry/model-f16.bin.gz
if ls .whl/*.whl >/dev/null 2>&1 && ! python3 -c "import sgfmill" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD/src
python3 -c "import tengen.go._native" 2>/dev/null || python3 setup.py -q build_ext --inplace >/dev/null
workers=$(( $(nproc) > 2 ? $(nproc) - 1 : 2 ))

# machine_info FILE: the CPU model and cores, AVX-512 flags and the GPU (figures are compared by host type)
machine_info() {
  { lscpu | grep -E 'Model name|^CPU\(s\)'
    echo "avx512: $(grep -o 'avx512[a-z_0-9]*' /proc/cpuinfo | sort -u | tr '\n' ' ')"
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"
  } > "$1"
  cat "$1"
}
