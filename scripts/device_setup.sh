# Sourced by the device_*.sh GPU scripts: a bare GPU machine made ready to run tengen from this checkout
# (sgfmill from .whl/ when the machine lacks it, src/ on PYTHONPATH, the C extension built in place) and
# $workers = the cores to use for worker processes (all but one).
export PYTHONUNBUFFERED=1 TENGEN_CACHE=${TENGEN_CACHE:-/tmp/tengen-cache}
if ls .whl/*.whl >/dev/null 2>&1 && ! python3 -c "import sgfmill" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD/src
python3 -c "import tengen.go._native" 2>/dev/null || python3 setup.py -q build_ext --inplace >/dev/null
workers=$(( $(nproc) > 2 ? $(nproc) - 1 : 2 ))
