# t0341 - red team 289 rows 1 and 1b (host/redteam289/README.md): the
# extra shape, drawn below the spec's C, was judged by the problem's rule
# at the spec's shape, and every fp32 rule grows with C (or K), so
# growbias.c (every row sum off by a relative 7e-5) at R 64, C 65536
# (rule 8e-5) was ok with its extra shape checked 42 of 42, in 33 of them
# at a drawn C where rowsum's own rule refutes it, and `validated`
# supported 4 of 4 stores.  Now each extra-shape check is judged by the
# problem's rule at the drawn shape, a spec's field only where tighter
# (job.c check_tolerance), the parent's re-judge too, and the record keeps
# the rule (correctness.extra_shape.tolerance, with `problem`).
# host-redteam289-grow itself, and host-fix289-spelled (the same with the
# problem's 8e-5 written out as the spec's rule, no looser: a field the
# spec sets is kept at the drawn shape only where it is tighter): each
# growbias run wrong_output where its drawn C is under 50176 (77% of
# draws) and ok above, its record's extra_shape.tolerance rowsum's rule
# at the drawn C; exactsum ok.  A store's batches run until a growbias
# run drew C under 48000 (up to 4 batches of 3: all 12 over it, 1e-7),
# and `validated growbias` is then contradicted.  About 60-120 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
# drawn STORE EXPERIMENT: each run's variant, outcome, drawn C and the
# extra shape's rule against rowsum's own there (rowsum_tolerance)
drawn() {
	python3 -S - "$1" "$2" <<'PY'
import glob, json, math, sys
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.json")):
    if f.endswith("-batch.json"):
        continue
    d = json.load(open(f))
    if d.get("experiment") != sys.argv[2]:
        continue
    xs = d["correctness"]["extra_shape"]
    C = xs["shape"]["C"]
    rule = 1e-5 * max(1.0, math.sqrt(C / 1024.0))
    t = xs.get("tolerance") or {}
    got = t.get("rel_l2")
    own = (t.get("problem") or {}).get("rel_l2")
    same = got is not None and own is not None and abs(got - rule) <= 1e-9 * rule and abs(own - rule) <= 1e-9 * rule
    print("run %s %s %s C=%d rule=%s" % (d["variant"], d["outcome"], xs["status"], C,
                                         "drawn" if same else "other(%s)" % got))
PY
}
# grown SPEC EXPERIMENT STORE: batches of SPEC until a growbias run drew a
# C where rowsum's rule refutes it, each run then judged against its draw
grown() {
	local n=0
	while [ $n -lt 4 ]; do
		n=$((n + 1))
		# (the spec's expect lines need not hold: a draw over 50176
		# leaves growbias ok, rightly)
		"$EVIDENT" run --no-progress --store "$3" "$1" > "$2-$n.out" 2>&1
		cat "$2-$n.out"
		grep -q "^growbias " "$2-$n.out" || fail "$2: no growbias row"
		drawn "$3" "$2" > "$2.runs"
		python3 -S - "$2.runs" <<'PY' && break
import re, sys
sys.exit(0 if any(re.match(r"run growbias \S+ \S+ C=(\d+)", l) and int(l.split("C=")[1].split()[0]) < 48000
                  for l in open(sys.argv[1])) else 1)
PY
	done
	cat "$2.runs"
	expect_match "$2.runs" "^run growbias wrong_output checked C=[0-9]+ rule=drawn$"
	expect_not_contains "$2.runs" "rule=other"
	expect_not_contains "$2.runs" "run exactsum wrong"
	expect_not_contains "$2.runs" "run exactsum flaky"
	python3 -S - "$2.runs" <<'PY' || fail "$2: a growbias outcome against its drawn C"
import re, sys
bad = 0
for line in open(sys.argv[1]):
    m = re.match(r"run growbias (\S+) \S+ C=(\d+)", line)
    if not m:
        continue
    out, C = m.group(1), int(m.group(2))
    if (C < 48000 and out != "wrong_output") or (C > 52500 and out != "ok"):
        print("growbias %s at a drawn C %d" % (out, C))
        bad += 1
sys.exit(1 if bad else 0)
PY
	printf '%s\n' "growbias passes every check. <!-- claim: validated experiment=$2 variant=growbias -->" \
		"exactsum passes every check. <!-- claim: validated experiment=$2 variant=exactsum -->" > "$2-claim.md"
	"$EVIDENT" audit --store "$3" "$2-claim.md" > "$2-audit.out" 2>&1
	cat "$2-audit.out"
	expect_match "$2-audit.out" "claim.md:1: contradicted: validated $2/growbias"
	expect_match "$2-audit.out" "claim.md:2: supported: validated $2/exactsum"
}
grown tests/fixtures/specs/host-redteam289-grow.yaml host-redteam289-grow "$TEST_TMP/g"
grown tests/fixtures/specs/host-fix289-spelled.yaml host-fix289-spelled "$TEST_TMP/s"
exit 0
