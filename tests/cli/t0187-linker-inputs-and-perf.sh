# t0187 - what the linker reads is the kernel's code, and a host box has no
# perf events (red team 77).  Before: a static archive found through a
# spec's -L directory outside the repository (only libX.a there) was in
# no record, so changing it kept one build key and one code identity (the
# cache served the old object; eval held 18 of 18 honest faster
# candidates by the fast batch); a gcc response file (`@file`) carried
# flags no refusal saw (-B: the build box ran an `as` of its own); and
# perf_event_open's event id, one counter of the host's, gave a kernel an
# exact count of its own runs.  Now the archive joins the sources with its
# hash (a change rebuilds), `@file` is refused before compiling, and
# perf_event_open fails in a host box.  Since the flags are taken by allow
# list (build_flags.c), what no deny list named is refused as well, a text
# linker script among the linker's inputs fails the build, and the
# compiler runs with PATH and the locale of the runner's environment only.
. "$REPO/tests/cli/lib.sh"
mkrepo
command -v cc >/dev/null && command -v ar >/dev/null || skip "no cc or ar"
mkdir -p "$TEST_TMP/lib"
chmod 755 "$TEST_TMP" "$TEST_TMP/lib"
d=tests/fixtures/adversary/host/redteam77
build_archive() {
	cc -c -O2 -fPIC -DPASSES=$1 -o "$TEST_TMP/lib/rt77.o" $d/rt77lib.c && ar rcs "$TEST_TMP/lib/librt77pass.a" "$TEST_TMP/lib/rt77.o" &&
		chmod 644 "$TEST_TMP/lib/librt77pass.a" || fail "cannot build the archive"
}
build_archive 1
sed -e "s|/tmp/rt77lib|$TEST_TMP/lib|" -e 's/samples: 200/samples: 5/' -e 's/^repeats: 3/repeats: 1/' \
	tests/fixtures/specs/host-redteam77-arcpass.yaml > experiments/arc.yaml
grep -q "$TEST_TMP/lib" experiments/arc.yaml || fail "sed arcpass.yaml"
expect_exit 0 "$EVIDENT" run --no-progress experiments/arc.yaml
build_archive 3
expect_exit 0 "$EVIDENT" run --no-progress experiments/arc.yaml
python3 - "$TEST_TMP/lib/librt77pass.a" artifacts/runs/*.json <<'PY' || fail "the archive is not the kernel's code"
import json, os, sys
lib = os.path.realpath(sys.argv[1])
runs = sorted((json.load(open(p)) for p in sys.argv[2:]), key=lambda r: r["run_id"])
runs = [r for r in runs if r.get("kind") != "batch"]
assert len(runs) == 2, len(runs)
shas = []
for r in runs:
    src = {s["path"]: s["sha256"] for s in r["code"]["sources"]}
    assert lib in src, ("archive not in the sources", sorted(src))
    shas.append(src[lib])
assert shas[0] != shas[1], "the archive's hash did not change"
assert runs[0]["code"]["binary_sha256"] != runs[1]["code"]["binary_sha256"], "the cache served the first object"
PY
# a response file is refused before compiling, naming the flag
printf -- '-O2\n' > "$TEST_TMP/lib/opts"
chmod 644 "$TEST_TMP/lib/opts"
sed "s|^flags: .*|flags: [\"@$TEST_TMP/lib/opts\"]|" experiments/arc.yaml > experiments/rsp.yaml
sed -i 's/^name: .*/name: rsp/' experiments/rsp.yaml
"$EVIDENT" run --no-progress experiments/rsp.yaml > rsp.out 2>&1
grep -qE "^ref +build_failed " rsp.out && grep -q "a file of flags or a linker script" rsp.out ||
	{ cat rsp.out; fail "the response file was not refused"; }
# a profile the compiler would read (red team 78: -fprofile-use with
# -dumpdir in a flag directory, one key for two binaries) is refused
sed "s|^flags: .*|flags: [-fprofile-use, \"-dumpdir\", \"$TEST_TMP/lib/\"]|" experiments/arc.yaml > experiments/prof.yaml
sed -i 's/^name: .*/name: prof/' experiments/prof.yaml
"$EVIDENT" run --no-progress experiments/prof.yaml > prof.out 2>&1
grep -qE "^ref +build_failed " prof.out && grep -q "the flag '-fprofile-use'" prof.out ||
	{ cat prof.out; fail "-fprofile-use was not refused"; }
# the spec's flags are taken by allow list (build_flags.c): the forms no
# deny list named are refused before compiling too, each named (a version
# script, a forced include outside the repository, an assembler
# pass-through, a sanitizer's ignore list, -Wno-date-time undoing the
# build's -Werror=date-time)
i=0
for c in '"-Wl,--version-script=/tmp/v"|--version-script=/tmp/v' '-imacros, /etc/hostname|/etc/hostname' \
	'"-Wa,-I/tmp"|-Wa,-I/tmp' '"-fsanitize-ignorelist=/tmp/l"|-fsanitize-ignorelist=/tmp/l' '-Wno-date-time|-Wno-date-time'; do
	i=$((i + 1))
	f=${c%%|*}
	sed -e "s#^flags: .*#flags: [$f]#" -e "s/^name: .*/name: allow$i/" experiments/arc.yaml > experiments/allow$i.yaml
	"$EVIDENT" run --no-progress experiments/allow$i.yaml > allow$i.out 2>&1
	grep -qE "^ref +build_failed " allow$i.out && grep -qF "the flag '${c#*|}'" allow$i.out &&
		grep -q "src/backends/build_flags.c" allow$i.out || { cat allow$i.out; fail "[$f] was not refused by name"; }
done
# a linker input in a flag directory that is a text linker script (it
# names other files for the linker to read) fails the build
printf 'GROUP ( AS_NEEDED ( -lm ) )\n' > "$TEST_TMP/lib/libscr.so"
chmod 644 "$TEST_TMP/lib/libscr.so"
sed -e "s|^flags: .*|flags: [-L$TEST_TMP/lib, -lscr]|" -e 's/^name: .*/name: script/' experiments/arc.yaml > experiments/script.yaml
"$EVIDENT" run --no-progress experiments/script.yaml > script.out 2>&1
grep -qE "^ref +build_failed " script.out && grep -q "no ELF object or archive" script.out ||
	{ cat script.out; fail "the linker script was not refused"; }
# the compiler's environment is PATH and the locale: COMPILER_PATH naming
# a directory whose `as` fails changes nothing (a new key: -DENVTEST)
mkdir -p "$TEST_TMP/badas"
printf '#!/bin/sh\necho evil as >&2\nexit 1\n' > "$TEST_TMP/badas/as"
chmod 755 "$TEST_TMP/badas" "$TEST_TMP/badas/as"
sed -e "s|^flags: .*|flags: [-L$TEST_TMP/lib, \"-Wl,--whole-archive\", -lrt77pass, \"-Wl,--no-whole-archive\", -DENVTEST, -I$TEST_TMP/badas]|" \
	-e 's/^name: .*/name: envtest/' experiments/arc.yaml > experiments/envtest.yaml
COMPILER_PATH=$TEST_TMP/badas GCC_EXEC_PREFIX=$TEST_TMP/badas/ "$EVIDENT" run --no-progress experiments/envtest.yaml > env.out 2>&1
grep -qE "^ref +ok " env.out || { cat env.out; fail "the build read the runner's COMPILER_PATH or GCC_EXEC_PREFIX"; }
# perf_event_open in a host box: refused (the fixture logs its fd, -1)
sed -e 's/^repeats: 8/repeats: 1/' -e 's/samples: 30/samples: 3/' tests/fixtures/specs/host-redteam77-perfid.yaml > experiments/perf.yaml
expect_exit 0 "$EVIDENT" run --no-progress --only count experiments/perf.yaml
# count's record (the batch's order is its own draw: the baseline may run first)
run=$(grep -l '"variant": "count"' artifacts/runs/*-host-redteam77-perfid-*.json | grep -v -- -batch | head -1)
run=$(basename "$run" .json)
"$EVIDENT" show --log "$run" > perf.log 2>&1
grep -q "perf_id: fd -1 " perf.log || { cat perf.log; fail "perf_event_open opened an event in a host box"; }
