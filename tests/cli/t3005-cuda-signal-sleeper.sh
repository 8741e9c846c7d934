# t3005 - trust: host code cannot hide device work behind a signal handler
# on the harness's own thread (red team 25, docs/redteam25-cuda.md): the
# sleeper variants, whose handler launched a grid while the harness waited
# for its go and then had half or three quarters of the rows summed
# outside the timed window, are either named (any outcome but ok) or ok
# and no faster than the honest kernel (within 10%: 1.41x and 1.66x
# before the fix on an H200); the honest ones and the TMA probe are ok.
# And a kernel that takes CUPTI's one subscription from its constructor
# (rt25_cupti_steal.cu) keeps no way off the kernel clock: its hidden rows
# are escaped_work, its honest twin ok on the kernel clock
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress tests/fixtures/specs/cuda-redteam25.yaml >run.txt 2>&1
cat run.txt
for v in honest plain tma tma_host; do
	grep -qE "^$v +ok " run.txt || fail "$v is not ok"
done
for v in post pre pre75; do
	line=$(grep -E "^$v +" run.txt | head -1)
	[ -n "$line" ] || fail "no summary line for $v"
	[ "$(echo "$line" | awk '{print $2}')" = ok ] || continue
	x=$(echo "$line" | grep -oE ' [0-9]+\.[0-9]+x \[' | head -1 | tr -d ' x[')
	[ -n "$x" ] || fail "$v: no speedup in: $line"
	python3 -c "import sys; sys.exit(0 if float('$x') < 1.10 else 1)" ||
		fail "$v is ok and ${x}x faster than honest: its hidden rows were neither timed nor named"
done
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/cuda-redteam25-steal.yaml
f=$(grep -l '"variant": "steal_ok"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$f" ] || fail "no record of steal_ok"
expect_eq "$(jget "$f" "d['timing']['clock']")" cupti
exit 0
