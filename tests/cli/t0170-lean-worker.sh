# t0170 - a job's worker and checker run evident-worker, the lean
# executable beside evident (src/cli/worker_main.c), which NEEDs none of
# the runner's libgit2, GSL or libyaml and answers only __worker and
# __check; where none lies beside the runner (a dist made before it
# existed) the runner execs itself, and the run is the same
. "$REPO/tests/cli/lib.sh"
lean=$(dirname "$EVIDENT")/evident-worker
[ -x "$lean" ] || fail "no $lean beside $EVIDENT (make builds both)"
ldd "$lean" > needs.txt || fail "ldd $lean"
for lib in libgit2 libgsl libyaml; do
	expect_not_contains needs.txt "$lib"
done
expect_exit 2 "$lean" run tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/err" "usage: evident-worker __worker JOB.json | __check CHECK.json"

mkrepo
# worker_log DIR: the worker logs of the store DIR (objects in the store,
# each opening with "# worker: EXE __worker")
worker_logs() { grep -rh '^# worker: ' "$1/objects" | sort -u; }
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/out" "naive                    ok"
expect_contains "$TEST_TMP/out" "blocked                  ok"
worker_logs artifacts > logs.txt
expect_match logs.txt "^# worker: $lean __worker"
expect_not_contains logs.txt "$EVIDENT __worker"

# the runner alone: it execs itself for both
mkdir -p "$TEST_TMP/solo/bin"
cp "$EVIDENT" "$TEST_TMP/solo/bin/evident"
# a dist's bubblewrap lies beside its runner (scripts/dist.sh)
bwrap=$(dirname "$EVIDENT")/bwrap
[ ! -x "$bwrap" ] || cp "$bwrap" "$TEST_TMP/solo/bin/bwrap"
# a dist's runner finds its libraries in ../lib (rpath $ORIGIN/../lib)
libdir=$(dirname "$EVIDENT")/../lib
[ ! -d "$libdir" ] || cp -r "$libdir" "$TEST_TMP/solo/lib"
EVIDENT_STORE=$TEST_TMP/solo-store expect_exit 0 "$TEST_TMP/solo/bin/evident" run --no-progress \
	tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/out" "naive                    ok"
expect_contains "$TEST_TMP/out" "blocked                  ok"
worker_logs "$TEST_TMP/solo-store" > solo.txt
expect_match solo.txt "^# worker: $TEST_TMP/solo/bin/evident __worker"
exit 0
