# lib.sh - assertions for the CLI tests; source it first:  . "$REPO/tests/cli/lib.sh"
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }
# expect_exit CODE cmd...   runs cmd, saving stdout in $TEST_TMP/out and stderr in $TEST_TMP/err
expect_exit() {
	local want=$1; shift
	"$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; local got=$?
	if [ "$got" != "$want" ]; then
		echo "--- stdout"; cat "$TEST_TMP/out"; echo "--- stderr"; cat "$TEST_TMP/err"
		fail "'$*' exited $got, expected $want"
	fi
}
expect_contains() { grep -qF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "'$1' lacks: $2"; }; }
expect_match() { grep -qE -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "'$1' has no line matching: $2"; }; }
expect_not_contains() { ! grep -qF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "'$1' has: $2"; }; }
expect_eq() { [ "$1" = "$2" ] || fail "expected '$2', got '$1'${3:+ ($3)}"; }
# expect_caught_or_slower FILE VARIANT OUTCOME: a cheat that hides work
# from the clock is defeated two ways: the judge names it (OUTCOME, for
# example escaped_work), or the work lands in the timed window and the
# variant is ok but slower than the baseline (speedup below 1x in the
# summary of `evident run` in FILE).  Which of the two happens can turn on
# the scheduler (where the parent wakes against the hidden work), so a
# test of the property accepts either and nothing else: an ok that is not
# slower fails.
expect_caught_or_slower() {
	local line
	line=$(grep -E "^$2 +" "$1" | head -1)
	[ -n "$line" ] || { echo "--- $1:"; cat "$1"; fail "no summary line for $2"; }
	case "$(echo "$line" | awk '{print $2}')" in
	"$3") return 0 ;;
	ok)
		echo "$line" | grep -qE ' 0\.[0-9]+x \[' && return 0
		echo "--- $1:"; cat "$1"; fail "$2 is ok and not slower than its baseline: its hidden work was neither timed nor named" ;;
	*) echo "--- $1:"; cat "$1"; fail "$2: expected $3, or ok and slower than its baseline" ;;
	esac
}
# runs_alone WHY: a test whose checks race the clock, compare timings
# (a verdict, a ratio of medians) or race other processes calls it, on a
# line of its own before it runs anything (run.sh looks for the line).  run.sh runs such a test after the
# others, one at a time, holding CLI_LOCK exclusive, so nothing else of
# make test (another test, a unit binary, a build, the kernels check) runs
# beside it.  Inside t0040's clone (whose smoke run names its own tests)
# it skips: that clone's lock is its own, and the outer make test runs it.
# make test runs the alone tests of both passes two at a time, a CPU each,
# once nothing else of make test is left (tests/cli/run.sh): a runs_alone
# test has a CPU to itself, not the machine.
runs_alone() {
	[ -z "${EVIDENT_QUICKSTART_INNER:-}" ] || skip "inside the quick-start test's own 'make test' ($*; the outer run runs it)"
}
# runs_alone_machine WHY: as runs_alone, for a test that needs (or would
# disturb) the whole machine: a pool of a slot per CPU, the one GPU.  It
# runs with nothing else of make test beside it, not even the other pass's
# alone test.
runs_alone_machine() { runs_alone "$@"; }
# runs_alone_light WHY: as runs_alone, for a test that mostly sleeps (its
# timed kernels nap, a third of its time or less is CPU) and whose timed
# checks hold by wide margins: in make test's alone phase two such tests
# share a CPU's slot (tests/cli/run.sh), never with a runs_alone test.
runs_alone_light() { runs_alone "$@"; }
# plain_pass_only WHY: a test that never runs $EVIDENT (it checks sources,
# documents or what nvcc makes of a kernel, or tests Slurm, an install or
# a fresh clone's own build) calls it first, on a line of its own.  make
# test's sanitized pass differs from the plain one only in $EVIDENT (built
# under build-san/ with ASan+UBSan), so there such a test would repeat
# itself unchanged; it skips, saying why.  Under make test (CLI_ONCE,
# tests/cli/run.sh) the sanitized pass does not even count it.
plain_pass_only() {
	case "$EVIDENT" in *build-san/*) skip "runs once, in the plain pass: $*" ;; esac
}
# plain_pass WHY: a test that runs $EVIDENT but belongs to make test's
# plain pass (CLI_ONCE: each test runs in one pass) calls it first, on a
# line of its own: the GPU tests (their timings and the CUDA worker are
# what a GPU host runs, the plain build; scripts/san-cover.py does not
# measure them).  It does nothing when the test runs: CLI_BOTH=1 make test,
# or tests/cli/run.sh by hand, still runs it sanitized too.
plain_pass() { :; }
# sanitized_pass_only WHY: a test that runs, cheaply and under ASan+UBSan,
# the lines of src/ that only long tests reach, so that the sanitized pass
# may skip those (tests/cli/san-skip.txt); the plain pass runs the long
# tests themselves, so there it skips.  scripts/cli-coverage.sh runs it
# (CLI_COVERAGE=1) to count its lines.
sanitized_pass_only() {
	case "$EVIDENT" in
	*build-san/*) ;;
	*) [ -n "${CLI_COVERAGE:-}" ] || skip "runs in the sanitized pass only: $*" ;;
	esac
}
# A GPU test calls need_gpu first: it skips with the reason when none is here.
need_gpu() {
	command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 || skip "no NVIDIA GPU on this machine (nvidia-smi -L failed)"
}
# A fresh store per test.
export EVIDENT_STORE="$TEST_TMP/store"
# builds_from_nothing WHY: a test whose subject is the build itself (the
# build cache, what a build records or refuses, provenance, a fresh clone)
# calls it before mkrepo: its repository starts with an empty build cache.
# Every other test's mkrepo copies in the seed cache run.sh built once for
# the run (CLI_SEED_CACHE: the problem plug-ins and tiny.yaml's kernels),
# so that it does not compile them again (0.4 to 0.5 s of CPU a build
# here, with its box and its dependency pass); the cache is content-
# addressed (its key covers every source byte, the flags and the
# compiler's version, and a hit re-hashes the object and the sources), so
# a kernel a test changes or adds is built as it would be.
builds_from_nothing() { cold_cache=1; }
# seed_cache: copy CLI_SEED_CACHE (if any) into ./build/cache, unless the
# test called builds_from_nothing.  A copy, not links: a test that tampers
# with its cache tampers with its own.
seed_cache() {
	[ -n "${CLI_SEED_CACHE:-}" ] && [ -z "${cold_cache:-}" ] && [ ! -e build/cache ] || return 0
	mkdir -p build && cp -r "$CLI_SEED_CACHE" build/cache || fail "cannot copy the seed build cache '$CLI_SEED_CACHE'"
}
# mkrepo [git]: a scratch repository in $TEST_TMP/repo with the kernels and
# fixtures, and cd into it; with "git", also git init and commit it.  Its
# build/cache is the seed's (seed_cache; after the commit: untracked, as
# after a first run).
# tests/fixtures (1260 files: specs, fixture kernels, the red teams'
# probes; the tests read them and never edit one in place) is hard-linked
# from the pass's own copy, CLI_FIXTURES_COPY (tests/cli/run.sh makes it
# and fails the pass if a test wrote into it): the copy was 0.7 s of CPU
# (sys) of each of the 102 tests' mkrepo on the project's VM, the links
# 0.09 s (2026-11-30).  A test that edits a fixture writes a new file (sed
# -i, a copy to a new name, experiments/); kernels/ and problems/, which
# tests edit in place (>>), are copies.
# mkrepo git FILE...: tests/fixtures holds only those files (paths under
# it; "none": no file) before the commit: a reproduce test's repository, whose every
# `evident reproduce` checks the whole committed tree out again and whose
# commit hashes every file: with the 1500 fixtures, ext4's inode
# allocation and git's hashing were most of t0070's CPU.
mkrepo() {
	mkdir -p "$TEST_TMP/repo/tests" && cp -r "$REPO/kernels" "$REPO/problems" "$TEST_TMP/repo/" &&
		if [ -n "${CLI_FIXTURES_COPY:-}" ] && [ -d "$CLI_FIXTURES_COPY/fixtures" ]; then
			cp -al "$CLI_FIXTURES_COPY/fixtures" "$TEST_TMP/repo/tests/"
		else
			cp -r "$REPO/tests/fixtures" "$TEST_TMP/repo/tests/"
		fi && mkdir -p "$TEST_TMP/repo/experiments" &&
		mkdir -p "$TEST_TMP/repo/data" && cp "$REPO/data/gpu-prices.yaml" "$TEST_TMP/repo/data/" || fail "mkrepo"
	cd "$TEST_TMP/repo" || fail "cd repo"
	if [ "${1:-}" = git ] && [ $# -gt 1 ]; then
		local keep=$TEST_TMP/keep f
		mkdir -p "$keep" || fail "mkrepo"
		for f in "${@:2}"; do
			[ "$f" = none ] && continue
			[ -f "tests/fixtures/$f" ] || fail "mkrepo: no fixture '$f'"
			mkdir -p "$keep/$(dirname "$f")" && cp -p "tests/fixtures/$f" "$keep/$f" || fail "mkrepo: $f"
		done
		rm -rf tests/fixtures && mv "$keep" tests/fixtures || fail "mkrepo: the fixtures kept"
	fi
	if [ "${1:-}" = git ]; then
		# the pass's objects of this tree, if run.sh made them: git adds
		# the tree without writing a blob it has there
		git init -q . && { [ -z "${CLI_GIT_OBJECTS:-}" ] || [ ! -d "$CLI_GIT_OBJECTS" ] ||
			echo "$CLI_GIT_OBJECTS" >.git/objects/info/alternates; } &&
			git -c user.email=t@t -c user.name=t add -A &&
			git -c user.email=t@t -c user.name=t commit -qm init || fail "git init"
	fi
	seed_cache
	export EVIDENT_STORE="$TEST_TMP/repo/artifacts"
}
# json FILE EXPR: jq-free JSON query through python3 (present on CI images) - keep simple.
# -S: no site module; jget needs the standard library only, and site runs
# every .pth file of site-packages at each start (on the project's VM one
# imports certifi: a call cost 0.15 s of CPU, 0.06 s with -S; the tests
# call jget over a hundred times)
jget() { python3 -S -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
# jexpect FILE <<E: each line "EXPR => WANT" of stdin is
# expect_eq "$(jget FILE EXPR)" WANT, all of them in one python3 (a start
# is 0.06-0.1 s of CPU on the project's VM: t0121 made 27 of them to read
# two records); a line that starts with # is a comment.  The first that
# differs fails the test, naming EXPR; an EXPR that raises fails it too.
jexpect() {
	local msg
	msg=$(python3 -S -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for line in sys.stdin.read().splitlines():
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    expr, sep, want = line.partition(" => ")
    if not sep:
        sys.exit("jexpect: no \" => \" in %r" % line)
    got = str(eval(expr))
    if got != want:
        sys.exit("expected %r, got %r (%s)" % (want, got, expr))
    n += 1
if not n:
    sys.exit("jexpect: no check given")
' "$1" 2>&1) || fail "${msg:-jexpect: python3 failed on '$1'}"
}
# expect_spec_error 'error: FILE:L:C: message' < SPEC: the spec read from
# stdin is refused with exit 3 and exactly that one line, and no store appears
expect_spec_error() {
	mkrepo
	cat > experiments/x.yaml
	expect_exit 3 "$EVIDENT" run experiments/x.yaml
	[ "$(wc -l < "$TEST_TMP/err")" = 1 ] || { cat "$TEST_TMP/err"; fail "expected one error line"; }
	expect_eq "$(cat "$TEST_TMP/err")" "$1"
	[ ! -e artifacts ] || fail "the store was touched"
}
