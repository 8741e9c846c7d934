# t0274 - red team 191 (tests/fixtures/adversary/host/redteam191/README.md):
# the build box showed the host's live /proc, and the assembler's reads
# are in no dependency list: a pasted `.include "/proc/stat"` with one
# macro a line name put the host's counters into the object (one build
# key, three objects in three fresh-cache builds; a build clock made eval
# promote 12 of 12).  With /proc's global entries masked, red team 192
# read the entries behind links instead: /proc/self/mounts (the store's
# and cache's paths) and /proc/self/net/sockstat (the host's TCP socket
# count), 3 of 3 and 4 of 4.  Now the build box has no /proc at all (an
# empty read-only directory: sandbox.c sandbox_wrap_build), so each
# pasted include reads nothing and the build fails, saying what it read;
# the honest variant beside it builds and runs.  Its eval: the reference does not build, and no
# candidate is judged against it.
. "$REPO/tests/cli/lib.sh"
mkrepo
S=tests/fixtures/specs
"$EVIDENT" run --no-progress --repeats 1 $S/host-redteam191-procstat.yaml > out 2>&1 ||
	fail "the spec's outcomes are not its expect: $(tail -5 out)"
expect_match out '^h +ok '
expect_match out '^p +build_failed'
"$EVIDENT" show "$(sed -n 's/^records: .* and batch \([^ ]*\) in .*/\1/p' out)" > show.out 2>&1 || fail "show"
P=$(grep -l '"variant": "p"' artifacts/runs/*.json | grep -v -- -batch.json | head -1 | sed 's#.*/##; s/\.json$//')
[ -n "$P" ] || fail "no run of p"
expect_exit 0 "$EVIDENT" show "$P"
expect_contains "$TEST_TMP/out" "build_failed: the assembler read '/proc/stat'"
for sp in mounts:m:/proc/self/mounts sockstat:s:/proc/self/net/sockstat; do
	IFS=: read -r name v file <<<"$sp"
	"$EVIDENT" run --no-progress $S/host-redteam192-$name.yaml > o-$name 2>&1 ||
		fail "the spec's outcomes are not its expect: $(tail -5 o-$name)"
	expect_match o-$name "^$v +build_failed"
	R=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v -- -batch.json | head -1 | sed 's#.*/##; s/\.json$//')
	expect_exit 0 "$EVIDENT" show "$R"
	expect_contains "$TEST_TMP/out" "build_failed: the assembler read '$file'"
done
# the eval of the build clock: refused, its reference does not build
echo '{"name": "c1", "kernel": "tests/fixtures/adversary/host/redteam191/honest.c"}' > in.jsonl
"$EVIDENT" eval --reference ref --repeats 2 --no-progress $S/host-redteam191-evalclock.yaml < in.jsonl > e.out 2>&1 &&
	fail "eval judged candidates against a reference that does not build: $(tail -3 e.out)"
expect_contains e.out "the reference 'ref' (tests/fixtures/adversary/host/redteam191/procclock.c) does not build"
expect_not_contains e.out '"promoted":true'
