# t3021 - on a GPU: the carveout and cache configuration a sealed plan
# replays are the ones launch()'s launches ran at (red team 176,
# tests/fixtures/adversary/cuda/redteam176/README.md).  mixcarve launched
# one function with a carveout launch attribute and again without one (at
# the function's own carveout 0), and both were replayed at the
# attribute's 100; ctxreset set the context's cache configuration to
# PreferL1 before its launch and back after; thirdreset set the
# function's carveout back to the default in the third call only.
# Measured on an H200 before the fix (2026-12-04): mixcarve sealed ok
# 13.47 us against 20.72 us in its process, ctxreset 8.22 us against
# 15.71.  Now each is launch_failed, and the honest kernels that set the
# same value before every launch (carve_each, ctx_each) stay ok at their
# process's time.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress --repeats 1 --only mixcarve --only ctxreset --only thirdreset --only carve_each \
	--only ctx_each --only ctx_init tests/fixtures/specs/cuda-redteam176.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 5 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
for v in mixcarve ctxreset thirdreset; do
	grep -qE "^$v +launch_failed " run.txt || { cat run.txt; fail "$v (a split the replay would not run at) was not refused"; }
done
med() { awk -v v="$1" '$1 == v && $2 == "ok" { print $3 }' run.txt; }
ref=$(med ctx_init)
[ -n "$ref" ] || { cat run.txt; fail "ctx_init (PreferL1 set once, in init()) is not ok"; }
for v in carve_each ctx_each; do
	a=$(med $v)
	[ -n "$a" ] || { cat run.txt; fail "$v (the same value set before every launch) is not ok"; }
	awk -v a="$a" -v h="$ref" 'BEGIN { exit !(a >= 0.85 * h) }' ||
		{ cat run.txt; fail "$v's sealed median $a us is under 0.85x ctx_init's $ref us: its split was not carried"; }
done
