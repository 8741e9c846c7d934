# t0180 - the compiler is the executable that runs, not its name and what
# it says of itself: a wrapper named cc first on PATH that adds a flag
# (red team 70's wrapper-cc.sh: `exec /usr/bin/cc -DRT70_FAST "$@"`)
# answers gcc's --version and passes the same argv, and before built other
# code under the same build key (a later plain run took the wrapper's
# object from the cache, 5.10x "faster") and the same code identity (the
# audit supported a faster claim by the wrapper's batches).  Each record
# now names the executable and its hash (code.compiler.exe), the build key
# covers it, and the plain run after the wrapper's builds its own object.
. "$REPO/tests/cli/lib.sh"
mkrepo
command -v cc >/dev/null || skip "no cc"
mkdir -p "$TEST_TMP/wrap"
printf '#!/bin/sh\nexec %s -DRT70_FAST "$@"\n' "$(command -v cc)" > "$TEST_TMP/wrap/cc"
chmod +x "$TEST_TMP/wrap/cc"
cp tests/fixtures/specs/host-redteam70-cc.yaml experiments/cc.yaml || fail "cp cc.yaml"
PATH="$TEST_TMP/wrap:$PATH" expect_exit 0 "$EVIDENT" run --no-progress experiments/cc.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/cc.yaml
python3 - "$TEST_TMP/wrap/cc" artifacts/runs/*.json <<'PY' || fail "the wrapper's build stood for cc's"
import json, sys
wrap = sys.argv[1]
runs = []
for p in sys.argv[2:]:
    r = json.load(open(p))
    if r.get("kind") == "batch":
        continue
    runs.append(r)
runs.sort(key=lambda r: r["run_id"])
assert len(runs) % 2 == 0 and runs, len(runs)
runs = [runs[0], runs[-1]]  # the wrapper's batch ran first, the plain one last
exe = [r["code"]["compiler"]["exe"] for r in runs]
print("exe", exe)
assert exe[0]["path"] == wrap, exe[0]
assert exe[1]["path"] != wrap, exe[1]
assert exe[0]["sha256"] != exe[1]["sha256"]
bins = [r["code"]["binary_sha256"] for r in runs]
print("binaries", bins)
assert bins[0] != bins[1], "the plain run took the wrapper's object from the cache"
PY

# a flag that swaps the compiler's own programs (-B: red team 72's asswap
# ran an `as` of its own under one identity) is refused before compiling
cat > experiments/bflag.yaml <<Y
name: bflag
problem: rowsum
backend: host
baseline: fast
shape: {R: 256, C: 512}
flags: [-B$TEST_TMP/wrap/]
variants:
  fast: {kernel: tests/fixtures/adversary/host/redteam70/ccfast.c, expect: build_failed}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/bflag.yaml
grep -q "makes the compiler run programs" "$TEST_TMP/out" || fail "no reason for the -B flag's refusal: $(grep -h bflag -A3 "$TEST_TMP/out" | head -5)"
