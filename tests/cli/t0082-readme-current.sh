# README.md says what the code says: its spec reference, outcomes and exit
# code tables are, byte for byte, the output of the `evident help` command
# named in their `<!-- generated: ... -->` markers (a changed knob,
# outcome or exit code without a regenerated README fails here; a README
# edited inside a block fails too); the YAML example of its spec reference
# is a spec evident accepts; and notebooks-export/, which README says is
# git-ignored derived output, is.
. "$REPO/tests/cli/lib.sh"
readme=$REPO/README.md
gen=$REPO/scripts/readme-generated.sh
for cmd in "evident help spec --markdown" "evident help outcomes --markdown" "evident help exit-codes --markdown"; do
	[ "$(grep -cxF -- "<!-- generated: $cmd -->" "$readme")" = 1 ] || fail "README.md lacks one '<!-- generated: $cmd -->' block"
done
expect_exit 0 "$gen" --check "$EVIDENT" "$readme"

# the check sees a block that differs, names the fix, and changes nothing
cp "$readme" "$TEST_TMP/R.md" || fail "copy README"
sed -i 's/^| `timing.samples` | integer 0\.\.10000000 | 100 |/| `timing.samples` | integer 0..10000000 | 50 |/' "$TEST_TMP/R.md"
cmp -s "$readme" "$TEST_TMP/R.md" && fail "README's spec block has no timing.samples row to alter"
cp "$TEST_TMP/R.md" "$TEST_TMP/R.before"
expect_exit 1 "$gen" --check "$EVIDENT" "$TEST_TMP/R.md"
expect_contains "$TEST_TMP/err" "a generated block differs from what evident prints; run 'scripts/readme-generated.sh"
expect_contains "$TEST_TMP/err" '-| `timing.samples` | integer 0..10000000 | 50 |'
cmp -s "$TEST_TMP/R.md" "$TEST_TMP/R.before" || fail "--check changed the file"
# rewriting restores the generated text and leaves the rest alone
expect_exit 0 "$gen" "$EVIDENT" "$TEST_TMP/R.md"
cmp -s "$TEST_TMP/R.md" "$readme" || fail "rewriting did not give README.md back"
# a block without its closing line is an error at its line
awk '!/^<!-- \/generated -->$/ || done++' "$readme" >"$TEST_TMP/R2.md"
line=$(grep -nxF -- "<!-- generated: evident help exit-codes --markdown -->" "$TEST_TMP/R2.md" | cut -d: -f1)
expect_exit 1 "$gen" --check "$EVIDENT" "$TEST_TMP/R2.md"
expect_contains "$TEST_TMP/err" "R2.md:$line: the generated block has no closing '<!-- /generated -->' line"

# the spec example of README is accepted, every key of it
mkrepo
sed -n '/^## Spec reference$/,/^## /p' "$readme" | sed -n '/^```yaml$/,/^```$/p' | sed '1d;$d' >experiments/readme.yaml
[ -s experiments/readme.yaml ] || fail "README's spec reference has no yaml example"
expect_exit 0 "$EVIDENT" run --dry-run experiments/readme.yaml
expect_contains "$TEST_TMP/out" "spec experiments/readme.yaml is valid"

# notebooks-export/ is git-ignored, as README says
expect_contains "$readme" "notebooks-export/\`, git-ignored"
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$REPO" check-ignore -q notebooks-export/summaries.csv || fail "notebooks-export/ is not git-ignored"
else
	echo "git-ignore part skipped: $REPO is not a git work tree"
fi
