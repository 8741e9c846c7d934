# outside a git repository the run still works and the record says so
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
f=$(ls artifacts/runs/*.json | head -1)
expect_eq "$(jget $f "d['code']['git']['is_repo']")" False
