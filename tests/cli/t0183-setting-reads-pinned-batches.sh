# t0183 - a `setting` claim without run= describes every batch the file's
# other claims of its experiment pin, not only the newest: red team 70's
# `setting key=timing.samples value=100` read supported by the newest
# batch while the file's results were pinned to a batch of 20 samples.
# Two batches of tiny (10 samples, then 12); a file that pins the first
# (a setting with run=) and states 12 without run= is contradicted, naming
# the pinned batch's runs; alone, the unpinned claim reads the newest and
# is supported.
. "$REPO/tests/cli/lib.sh"
runs_alone "its runs must end ok: an honest host kernel timed beside a loaded machine was escaped_work once (a fresh clone's make test, 2026-12-01, with a sanitized build beside it)"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
first=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
sed 's/samples: 10,/samples: 12,/' tests/fixtures/specs/tiny.yaml > experiments/tiny.yaml
grep -q 'samples: 12,' experiments/tiny.yaml || fail "sed tiny.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/tiny.yaml
[ -n "$first" ] || fail "no batch id"
printf 'Timed with 12 samples. <!-- claim: setting experiment=tiny key=timing.samples value=12 -->\n' > alone.md
expect_exit 0 "$EVIDENT" audit --no-untraced alone.md
expect_contains "$TEST_TMP/out" "alone.md:1: supported: setting tiny timing.samples=12: 2 run(s) recorded timing.samples=12"
{
	printf 'Timed with 12 samples. <!-- claim: setting experiment=tiny key=timing.samples value=12 -->\n'
	printf 'The first batch: <!-- claim: setting experiment=tiny key=timing.samples value=10 run=%s -->\n' "$first"
} > pinned.md
expect_exit 1 "$EVIDENT" audit --no-untraced pinned.md
expect_contains "$TEST_TMP/out" "pinned.md:1: contradicted: setting tiny timing.samples=12: 2 of 4 run(s) recorded another value: "
expect_contains "$TEST_TMP/out" "and the 1 other batch(es) this file's claims read)"
expect_contains "$TEST_TMP/out" "pinned.md:2: supported: setting tiny timing.samples=10"
