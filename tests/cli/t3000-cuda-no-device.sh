# t3000 - the CUDA fault sweep on a machine without a GPU: exit 4 before any
# kernel is built, with the cuda backend's own reason (no driver / no device),
# and no store.  The problem plug-in (problems/attention_fwd.c, host C) is
# built to validate the spec's shape, and may be in the cache.
. "$REPO/tests/cli/lib.sh"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then skip "a GPU is present here"; fi
[ -f "$REPO/tests/fixtures/cuda/correct.cu" ] || skip "tests/fixtures/cuda/ fault fixtures are not in this tree"
builds_from_nothing "its subject: no kernel is built (it looks in build/cache)"
mkrepo
expect_exit 4 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-faults.yaml
grep -qE "cannot run here: (no CUDA driver \(libcuda.so.1 not found\)|no CUDA device)" "$TEST_TMP/err" ||
	{ cat "$TEST_TMP/err"; fail "the reason does not name the missing driver or device"; }
[ ! -e artifacts ] || fail "the store was touched"
for info in build/cache/*/info.json; do
	[ -e "$info" ] || continue
	python3 - "$info" <<'END' || fail "a kernel was built: $info"
import json, sys
paths = [s["path"] for s in json.load(open(sys.argv[1])).get("sources", [])]
sys.exit(0 if paths and paths[0].startswith("problems/") else 1)
END
done
