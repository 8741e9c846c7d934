# t6021: the exported notebook runs under real Jupyter (Debian packages
# jupyter-nbconvert, python3-pandas, python3-matplotlib, python3-ipykernel)
# and no cell raises.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
command -v jupyter-nbconvert >/dev/null 2>&1 || skip "jupyter-nbconvert is not installed (apt-get install jupyter-nbconvert python3-pandas python3-matplotlib python3-ipykernel)"
# the Python that runs Jupyter (its shebang), not whatever python3 is first on PATH
py=$(head -1 "$(command -v jupyter-nbconvert)" | sed -n 's/^#! *//p' | cut -d' ' -f1)
[ -x "${py:-}" ] || py=python3
"$py" -c 'import pandas, matplotlib, ipykernel' 2>/dev/null || skip "python3-pandas, python3-matplotlib or python3-ipykernel is missing"
setup_tiny_repo
run_tiny tiny.yaml
run_tiny tiny-crash.yaml
expect_exit 0 "$EVIDENT" export --out ex
unset MPLBACKEND  # the notebook draws with the kernel's inline backend
export PYDEVD_DISABLE_FILE_VALIDATION=1 JUPYTER_PLATFORM_DIRS=1
(cd ex && timeout 120 jupyter-nbconvert --to notebook --execute evident.ipynb --output executed.ipynb) \
	>nb.log 2>&1 || { cat nb.log; fail "the notebook did not run"; }
"$py" - <<'PY' || fail "a cell failed or produced nothing"
import json
nb = json.load(open("ex/executed.ipynb"))
code = [c for c in nb["cells"] if c["cell_type"] == "code"]
assert all(c["execution_count"] for c in code), "a cell did not run"
for c in code:
    for o in c["outputs"]:
        assert o["output_type"] != "error", o
figs = sum(1 for c in code for o in c["outputs"] if "image/png" in o.get("data", {}))
assert figs >= 1, f"expected a figure, got {figs}"
PY
