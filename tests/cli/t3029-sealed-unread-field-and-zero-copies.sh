# t3029 - on a GPU: red team 290 (tests/fixtures/adversary/cuda/redteam290/
# README.md).  Rows 1 and 1b: a sealed kernel passes its planner's clock
# in a struct field that only the SASS the worker runs reads (sm_90a SASS
# beside compute_80 PTX, `field`; beside compute_90 PTX with the field
# read under __CUDA_ARCH_FEAT_SM90_ALL, `feat`): the plan identity must
# count that field (seal.c seal_param_reads: a mask only from a cubin's
# twin PTX), so no two ok runs of one identity had planners of different
# clock levels (measured before on an H100: feat ok 3 of 3 under one
# identity, 92.96 to 108.03 us); feat and field are flaky or
# launch_failed plan_unstable, unless every planner drew one level.
# Row 2 (a denial): an honest trust: host launch() whose cudaMemsetAsync
# or cudaMemcpyAsync is 0 bytes at the shape owes no CUPTI record
# (harness.cu copy_moves_nothing): zset_host and zcopy_host ok (before:
# escaped_work), as every other variant of the zero spec.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
command -v python3 >/dev/null 2>&1 || skip "no python3 (reads the records)"
mkrepo git
"$EVIDENT" run --no-progress tests/fixtures/specs/cuda-redteam290-zero.yaml >zero.txt 2>&1
rc=$?
for v in plain plain_host zset zset_host zcopy zcopy_host; do
	grep -qE "^ *$v +ok " zero.txt || { cat zero.txt; fail "$v (a copy or memset of 0 bytes, or none) was not ok"; }
done
[ $rc = 0 ] || { cat zero.txt; fail "the zero spec: a variant was not as its expect: says (exit $rc)"; }
for spec in feat field; do
	"$EVIDENT" run --no-progress "tests/fixtures/specs/cuda-redteam290-$spec.yaml" >"$spec.txt" 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat "$spec.txt"; fail "the $spec run failed (exit $rc)"; }
	grep -qE "^ *ctl +ok " "$spec.txt" || { cat "$spec.txt"; fail "$spec: the control (t = 0) was not ok"; }
done
"$EVIDENT" ls --json >ls.json 2>&1 || { cat ls.json; fail "evident ls --json failed"; }
python3 - "$EVIDENT" ls.json >check.txt 2>&1 <<'PY'
import json, re, subprocess, sys
ev, lsf = sys.argv[1:3]
by = {}
bad = 0
for r in json.load(open(lsf)):
    if r.get("kind") != "run" or r.get("variant") not in ("feat", "field"):
        continue
    rid = r["run_id"]
    log = subprocess.run([ev, "show", "--log", rid], capture_output=True, text=True).stdout
    levels = sorted({int(m.group(1)) for m in re.finditer(r"^rt290 .*level (\d+)", log, re.M)})
    print(f"{r['variant']} repeat {r.get('repeat')}: {r.get('outcome')} median_us {r.get('median_us')} levels {levels}")
    if r.get("outcome") != "ok":
        continue
    rec = json.loads(subprocess.run([ev, "show", "--json", rid], capture_output=True, text=True).stdout)
    ident = ((rec.get("judge") or {}).get("plan") or {}).get("identity")
    if not ident or not levels:
        print(f"  an ok run without a plan identity or the planners' levels: {ident} {levels}")
        bad = 1
        continue
    # a run's own planners (the spec's shape and the drawn extra shape's)
    # make two plans of two shapes: their levels may differ within a run;
    # across ok runs of one identity they must not (H100, 2026-12-07: the
    # one ok repeat of field had levels [2, 6] and failed the union rule)
    by.setdefault((r["variant"], ident), set()).add(tuple(levels))
for (v, ident), lv in sorted(by.items()):
    print(f"{v} identity {ident[:16]}: level sets {sorted(lv)}")
    if len(lv) > 1:
        print(f"  ONE identity for ok runs whose planners read different clock levels: the field is outside the identity")
        bad = 1
sys.exit(bad)
PY
rc=$?
cat check.txt
[ $rc = 0 ] || { cat feat.txt field.txt; fail "a host word in an unread struct field passed under one plan identity"; }
exit 0
