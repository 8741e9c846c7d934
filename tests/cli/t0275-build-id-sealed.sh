# t0275 - red team 199 (tests/fixtures/adversary/host/redteam199/README.md):
# `-Wl,--build-id=uuid` (the linker allow list takes it) wrote 16 random
# bytes into a loaded note at every link, and the load hash zeroes build
# ids: one build key and one load hash, yet a kernel that read its id from
# its own ELF header ran 8 passes or 1 by its first byte (7 fresh builds:
# 6 slow, 1 fast; reproduce flipped 1 of 2; eval promoted 3 of 6 one-
# constant "mutations" at 4.3x).  Now every loaded build-id note is
# rewritten to the load hash before the object is hashed or run
# (base/elf.h elf_seal_build_ids), so two builds from nothing are the same
# file, and the id the kernel reads is the record's load hash.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing
command -v readelf >/dev/null 2>&1 || skip "readelf (binutils) is not installed"
mkrepo
S=tests/fixtures/specs/host-redteam199-buildid.yaml
for i in 1 2; do
	"$EVIDENT" run --no-progress --repeats 1 --cache "$TEST_TMP/c$i" $S > out$i 2>&1 ||
		fail "the spec's outcomes are not its expect: $(tail -5 out$i)"
	expect_match out$i '^b +ok '
done
# b's records: one binary in both builds, its load hash its build id
n=0
for r in $(grep -l '"variant": "b"' artifacts/runs/*.json | grep -v -- -batch.json); do
	bin=$(jget "$r" 'd["code"]["binary_sha256"]') load=$(jget "$r" 'd["code"]["load_sha256"]')
	[ $n -eq 0 ] && first=$bin
	expect_eq "$bin" "$first" "b's binary in fresh build $((n + 1))"
	n=$((n + 1))
done
expect_eq "$n" 2 "b's records"
for i in 1 2; do
	so=$(grep -l '"build_ids_sealed": 1' "$TEST_TMP/c$i"/*/info.json | xargs grep -l 'buildid.c' | sed 's#info.json$#kernel.so#')
	[ -f "$so" ] || fail "no sealed object of buildid.c in cache $i"
	id=$(readelf -n "$so" | awk '/Build ID/ { print $3 }')
	expect_eq "$id" "${load:0:32}" "the build id of cache $i's object (a uuid: 16 bytes of the load hash)"
done
# the echo twin is compared sealed too: under uuid an honest parametrised
# kernel lost its echo-neutral identity (red team 200, row 5: 2 of 2
# builds echo_neutral_failed; eval refused a 1.647x faster configuration)
"$EVIDENT" run --no-progress --repeats 1 --cache "$TEST_TMP/c3" tests/fixtures/specs/host-redteam200-echouuid.yaml > echo.out 2>&1 ||
	fail "the echo spec's outcomes are not its expect: $(tail -5 echo.out)"
for v in p1 p2; do
	r=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v -- -batch.json | head -1)
	[ -n "$r" ] || fail "no run of $v"
	e=$(jget "$r" 'd["code"].get("echo_neutral_sha256") or "none"')
	[ "$e" != none ] || fail "$v has no echo-neutral identity under -Wl,--build-id=uuid"
done
exit 0
