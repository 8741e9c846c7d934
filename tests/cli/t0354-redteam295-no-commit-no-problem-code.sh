# t0354 - red team 295 row 3 (host/redteam295/README.md): a run that
# recorded neither its problem's code nor a commit (an evident build
# older than problem provenance, 74c9de22e, made from `git archive`, or
# run before a repository's first commit) was judged by its kernel alone
# unless a newer run of its experiment recorded problem code that had
# changed since; red team 294's gemm off by 2.4e-4, ok under c843a0cb8's
# looser fp32 rule, read `validated` supported 4 of 4 stores, and 2 of 2
# beside a newer run of today's (current) problem code.  Now such a run
# ran a problem whose code is unknown: stale.  The run here is the
# committed study store's own of that class (iter1's naive of 2026-11-22,
# "commit": null, "no commit yet", no problem.sources), copied byte for
# byte into a fresh store beside a newer run of experiment iter1 by
# today's evident outside a git repository (commit null, its problem code
# recorded and current: the control, supported).  Before: both supported.
# About 3 s.
. "$REPO/tests/cli/lib.sh"
mkrepo
old=20261122T042526.949Z-iter1-0ac2ceea
mkdir -p artifacts/runs && cp "$REPO/artifacts/runs/$old.json" artifacts/runs/ || fail "the old record"
# today's evident, no repository: experiment iter1 (tiny's shape), its baseline renamed hnaive
sed -e 's/^name: tiny/name: iter1/' -e 's/\bnaive\b/hnaive/g' tests/fixtures/specs/tiny.yaml >experiments/iter1.yaml ||
	fail "the spec"
expect_exit 0 "$EVIDENT" run --no-progress experiments/iter1.yaml
new=$(ls artifacts/runs | grep -- '-iter1-.*\.json$' | grep -v -- "$old\|batch" | head -1)
jexpect "artifacts/runs/$new" <<'E'
d['variant'] in ('hnaive', 'blocked') => True
d['code']['git']['commit'] => None
len(d['problem']['sources']) > 0 => True
E
jexpect "artifacts/runs/$old.json" <<'E'
d['code']['git']['commit'] => None
'sources' in d['problem'] => False
d['problem']['name'] => attention_fwd
E
cat >"$TEST_TMP/c.md" <<'M'
naive is validated. <!-- claim: validated experiment=iter1 variant=naive -->

hnaive is validated. <!-- claim: validated experiment=iter1 variant=hnaive -->
M
f="$TEST_TMP/c.md" o="$TEST_TMP/out"
expect_exit 1 "$EVIDENT" audit "$f"
expect_match $o "$f:1: stale: validated iter1/naive: run '$old' recorded neither its problem's code nor a commit: the code of the problem 'attention_fwd' it ran is unknown; rerun the experiment"
expect_match $o "$f:3: supported: validated iter1/hnaive: [0-9]+ run\(s\) of the current source passed every check"
expect_contains $o 'audit: 2 claims: 1 supported, 0 contradicted, 1 stale, 0 unsupported'
