# t3014 - on a GPU: the kernel clock's rate against the device's own
# (the ruler, src/run/outcome.h CLOCK_RULER_*).  Red team 80's tsfit
# (tests/fixtures/specs/cuda-redteam80-small.yaml), a trust: host kernel
# that hands CUPTI a CPU clock whose rate init() fitted to stay under the
# events' bound, was ok and 1.136x "faster" than the same kernel on an
# H200 (S37b, 2026-12-02); its ruler read 0.889 of the device's
# %globaltimer (S40) and it is clock_disagree, saying so; the honest
# baseline is ok and its record's ruler rate lies in [0.999, 1.10] over
# every timed sample.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --store st tests/fixtures/specs/cuda-redteam80-small.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run did not meet every expect: (exit $rc)"; }
grep -qE "^honest +ok " run.txt || { cat run.txt; fail "the honest baseline is not ok"; }
grep -qE "^tsfit +clock_disagree " run.txt || { cat run.txt; fail "tsfit was not clock_disagree"; }
grep -q "over the harness's ruler" run.txt || { cat run.txt; fail "tsfit's reason does not name the ruler"; }
rec=$(grep -l '"variant": *"honest"' st/runs/*.json | grep -v -- '-batch\.json$' | head -1)
[ -n "$rec" ] || fail "no record of the honest run"
python3 - "$rec" <<'PY' || fail "the honest record's ruler is missing or out of bounds"
import json, sys
e = json.load(open(sys.argv[1]))["timing"]["escapes"]
r, n = e.get("ruler_rate"), e.get("ruler_n", 0)
print("honest ruler", r, n)
sys.exit(0 if r is not None and 0.999 <= r <= 1.10 and n >= 5 else 1)
PY
true
