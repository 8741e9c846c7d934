# t0062: ls and paper read the store in one order.  Two batches stamped in
# the same instant are ordered by the store's "prev" chain (the one written
# later is newer), never by the random part of their ids: `evident ls
# --batches` lists last the batch that `evident paper` takes as the latest
# and `evident audit` reads, and ls lists runs in the order the negative
# block does.  Made deterministic by giving both batches one stamp and
# hash parts that sort against the order they were written in.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
setup_tiny_repo
run_tiny tiny.yaml
run_tiny tiny-crash.yaml
python3 - <<'PY' || fail "could not restamp the batches"
import glob, json, os
runs = "store/runs"
ids = sorted(os.path.basename(f)[:-5] for f in glob.glob(runs + "/*.json"))
batches = [i for i in ids if i.endswith("-batch")]
assert len(batches) == 2, batches
# written first -> hash part ffffffff, written second -> 00000000, one stamp for both
new = {batches[0]: "20260101T000000.000Z-tiny-ffffffff-batch",
       batches[1]: "20260101T000000.000Z-tiny-00000000-batch"}
for i in ids:
    path = "%s/%s.json" % (runs, i)
    text = open(path).read()
    for old, nw in new.items():
        text = text.replace(old, nw)
    os.chmod(path, 0o644)
    os.unlink(path)
    open("%s/%s.json" % (runs, new.get(i, i)), "w").write(text)
PY
expect_exit 0 "$EVIDENT" ls --batches
expect_eq "$(tail -n +2 "$TEST_TMP/out" | awk '{print $1}' | tr '\n' ' ')" \
	"20260101T000000.000Z-tiny-ffffffff-batch 20260101T000000.000Z-tiny-00000000-batch " "ls --batches order"
cat >p.md <<'EOF'
<!-- evident:table experiment=tiny run=latest -->
<!-- /evident:table -->

<!-- evident:negative -->
<!-- /evident:negative -->
EOF
expect_exit 0 "$EVIDENT" paper p.md
expect_contains p.md 'batch `20260101T000000.000Z-tiny-00000000-batch` (latest)'
expect_contains p.md '**crashed**'
# the negative block lists runs in ls's order
expect_exit 0 "$EVIDENT" ls
awk 'NR > 1 && $5 != "ok" {print $1}' "$TEST_TMP/out" >ls-failed
grep -o '(run `[^`]*`' p.md | sed 's/(run `//; s/`//' >paper-failed
[ -s ls-failed ] || fail "no failed run listed by ls"
cmp ls-failed paper-failed || { paste ls-failed paper-failed; fail "paper's negative block and ls disagree on order"; }
# and audit reads the same latest batch
printf '<!-- claim: measured-on experiment=tiny gpu="CPU" -->\n' >c.md
expect_exit 0 "$EVIDENT" audit --no-untraced c.md
expect_contains "$TEST_TMP/out" '(batch 20260101T000000.000Z-tiny-00000000-batch)'
