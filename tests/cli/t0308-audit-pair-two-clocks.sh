# t0308 - the audit's computed pair (two rows neither of which is the
# batch's baseline, audit_verdict.c pair_compare_now) refuses rows timed
# by two clocks, as the batch's own comparisons do (gather_same_clock):
# a kernel clock and CUDA events measure different spans, so a pair
# across them measures the clocks (red team 252 row 1, PREDICTED on CUDA,
# where one variant may be timed on events and another on CUPTI's kernel
# clock).  The host backend has one clock, so the test rewrites the
# twin's records to another clock and re-chains the store (red team 249's
# rechain.py), as a GPU batch with `clock: events` on one variant would
# record.  The binary before the check compared the pair (no "different
# clocks" line).  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
export EVIDENT_STORE="$TEST_TMP/s"
S=tests/fixtures/specs/host-two-clocks.yaml
"$EVIDENT" run --no-progress --repeats 1 "$S" > run.out 2>&1 || { cat run.out; fail "the batch did not run"; }
cat > claim.md <<'C'
wide is faster than the twin. <!-- claim: faster experiment=host-two-clocks a=wide b=twin -->
C
"$EVIDENT" audit --store "$EVIDENT_STORE" claim.md > before.out 2>&1
expect_match before.out "^claim.md:1: (supported|contradicted|unsupported|inconclusive): faster wide vs twin"
grep -q "different clocks" before.out && fail "one clock read as two: $(cat before.out)"
# the twin's run and its batch row now say CUDA events
python3 -S - "$EVIDENT_STORE/runs" <<'P' || fail "cannot rewrite the twin's clock"
import json, os, sys
d = sys.argv[1]
for n in sorted(os.listdir(d)):
    p = os.path.join(d, n)
    t = open(p).read()
    j = json.loads(t)
    if n.endswith("-batch.json"):
        i = t.index('"variant": "twin"')
        a = t.rindex('"clock": "host"', 0, i)
        t = t[:a] + '"clock": "events"' + t[a + len('"clock": "host"'):]
    elif j.get("variant") == "twin":
        assert '"clock": "host"' in t
        t = t.replace('"clock": "host"', '"clock": "events"')
    else:
        continue
    os.chmod(p, 0o644)
    open(p, "w").write(t)
P
first=$(ls "$EVIDENT_STORE/runs" | head -1)
python3 -S "$REPO/tests/fixtures/adversary/host/redteam249/rechain.py" "$EVIDENT_STORE" sub "${first%.json}" '"variant"' '"variant"' > rechain.out ||
	fail "re-chaining: $(cat rechain.out)"
expect_exit 0 "$EVIDENT" verify --store "$EVIDENT_STORE"
"$EVIDENT" show --store "$EVIDENT_STORE" latest > show.out 2>&1
"$EVIDENT" audit --store "$EVIDENT_STORE" claim.md > after.out 2>&1
expect_match after.out "^claim.md:1: unsupported: faster wide vs twin: .*wide and twin were timed by different clocks \\(host and events\\): a kernel clock and CUDA events measure different spans"
exit 0
