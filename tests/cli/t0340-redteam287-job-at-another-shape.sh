# t0340 - red team 287 row 2 (host/redteam287/README.md): eval's hold of a
# reference slowed by the session's job (ref_fastest_other_job, t0332)
# read rows of the session's problem key, which holds the shape, so red
# team 284's proposer ran its OMP_NUM_THREADS=1 session (which slows only
# the threaded reference par.c 2x) at S 17 for the history's 16 (both
# kernels sleep whatever the shape) and was promoted 3 of 3, the audit
# supporting the claim.  Now a reference whose code ran under another
# runner's process at another shape, a process never compared with the
# session's, holds the promotion (eval.c ref_job_unseen, audit_verdict.c
# slower_side_unseen): reference_other_process names that batch.  And
# once the two processes were compared at the other shape and found
# alike (the history's reference run again under `nice -n 1`, which
# changes the process, not the sleep) at S 18, a session under that
# process at S 17 is not held by it.  Red team 291 row 2: the same release dodged
# the hold with parS.c, a reference that threads only from S 17 up: run
# under OMP_NUM_THREADS=1 at S 16, where the job changes nothing, it read
# alike, and the session at 17 was promoted 3 of 3; a comparison counts
# only at a shape at least the session's in every dimension now.  About 60 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
runs_alone_light "sleep-timed kernels 2x apart"
mkrepo
S=tests/fixtures/specs
F=tests/fixtures/adversary/host/redteam284
# the project's batch of the reference alone, default process, S 16
expect_exit 0 "$EVIDENT" run --no-progress $S/host-redteam284-jobref.yaml
show() {
	python3 -S - "$1" <<'PY' || fail "eval's answer unreadable"
import json, sys
d = json.loads(open(sys.argv[1]).readline())
o = d.get("reference_other_process")
print("promoted=%s verdict=%s" % (d.get("promoted"), d.get("verdict")))
print("other_process=%s" % (o and "shape=%s ratio_there=%s held=%s" % (o.get("shape"), o.get("ratio_there"), o.get("held"))))
print("decision:", d.get("decision"))
PY
}
line="{\"kernel\": \"$F/greedy.c\", \"params\": {\"SLEEP_US\": 8000}}"
# the session: OMP_NUM_THREADS=1 at S 17
echo "$line" | OMP_NUM_THREADS=1 "$EVIDENT" eval --no-progress $S/host-redteam287-shape.yaml > e1.out 2> e1.err ||
	fail "eval failed: $(tail -3 e1.err)"
show e1.out > e1.txt
cat e1.txt
expect_match e1.txt "^promoted=False "
expect_match e1.txt "^other_process=shape=B=1 H=1 S=16 D=16 ratio_there=None held=(True|False)$"
if grep -q "^promoted=False verdict=faster" e1.txt; then
	expect_match e1.txt "held=True$"
	expect_contains e1.txt "ran under another runner's process at another shape"
	expect_contains e1.txt "this session's process never ran it there"
	c=$(python3 -S -c "import json,sys;print(json.loads(open(sys.argv[1]).readline())['candidate'])" e1.out)
	printf 'greedy is faster. <!-- claim: faster experiment=rt285-knob a=%s b=ref -->\n' "$c" > claim.md
	"$EVIDENT" audit claim.md > a.out 2>&1
	cat a.out
	expect_contains a.out "1 contradicted"
	expect_contains a.out "ran under another runner's process at another shape"
else
	echo "note: the session's verdict was not faster here (load?): the hold's reason not reached"
fi
# compared alike at S 18, at least the session's work: the reference in
# the default process and under nice -n 1 there, then the session under
# nice -n 1 at S 17 (alike at 16 alone no longer does: red team 291, below)
sed 's/S: 16/S: 18/' $S/host-redteam284-jobref.yaml > jobref18.yaml
expect_exit 0 "$EVIDENT" run --no-progress jobref18.yaml
expect_exit 0 nice -n 1 "$EVIDENT" run --no-progress jobref18.yaml
echo "$line" | nice -n 1 "$EVIDENT" eval --no-progress $S/host-redteam287-shape.yaml > e2.out 2> e2.err ||
	fail "eval failed: $(tail -3 e2.err)"
show e2.out > e2.txt
cat e2.txt
expect_match e2.txt "^other_process=None$"
# red team 291 row 2, in a store of its own
expect_exit 0 "$EVIDENT" run --no-progress --store s291 $S/host-redteam291-sref16.yaml
expect_exit 0 env OMP_NUM_THREADS=1 "$EVIDENT" run --no-progress --store s291 $S/host-redteam291-sref16.yaml
echo "$line" | OMP_NUM_THREADS=1 "$EVIDENT" eval --no-progress --store s291 $S/host-redteam291-sknob.yaml > e3.out 2> e3.err ||
	fail "eval failed: $(tail -3 e3.err)"
show e3.out > e3.txt
cat e3.txt
expect_match e3.txt "^promoted=False "
expect_match e3.txt "^other_process=shape=B=1 H=1 S=16 D=16 ratio_there=(0|1)\.[0-9]+ held=(True|False)$"
if grep -q "^promoted=False verdict=faster" e3.txt; then
	expect_contains e3.txt "that shape is not at least this one in every dimension"
fi
exit 0
