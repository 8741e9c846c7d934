# a second run with nothing changed recompiles nothing and adds records without touching the old ones
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject is the build cache: the first run builds, the second does not"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
(cd artifacts && find runs objects -type f | sort | xargs sha256sum) > "$TEST_TMP/before"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml
(cd artifacts && sha256sum -c --quiet "$TEST_TMP/before") || fail "an old record or object changed"
[ "$(ls artifacts/runs | wc -l)" = 6 ] || fail "expected 6 manifests"
n=0
for f in artifacts/runs/*.json; do
	[ "$(jget "$f" "d.get('kind')")" = variant ] || continue
	n=$((n + 1))
done
[ $n = 4 ] || fail "expected 4 variant records, got $n"
# the newest two variant records were cache hits
hits=$(for f in $(ls artifacts/runs/*.json | sort | tail -3); do jget "$f" "d.get('build',{}).get('cached')"; done | grep -c True)
[ "$hits" = 2 ] || fail "expected 2 cached builds in the second run, got $hits"
# records are read-only
for f in artifacts/runs/*.json; do [ -w "$f" ] && [ "$(id -u)" != 0 ] && fail "$f is writable"; done
[ "$(stat -c %a "$(ls artifacts/runs/*.json | head -1)")" = 444 ] || fail "manifest mode is not 0444"
