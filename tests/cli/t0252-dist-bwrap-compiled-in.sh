# t0252: a dist's bubblewrap is verified by the hash compiled into the
# runner, not by a file beside it (red teams 134 and 135's fakedist: this
# runner copied beside a stand-in for bubblewrap and the stand-in's hash
# in share/evident/bwrap.sha256 made every box with the stand-in, and the
# records said "verified": slow.c 2.802x faster, a decoy box 6.534x, a
# preload shim 3.067x, each supported by the audit).  Now the hand-made
# dist is refused before the stand-in runs, and a dist whose bin/bwrap is
# the Debian package's patched as make dist patches it (the bytes
# scripts/bwrap-known.sh hashed) is accepted, its records verified; a
# library of its own in the dist's lib/ that bwrap would load is refused.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v patchelf >/dev/null 2>&1 || skip "patchelf is not installed"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
runner=$(dirname "$EVIDENT")
[ -x "$runner/evident-worker" ] || skip "no evident-worker beside $EVIDENT"
mkrepo
S=tests/fixtures/specs/tiny.yaml
# dist DIR BWRAP: this runner copied into DIR/bin beside BWRAP as bin/bwrap,
# its hash in DIR/share/evident/bwrap.sha256 (as make dist writes it)
dist() {
	mkdir -p "$1/bin" "$1/share/evident" && cp "$EVIDENT" "$runner/evident-worker" "$1/bin/" &&
		cp "$2" "$1/bin/bwrap" && chmod +x "$1/bin/bwrap" &&
		(cd "$1" && sha256sum bin/bwrap) >"$1/share/evident/bwrap.sha256" || fail "dist $1"
}
printf '#!/bin/sh\necho ran >>"%s"\nexec /usr/bin/bwrap "$@"\n' "$TEST_TMP/ran" >"$TEST_TMP/standin"
dist "$TEST_TMP/fake" "$TEST_TMP/standin"
expect_exit 3 "$TEST_TMP/fake/bin/evident" run --no-progress --store fake "$S"
expect_contains "$TEST_TMP/err" "the dist's bin/bwrap (SHA-256 "
expect_contains "$TEST_TMP/err" "is not the bubblewrap this runner was built to accept"
[ ! -e "$TEST_TMP/ran" ] || fail "the stand-in ran before it was refused"
[ -z "$(ls fake/runs 2>/dev/null)" ] || fail "runs were recorded with the stand-in"
# the Debian package's, patched as make dist patches it: accepted
cp /usr/bin/bwrap "$TEST_TMP/bwrap-patched" && chmod u+w "$TEST_TMP/bwrap-patched" &&
	patchelf --set-rpath '$ORIGIN/../lib' "$TEST_TMP/bwrap-patched" || fail "patchelf"
dist "$TEST_TMP/real" "$TEST_TMP/bwrap-patched"
expect_exit 0 "$TEST_TMP/real/bin/evident" run --no-progress --store real "$S"
python3 - real/runs/*.json <<'PY' || fail "a record of the dist's bubblewrap is not verified by the compiled-in hash"
import json, sys
n = 0
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    v = json.load(open(f))["judge"]["sandbox"]["binary_verified"]
    assert isinstance(v, str) and "compiled into this runner" in v, v
    n += 1
assert n > 0
PY
# the same dist with a libselinux.so.1 of its own in lib/ (red team 137's
# libdist: the verified bwrap's RUNPATH took it from there, and its hook
# exec'd a stand-in): refused, whatever the library does
lib=$(ldd /usr/bin/bwrap | awk '$1 == "libselinux.so.1" { print $3 }')
if [ -n "$lib" ]; then
	mkdir -p "$TEST_TMP/real/lib" && cp -L "$lib" "$TEST_TMP/real/lib/libselinux.so.1" &&
		printf 'x' >>"$TEST_TMP/real/lib/libselinux.so.1" || fail "a library of its own"
	expect_exit 3 "$TEST_TMP/real/bin/evident" run --no-progress --store real2 "$S"
	expect_contains "$TEST_TMP/err" "/../lib/libselinux.so.1, which its bin/bwrap loads, is not the library this runner was built to accept"
	[ -z "$(ls real2/runs 2>/dev/null)" ] || fail "runs were recorded beside the changed library"
fi
exit 0
