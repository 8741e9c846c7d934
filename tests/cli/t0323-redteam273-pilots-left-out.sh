# t0323 - red team 273 rows 6, 6b (host/redteam273/README.md): eval's
# pooled weigh (eval.c pool_decides) counted a batch with no verdict by
# its own settings as "not faster": two `evident run --repeats 1` pilots
# of eval's own spec ("inconclusive (1 repeat)", rule 0) or a third
# party's 2-sample batches ("too few samples") held an honest 2.4-2.8x
# candidate whose own batch was faster ("only 1 of 3", 4 of 4).  Now such
# batches are left out both ways (pool_by_settings), as the audit's rule
# 0b leaves them out; a batch of the same pair at the spec's own settings
# (3 repeats, 30 samples) is still weighed, whatever its verdict.  (The
# 2-sample batches of row 6b are not run here: with 3 repeats of 2
# samples a batch may decide on a quiet machine, and a decided batch
# counts.)  About 40 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
D=tests/fixtures/specs
S=$TEST_TMP/s
for i in 1 2; do
	"$EVIDENT" run --no-progress --repeats 1 $D/host-redteam227-tol.yaml --store "$S" >> pilot.out 2>&1 ||
		{ cat pilot.out; fail "pilot $i"; }
done
expect_match pilot.out "^chal .*inconclusive \(1 repeat\)"
# a batch at the spec's own settings: weighed (a verdict, or inconclusive
# on its measurement, counts as before)
"$EVIDENT" run --no-progress $D/host-redteam227-tol.yaml --store "$S" > proper.out 2>&1 || { cat proper.out; fail "proper"; }
ls "$S"/runs/*-batch.json > batches.out
[ "$(wc -l < batches.out)" = 3 ] || { cat batches.out; fail "expected 3 side batches"; }
echo '{"kernel": "tests/fixtures/adversary/host/redteam227/chal.c"}' |
	"$EVIDENT" eval --store "$S" --no-progress $D/host-redteam227-tol.yaml 2> eval.err > eval.json || { cat eval.err; fail "eval"; }
python3 - eval.json > e.out <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
b = d.get("batches_of_code") or {}
# the earlier batches that may be weighed: the proper one, and eval's own
# confirmation where it ran one
want = 1 + (1 if d.get("confirms") else 0)
print("verdict=%s promoted=%s weighed=%s earlier=%s faster=%s want=%d" %
      (d.get("verdict"), d.get("promoted"), b.get("weighed"), b.get("earlier"), b.get("faster"), want))
print("decision:", d.get("decision"))
PY
cat e.out
# before: the two pilots weighed ("not faster: inconclusive"); after:
# the proper batch (and eval's confirmation) alone
expect_match e.out "earlier=([0-9]+) faster=[0-9]+ want=\\1\$"
for f in $(python3 -c 'import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    if d.get("plan", {}).get("repeats") == 1:
        print(f)' "$S"/runs/*-batch.json); do
	id=$(basename "$f" .json)
	expect_not_contains e.out "$id"
done
# where eval's own batch and the proper one both say faster, promoted
# (2 of 2); under load either may be inconclusive (no reading)
if grep -q "^verdict=faster .*faster=2" e.out; then
	expect_match e.out "promoted=True"
fi
exit 0
