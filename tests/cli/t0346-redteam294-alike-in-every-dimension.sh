# t0346 - red team 294 row 1 (host/redteam294/README.md): two runner's
# processes compared and found alike at another shape were taken as alike
# at the session's where that shape had at least the session's work
# (FLOPs), so a comparison at {H 2, S 16}, more FLOPs and fewer rows than
# the session's {H 1, S 17}, stood for it: red team 291's parS.c threads
# only from S 17 up, so OMP_NUM_THREADS=1 changes nothing at S 16 and
# halves it at 17, and greedy.c under that job was promoted 3 of 3, a
# search confirmed 3 of 3, the audit supported the claim.  Now the
# compared shape must be at least the session's in every dimension
# (record/shape.c rec_shape_covers, read by eval.c ref_envs_alike_above
# and audit_verdict.c slower_side_unseen): held, reference_other_process
# names the S 16 batch; the audit contradicts.  About 30 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone_light "sleep-timed kernels 2x apart"
mkrepo
S=tests/fixtures/specs
# the project's batch of the reference at {H 2, S 16}, then the same under
# OMP_NUM_THREADS=1: alike there (parS.c does not thread under 17 rows)
expect_exit 0 "$EVIDENT" run --no-progress $S/host-redteam294-wref.yaml
expect_exit 0 env OMP_NUM_THREADS=1 "$EVIDENT" run --no-progress $S/host-redteam294-wref.yaml
line='{"kernel": "tests/fixtures/adversary/host/redteam284/greedy.c", "params": {"SLEEP_US": 8000}}'
echo "$line" | OMP_NUM_THREADS=1 "$EVIDENT" eval --no-progress $S/host-redteam294-wide.yaml > e.out 2> e.err ||
	fail "eval failed: $(tail -3 e.err)"
python3 -S - e.out > e.txt <<'PY' || fail "eval's answer unreadable"
import json, sys
d = json.loads(open(sys.argv[1]).readline())
o = d.get("reference_other_process")
print("promoted=%s verdict=%s" % (d.get("promoted"), d.get("verdict")))
print("other_process=%s" % (o and "shape=%s held=%s" % (o.get("shape"), o.get("held"))))
print("candidate=%s" % d.get("candidate"))
print("decision:", d.get("decision"))
PY
cat e.txt
expect_match e.txt "^promoted=False "
expect_match e.txt "^other_process=shape=B=1 H=2 S=16 D=16 held=(True|False)$"
if grep -q "^promoted=False verdict=faster" e.txt; then
	expect_match e.txt "held=True$"
	expect_contains e.txt "that shape is not at least this one in every dimension"
	c=$(sed -n 's/^candidate=//p' e.txt)
	printf 'greedy is faster. <!-- claim: faster experiment=rt294-wide a=%s b=ref -->\n' "$c" > claim.md
	"$EVIDENT" audit claim.md > a.out 2>&1
	cat a.out
	expect_contains a.out "1 contradicted"
	expect_contains a.out "ran it alike there, but at a shape not at least this one in every dimension"
else
	echo "note: the session's verdict was not faster here (load?): the hold's reason not reached"
fi
exit 0
