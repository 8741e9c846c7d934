# t3006 - on a GPU: trust: host code cannot edit or silence the CUPTI
# records the judge reads (red team 26, docs/redteam26-cuda.md): a kernel
# that re-registers CUPTI's activity buffer callbacks to rewrite its hidden
# kernel's correlation id (hide) or turns concurrent-kernel records off
# around a side-stream launch (toggle) is not ok, and one that shortens its
# records' durations (shrink) is no faster than honest (within 10%); the
# honest ones are ok.  And a pool slot (--gpus all) records its GPU's state
# and binds its one GPU's node: NVML did not survive the slot's fork, and
# every pool record on an H200 pair had gpu_state null and every node bound
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress tests/fixtures/specs/cuda-redteam26.yaml >run.txt 2>&1
cat run.txt
for v in honest fwd; do
	grep -qE "^$v +ok " run.txt || fail "$v is not ok"
done
for v in side hide toggle; do
	line=$(grep -E "^$v +" run.txt | head -1)
	[ -n "$line" ] || fail "no summary line for $v"
	[ "$(echo "$line" | awk '{print $2}')" != ok ] || fail "$v is ok: its side-stream rows were neither timed nor named: $line"
done
line=$(grep -E "^shrink +" run.txt | head -1)
if [ "$(echo "$line" | awk '{print $2}')" = ok ]; then
	x=$(echo "$line" | grep -oE ' [0-9]+\.[0-9]+x \[' | head -1 | tr -d ' x[')
	[ -n "$x" ] || fail "shrink: no speedup in: $line"
	python3 -c "import sys; sys.exit(0 if float('$x') < 1.10 else 1)" ||
		fail "shrink is ok and ${x}x faster than honest: its edited records were believed"
fi
# a pool slot's GPU state and node
rm -rf artifacts
expect_exit 0 "$EVIDENT" run --no-progress --gpus all --only honest tests/fixtures/specs/cuda-redteam26.yaml
n=0
for f in $(grep -L '"kind": "batch"' artifacts/runs/*.json); do
	n=$((n + 1))
	expect_eq "$(jget "$f" "d['executor']['kind']")" pool
	expect_eq "$(jget "$f" "isinstance(d['gpu_state']['before'], dict) and isinstance(d['machine']['gpu'], dict)")" True \
		"$f: the slot's GPU state was not read: $(jget "$f" "d['gpu_state']")"
	nodes=$(jget "$f" "d['judge']['sandbox']['gpu_nodes']")
	case "$nodes" in
	/dev/nvidia[0-9]*) ;;
	*) fail "$f: the slot's box did not bind its one GPU node: $nodes" ;;
	esac
done
[ "$n" -ge 1 ] || fail "no pool run recorded"
