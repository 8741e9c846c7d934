# t0283 - red team 205 (tests/fixtures/adversary/host/redteam205/README.md,
# row 3): a shared library of /usr the kernel links (-lrt205q7) swapped by
# `mv` for another build mid-batch, after the kernel was built: the run
# box copied the new library at each run and every record still named the
# build's manifest (2 of 2 batches, ~2400 us then ~500 us).  Now a box
# whose copy of a system library the build recorded as loaded hashes
# otherwise fails (launch_failed, naming the library and both hashes).
. "$REPO/tests/cli/lib.sh"
runs_alone_machine "it writes a library into /usr/lib, which every build's key lists"
[ "$(id -u)" = 0 ] || skip "it writes into /usr/lib: root only"
LIBDIR=$(gcc -print-multiarch 2>/dev/null)
LIBDIR=/usr/lib/${LIBDIR:-x86_64-linux-gnu}
L=$LIBDIR/librt205q7.so
[ -d "$LIBDIR" ] && [ ! -e "$L" ] || skip "no $LIBDIR, or $L is there already (not this test's)"
cleanup() { rm -f "$L" "$L.tmp"; }
trap cleanup EXIT
mkrepo
printf 'int rt205_passes_lib(void){return 8;}\n' > so8.c
printf 'int rt205_passes_lib(void){return 1;}\n' > so1.c
gcc -O2 -fPIC -shared so8.c -o lib8.so && gcc -O2 -fPIC -shared so1.c -o lib1.so || fail "cannot build the libraries"
cp lib8.so "$L" || fail "cannot write $L"
"$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam205-midswap.yaml > out 2>&1 &
P=$!
# the swap once the first job has run (its run record is in)
for i in $(seq 1 300); do
	ls artifacts/runs/*.json >/dev/null 2>&1 && break
	sleep 0.1
done
cp lib1.so "$L.tmp" && mv "$L.tmp" "$L"
before=$(ls artifacts/runs/*.json 2>/dev/null | wc -l)
wait $P
after=$(ls artifacts/runs/*.json 2>/dev/null | grep -vc -- -batch.json)
[ "$after" -gt "$before" ] || skip "the batch ended before the swap ($before runs then, $after at the end)"
grep -q "is not the library the kernel's build recorded" out || {
	cat out; fail "$((after - before)) runs after the swap loaded the new library under the build's record"; }
expect_match out "box: '$L' is not the library the kernel's build recorded \(sha256 [0-9a-f]{12} then, [0-9a-f]{12} now\)"
