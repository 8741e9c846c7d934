# t0280 - red team 204 (tests/fixtures/adversary/host/redteam204/README.md):
# root writes the toolchain.  The build key named the compiler by its
# version and executable, the build box shows /usr, and the toolchain's
# files were in no hash: a header put in /usr/include (row 1) built two
# programs under one key and a cache hit served the old one; a shared
# library linked by -l from /usr/lib (row 4) changed between runs under
# one binary and one load hash, so `reproduce` said NOT reproduced and
# nothing named why.  Now every toolchain file the compiler, assembler and
# linker read and each system library the object loads is hashed into the
# build's toolchain manifest (code.compiler.toolchain), a cache hit whose
# manifest no longer holds builds afresh, and the loaded libraries join
# the code's identity; the search directories' names join the key.
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "it writes files into /usr, which every build's key lists"
[ "$(id -u)" = 0 ] || skip "it writes into /usr/include and /usr/lib: root only"
LIBDIR=$(gcc -print-multiarch 2>/dev/null)
LIBDIR=/usr/lib/${LIBDIR:-x86_64-linux-gnu}
[ -d "$LIBDIR" ] || skip "no $LIBDIR"
HDR=/usr/include/rt204_q7h.h
SO=$LIBDIR/librt204q7.so
[ ! -e "$HDR" ] && [ ! -e "$SO" ] || skip "$HDR or $SO is there already (not this test's)"
cleanup() { rm -f "$HDR" "$SO"; }
trap cleanup EXIT
mkrepo git specs/host-redteam204-usrinc.yaml specs/host-redteam204-usrso.yaml adversary/host/redteam204/usrinc.c adversary/host/redteam204/usrlib.c adversary/host/redteam204/honest.c
# u's record of the newest run: build key, load hash, binary, toolchain
last_u() {
	for r in $(ls -t artifacts/runs/*.json); do case $r in *-batch.json) continue ;; esac
		[ "$(jget "$r" 'd["variant"]')" = u ] || continue
		jget "$r" '" ".join([d["code"]["build_key"][:12], d["code"]["load_sha256"][:12], d["code"]["binary_sha256"][:12], d["code"]["compiler"]["toolchain"]["sha256"][:12]])'
		return
	done
}
# row 1: one key, the header's bytes in the toolchain manifest
echo '#define RT204_PASSES 8' > "$HDR"
"$EVIDENT" run --no-progress --repeats 1 --cache cache tests/fixtures/specs/host-redteam204-usrinc.yaml > r1.out 2>&1
A=$(last_u)
echo '#define RT204_PASSES 1' > "$HDR"
"$EVIDENT" run --no-progress --repeats 1 --cache cache tests/fixtures/specs/host-redteam204-usrinc.yaml > r2.out 2>&1
B=$(last_u)
echo "header 8: $A"
echo "header 1: $B"
[ -n "$A" ] && [ -n "$B" ] || fail "u did not run: $(tail -3 r1.out r2.out)"
set -- $A; A_KEY=$1 A_LOAD=$2 A_TC=$4
set -- $B; B_KEY=$1 B_LOAD=$2 B_TC=$4
[ "$A_LOAD" != "$B_LOAD" ] || fail "the header's two versions ran one object (the cache served the old one)"
[ "$A_TC" != "$B_TC" ] || fail "two programs under one toolchain manifest: the header's bytes are in no hash"
# row 4: one binary, the library's bytes in the manifest and the identity
cat > so.c <<'SRC'
int rt204_passes_lib(void) { return 8; }
SRC
gcc -O2 -fPIC -shared so.c -o "$SO" || fail "cannot build the library"
"$EVIDENT" run --no-progress --repeats 1 --cache cache tests/fixtures/specs/host-redteam204-usrso.yaml > r3.out 2>&1
C=$(last_u)
BATCH=$(ls -t artifacts/runs/*-batch.json | head -1)
BATCH=$(basename "$BATCH" .json)
sed -i 's/return 8/return 1/' so.c
gcc -O2 -fPIC -shared so.c -o "$SO.new" && mv "$SO.new" "$SO" || fail "cannot build the library"
"$EVIDENT" run --no-progress --repeats 1 --cache cache tests/fixtures/specs/host-redteam204-usrso.yaml > r4.out 2>&1
D=$(last_u)
echo "library 8: $C"
echo "library 1: $D"
[ -n "$C" ] && [ -n "$D" ] || fail "u did not run: $(tail -3 r3.out r4.out)"
set -- $C; C_BIN=$3 C_TC=$4
set -- $D; D_BIN=$3 D_TC=$4
[ "$C_BIN" = "$D_BIN" ] || fail "the library's change rebuilt another binary (expected one binary: the library is loaded, not linked in)"
[ "$C_TC" != "$D_TC" ] || fail "the library's two versions under one toolchain manifest"
grep -q "librt204q7.so" artifacts/runs/*.json || fail "no record names the library"
# reproduce of the first batch now says why it differs
"$EVIDENT" reproduce --cache cache "$BATCH" > rep.out 2>&1
grep -q "u: the same object, but the toolchain's files differ (1: '$SO'" rep.out || { cat rep.out; fail "reproduce did not name the library"; }
