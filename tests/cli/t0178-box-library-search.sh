# a host box holds every library the loader could map, found by the
# loader's own rules, and nothing that is not a library (red team 55,
# tests/fixtures/adversary/host/redteam55/README.md): a library's own
# dependency found through the kernel's inherited DT_RPATH (rpath) and a
# directory named by $LIB (libtoken) load in the box (launch_failed
# before); a vendor library's glibc-hwcaps build is the one the box maps,
# as the host's loader does (the box held the portable build only and
# timed it); a kernel that needs a library by its own soname (the loader
# never opens it; the box copied a root-only core dump so named) fails
# its build, as does one that needs a name with a loader token; a
# relative runpath entry is the working directory's, and a root runner's
# build box shows no -I directory not for everyone to read (red team
# 57); a
# library only its owner may read is refused (a root
# runner copied a 0600 file); the loader's legacy tls/ build and a file
# that stops the host's loader count as they do there (red team 56); a
# library too large to copy into every box is refused with
# its size (a 1 GiB file was copied per box)
. "$REPO/tests/cli/lib.sh"
mkrepo
X=$TEST_TMP/ext
# (a root runner shows a box only libraries anyone may read: the test's
# own directory is its user's alone)
chmod 755 "$TEST_TMP" || fail "chmod"
F=$REPO/tests/fixtures/adversary/host/redteam55
mkdir -p "$X/rp" "$X/lib/lib/x86_64-linux-gnu" "$X/hw/glibc-hwcaps/x86-64-v3" "$X/core" "$X/big" "$X/own" || fail "mkdir"
cc -shared -fPIC -DRT55_B -Wl,-soname,librt55b.so -o "$X/rp/librt55b.so" "$F/libchain.c" &&
	cc -shared -fPIC -DRT55_A -Wl,-soname,librt55a.so -o "$X/rp/librt55a.so" "$F/libchain.c" -L"$X/rp" -lrt55b &&
	cc -shared -fPIC -DRT55_ONE -Wl,-soname,librt55one.so -o "$X/lib/lib/x86_64-linux-gnu/librt55one.so" "$F/libchain.c" &&
	cc -O2 -shared -fPIC -DRT55_SAY -Wl,-soname,librt55hw.so -o "$X/hw/librt55hw.so" "$F/libhw.c" &&
	cc -O2 -shared -fPIC -DRT55_SAY -DRT55_V3 -Wl,-soname,librt55hw.so \
		-o "$X/hw/glibc-hwcaps/x86-64-v3/librt55hw.so" "$F/libhw.c" &&
	cc -shared -fPIC -Wl,-soname,core -o "$X/core/libstub.so" "$F/stub.c" &&
	cc -shared -fPIC -Wl,-soname,libbig.so -o "$X/big/libbig.so" "$F/stub.c" &&
	cc -shared -fPIC -Wl,-soname,librt55own.so -o "$X/own/librt55own.so" "$F/stub.c" || fail "building the libraries"
chmod 600 "$X/own/librt55own.so" || fail "chmod"
truncate -s 800M "$X/big/libbig.so" || fail "truncate"
# legacy hwcaps (glibc before 2.37 searches DIR/tls before DIR): the fast
# build in tls/, the portable one in the directory (red team 56's legacy)
G=$REPO/tests/fixtures/adversary/host/redteam56
mkdir -p "$X/leg/tls" "$X/ne1" "$X/ne2" || fail "mkdir"
cc -O2 -shared -fPIC -Wl,-soname,librt56leg.so -o "$X/leg/librt56leg.so" "$G/liblegacy.c" &&
	cc -O2 -DRT56_FAST -shared -fPIC -Wl,-soname,librt56leg.so -o "$X/leg/tls/librt56leg.so" "$G/liblegacy.c" &&
	cp "$X/leg/librt56leg.so" "$X/ne2/" || fail "building the legacy libraries"
# a relative runpath entry is the working directory's, as the loader
# takes it: the portable build there, the fast one in a later absolute
# directory (red team 57's relcheat: the box left the relative entry out
# and mapped the fast build, 5.77x "faster"; outside 1.036x)
mkdir -p rel "$X/fast" || fail "mkdir"
cc -O2 -shared -fPIC -Wl,-soname,librt56leg.so -o rel/librt56leg.so "$G/liblegacy.c" &&
	cc -O2 -DRT56_FAST -shared -fPIC -Wl,-soname,librt56leg.so -o "$X/fast/librt56leg.so" "$G/liblegacy.c" ||
	fail "building the relative-path libraries"
# a name with a token the loader expands (red team 57's dstneeded)
mkdir -p "$X/dst" && cc -shared -fPIC '-Wl,-soname,librt57${PLATFORM}.so' -o "$X/dst/librt57dst.so" "$F/stub.c" ||
	fail "building the token stub"
# a linker script first on the path, the library second: the host's
# loader stops at the script (red team 56's notelf)
echo 'INPUT(-lm)' > "$X/ne1/librt56leg.so"
spec() { # NAME FLAGS VARIANT KERNEL
	cat > "$1.yaml" <<S
name: t0178-$1
question: Does the box hold what the loader maps?
problem: rowsum
backend: host
shape: {R: 128, C: 1024}
baseline: naive
flags: [$2]
variants:
  naive: {kernel: kernels/rowsum/naive.c}
  $3: {kernel: $4}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 6, cache: hot}
limits: {timeout_s: 60}
repeats: 1
S
}
R55=tests/fixtures/adversary/host/redteam55
spec rpath "\"-Wl,--no-as-needed\", \"-L$X/rp\", \"-lrt55a\", \"-Wl,--disable-new-dtags\", \"-Wl,-rpath,$X/rp\"" chain $R55/rpath_chain.c
spec libtoken "\"-Wl,--no-as-needed\", \"-L$X/lib/lib/x86_64-linux-gnu\", \"-lrt55one\", \"-Wl,-rpath,$X/lib/\$LIB\"" chain $R55/rpath_chain.c
spec hwcaps "\"-Wl,--no-as-needed\", \"-L$X/hw\", \"-lrt55hw\", \"-Wl,-rpath,$X/hw\"" vendor $R55/vendor_hw.c
spec core "\"-Wl,-soname,core\", \"-Wl,--no-as-needed\", \"-L$X/core\", \"-lstub\", \"-Wl,-rpath,$X/core\"" probe $R55/core_file.c
spec own "\"-Wl,--no-as-needed\", \"-L$X/own\", \"-lrt55own\", \"-Wl,-rpath,$X/own\"" probe kernels/rowsum/naive.c
spec legacy "\"-Wl,--no-as-needed\", \"-L$X/leg\", \"-lrt56leg\", \"-Wl,-rpath,$X/leg\"" vendor tests/fixtures/adversary/host/redteam56/vendor_legacy.c
spec notelf "\"-Wl,--no-as-needed\", \"-L$X/ne2\", \"-lrt56leg\", \"-Wl,-rpath,$X/ne1:$X/ne2\"" vendor tests/fixtures/adversary/host/redteam56/vendor_legacy.c
spec relpath "\"-Wl,--no-as-needed\", \"-L$X/fast\", \"-lrt56leg\", \"-Wl,-rpath,rel:$X/fast\"" vendor tests/fixtures/adversary/host/redteam56/vendor_legacy.c
spec dst "\"-Wl,--no-as-needed\", \"-L$X/dst\", \"-lrt57dst\"" probe kernels/rowsum/naive.c
# (one variant: each variant's build copies the 800 MiB library once, the
# box's refusal needs only one)
cat > big.yaml <<S
name: t0178-big
question: Does the box hold what the loader maps?
problem: rowsum
backend: host
shape: {R: 128, C: 1024}
flags: ["-Wl,--no-as-needed", "-L$X/big", "-lbig", "-Wl,-rpath,$X/big"]
variants:
  probe: {kernel: kernels/rowsum/naive.c}
correctness: {seeds: 1, seed: 1}
timing: {warmup_ms: 0, samples: 6, cache: hot}
limits: {timeout_s: 60}
repeats: 1
S
for s in rpath libtoken; do
	expect_exit 0 "$EVIDENT" run --no-progress $s.yaml
	expect_match "$TEST_TMP/out" "^chain +ok "
done
expect_exit 0 "$EVIDENT" run --no-progress hwcaps.yaml
expect_match "$TEST_TMP/out" "^vendor +ok "
r=$(grep -l '"variant": "vendor"' artifacts/runs/*.json | xargs grep -L '"kind": "batch"' | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > log.txt 2>&1 || fail "show --log"
if /lib64/ld-linux-x86-64.so.2 --help 2>/dev/null | grep -q "x86-64-v3 (supported, searched)"; then
	expect_contains log.txt "rt55hw: the x86-64-v3 build"
	grep -q "rt55hw: the portable build" log.txt && fail "the box mapped the portable build where the host's loader maps the x86-64-v3 one"
else
	echo "(this CPU is not x86-64-v3: the portable build is the loader's choice)"
	expect_contains log.txt "rt55hw: the portable build"
fi
expect_exit 1 "$EVIDENT" run --no-progress core.yaml
expect_match "$TEST_TMP/out" "^probe +build_failed "
expect_contains "$TEST_TMP/out" "probe: build_failed - 'build/cache/"
expect_contains "$TEST_TMP/out" "needs a library by its own soname ('core')"
# a file only its owner reads is no library a root runner's box shows (a
# core dump, a key), and the host's loader would have mapped it: refused,
# as the variant's outcome, naming the file (since red team 100, before
# the compile: the build box shows a library only where anyone may read it)
expect_exit 1 "$EVIDENT" run --no-progress own.yaml
expect_match "$TEST_TMP/out" "^probe +(launch_failed|build_failed) "
expect_contains "$TEST_TMP/out" "own/librt55own.so' is not for everyone to read"
expect_exit 1 "$EVIDENT" run --no-progress big.yaml
expect_match "$TEST_TMP/out" "^probe +build_failed " # refused at the build's copy, before it is read (a launch_failed at the box before 2026-12-01)
expect_contains "$TEST_TMP/out" "libbig.so' is over 768 MiB"
# the loader's own order, legacy subdirectories included: the tls/ build
# where this loader searches tls/, the portable one where it does not
expect_exit 0 "$EVIDENT" run --no-progress legacy.yaml
r=$(grep -l '"experiment": "t0178-legacy"' artifacts/runs/*.json | xargs grep -l '"variant": "vendor"' |
	xargs grep -L '"kind": "batch"' | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > log.txt 2>&1 || fail "show --log"
if LD_DEBUG=libs LD_LIBRARY_PATH=/nonexistent-t0178 /bin/true 2>&1 | grep -q "/nonexistent-t0178/tls:"; then
	expect_contains log.txt "rt56legacy: the fast build"
else
	expect_contains log.txt "rt56legacy: the portable build"
fi
# where the host's loader stops (a linker script first on the path), the
# box does not go on to a later file
expect_exit 1 "$EVIDENT" run --no-progress notelf.yaml
expect_match "$TEST_TMP/out" "^vendor +launch_failed "
expect_contains "$TEST_TMP/out" "ne1/librt56leg.so' is not a shared object"
expect_exit 0 "$EVIDENT" run --no-progress relpath.yaml
r=$(grep -l '"experiment": "t0178-relpath"' artifacts/runs/*.json | xargs grep -l '"variant": "vendor"' |
	xargs grep -L '"kind": "batch"' | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > log.txt 2>&1 || fail "show --log"
expect_contains log.txt "rt56legacy: the portable build"
if grep -q "rt56legacy: the fast build" log.txt; then
	fail "the box left out the relative runpath entry the loader takes"
fi
expect_exit 1 "$EVIDENT" run --no-progress dst.yaml
expect_match "$TEST_TMP/out" "^probe +build_failed "
expect_contains "$TEST_TMP/out" "needs a library by a name the loader expands"
# a root runner's build box shows a spec's -I directory outside the
# repository only when anyone may read it (red team 57's include_leak: a
# 0600 header in a 0700 directory quoted into the stored build log)
if [ "$(id -u)" = 0 ]; then
	mkdir -m 700 "$X/priv" && echo 'T0178_SECRET=token-t0178' > "$X/priv/secret.h" && chmod 600 "$X/priv/secret.h" ||
		fail "the private header"
	spec incleak "\"-I$X/priv\"" leak tests/fixtures/adversary/host/redteam57/include_leak.c
	expect_exit 1 "$EVIDENT" run --no-progress incleak.yaml
	expect_match "$TEST_TMP/out" "^leak +build_failed "
	r=$(grep -l '"experiment": "t0178-incleak"' artifacts/runs/*.json | xargs grep -l '"variant": "leak"' |
		xargs grep -L '"kind": "batch"' | head -1)
	"$EVIDENT" show --log "$(basename "$r" .json)" > log.txt 2>&1 || fail "show --log"
	if grep -q "token-t0178" log.txt; then fail "a root-only header reached the build log"; fi
fi
