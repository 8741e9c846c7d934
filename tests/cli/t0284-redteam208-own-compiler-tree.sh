# t0284 - red team 208 (tests/fixtures/adversary/host/redteam208/README.md,
# row 1; no root): a user-owned copy of gcc's driver first on PATH runs the
# cc1 beside it, a wrapper adding -DRT208_PASSES=8 or =1 rewritten in place;
# the key named the driver's bytes and the programs directory's names, not
# cc1's, so one key and one manifest built two programs (1.24x-1.60x) and a
# stale hit served the fast one.  Now the compiler proper (cc1, cc1plus,
# lto1, lto-wrapper) is hashed into the key where it lies outside the
# system's directories: the two cc1s are two keys.
. "$REPO/tests/cli/lib.sh"
G=$(gcc -print-prog-name=cc1 2>/dev/null)
[ -x "$G" ] || skip "gcc's cc1 is not found"
GCC=$(command -v gcc)
GCC=$(readlink -f "$GCC")
case "$(gcc --version 2>/dev/null | head -1)" in *clang*) skip "gcc is clang here" ;; esac
mkrepo
# the driver's install directory, as the system's but cc1 (the driver
# looks for its programs relative to where it lies: PREFIX/lib/gcc/...)
V=$(dirname "$G")
T=$TEST_TMP/tc
REL=${V#/usr/}
mkdir -p "$T/bin" "$T/$REL" || fail "mkdir"
cp "$GCC" "$T/bin/cc" || fail "cp gcc"
for f in "$V"/*; do b=$(basename "$f"); [ "$b" = cc1 ] || ln -s "$f" "$T/$REL/$b"; done
keys() {
	printf '#!/bin/sh\nexec %s -DRT208_PASSES=%s "$@"\n' "$G" "$1" > "$T/$REL/cc1"
	chmod +x "$T/$REL/cc1"
	rm -rf "$TEST_TMP/s$1"
	PATH="$T/bin:$PATH" EVIDENT_STORE="$TEST_TMP/s$1" "$EVIDENT" run --no-progress --repeats 1 --cache "$TEST_TMP/cache" \
		tests/fixtures/specs/host-redteam208-cc1.yaml > "$TEST_TMP/out$1" 2>&1
	for r in "$TEST_TMP/s$1"/runs/*.json; do case $r in *-batch.json) continue ;; esac
		[ "$(jget "$r" 'd["variant"]')" = u ] && jget "$r" 'd["code"]["build_key"]' && return; done
}
A=$(keys 8)
B=$(keys 1)
[ -n "$A" ] && [ -n "$B" ] || fail "u did not run: $(tail -3 "$TEST_TMP/out8" "$TEST_TMP/out1")"
[ "$A" != "$B" ] || fail "two cc1s built under one key ($A)"
