# t0300 - red team 229 (tests/fixtures/adversary/host/redteam229/
# README.md): four holes in the refuted and drift rules.
# 1. A spec's tolerance 0.1% tighter than the problem's in one field
#    (atol) made every run of it "judged tighter", never a refutation,
#    however far its errors were from the problem's own rule: a cheat
#    100x over softmax's rel L2 at nice 19 was promoted 4 of 4.  Now a
#    failed check's recorded errors are judged by the problem's rule too.
# 3. A wrong run under `cache: cold` held no `cache: hot` eval (the match
#    asked the same timing): promoted 3 of 3.  Now by the object.
# 2, 4. A third party's libm.so.6 on his LD_LIBRARY_PATH (the box keeps
#    the variable, and the loader maps his library for the honest object)
#    made an honest challenger wrong_output (held for good, 10 of 10) or
#    slow (read as its drift, 8 of 8).  Now such a runner's records say
#    which libraries shadowed the system's
#    (judge.sandbox.shadowed_libraries) and are a weaker judge: no
#    refutation, no drift, as `--unsandboxed` runs.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v gcc >/dev/null 2>&1 || skip "gcc is not installed"
[ "$(nice)" -lt 19 ] || skip "the test runs at nice 19, where nicewrong.c is always wrong"
mkrepo
D=tests/fixtures/adversary/host/redteam229
SP=tests/fixtures/specs
answer() { # answer FILE: promoted, candidate_refuted's outcome, candidate_drift held; then the decision
	python3 -S - "$1" <<'P'
import json, sys
a = json.load(open(sys.argv[1]))
r = a.get("candidate_refuted") or {}
d = a.get("candidate_drift") or {}
print(a.get("promoted"), r.get("outcome"), d.get("held"))
print(a.get("decision"))
P
}
nw='{"kernel": "'$D'/nicewrong.c"}'
# 1: the nice-19 eval under the hair-tighter tolerance, then one at ours
export EVIDENT_STORE="$TEST_TMP/s1"
echo "$nw" | nice -n 19 "$EVIDENT" eval --no-progress $SP/host-redteam229-tolwrong.yaml > a0.json 2> a0.err || true
grep -lq '"outcome": "wrong_output"' "$EVIDENT_STORE"/runs/*.json 2>/dev/null || { cat a0.err; fail "the nice-19 eval recorded no wrong_output run"; }
echo "$nw" | "$EVIDENT" eval --no-progress $SP/host-redteam229-tolwrong.yaml > a1.json 2> a1.err || true
answer a1.json > said || fail "reading the answer: $(cat said a1.err)"
read -r promoted outcome held < said
expect_eq "$promoted" False "row 1: $(sed -n 2p said)"
expect_eq "$outcome" wrong_output "row 1, candidate_refuted: $(sed -n 2p said)"
# 3: a wrong run timed cold, an eval timed hot
export EVIDENT_STORE="$TEST_TMP/s3"
nice -n 19 "$EVIDENT" run --no-progress $SP/host-redteam229-cold.yaml > c.out 2>&1
expect_match c.out "^nw +wrong_output"
echo "$nw" | "$EVIDENT" eval --no-progress $SP/host-redteam229-hot.yaml > a3.json 2> a3.err || true
answer a3.json > said || fail "reading the answer: $(cat said a3.err)"
read -r promoted outcome held < said
expect_eq "$promoted" False "row 3: $(sed -n 2p said)"
expect_eq "$outcome" wrong_output "row 3, candidate_refuted: $(sed -n 2p said)"
# 2 and 4: a third party's libm on LD_LIBRARY_PATH, wrong (2) or slow (4)
L=$TEST_TMP/lib
mkdir -p "$L"
echo 'double exp(double x){return x;}' > "$L/stub.c"
printf 'GLIBC_2.29 { global: exp; local: *; };\n' > "$L/stub.map"
gcc -shared -fPIC -o "$L/libmstub.so" "$L/stub.c" -Wl,-soname,/usr/lib/x86_64-linux-gnu/libm.so.6 \
	-Wl,--version-script="$L/stub.map" || skip "cannot build the stub libm"
# row 2's libm in the deepest subdirectory the loader tries (red team
# 236: glibc 2.36's legacy tls/haswell/avx512_1/x86_64, four levels
# down, escaped a walk three deep; "" where the loader names none)
deep=$(LD_DEBUG=libs LD_LIBRARY_PATH=/nonexistent-evident-t0300 /bin/true 2>&1 |
	sed -n 's/.*search path=\(.*\)(LD_LIBRARY_PATH).*/\1/p' | head -1 | tr ':' '\n' |
	sed -n 's|^/nonexistent-evident-t0300/||p' | tr -d ' \t' | awk -F/ '{print NF, $0}' | sort -n | tail -1 | cut -d' ' -f2-)
echo "row 2's libm in $L/2/$deep"
for row in 2:fakelibm.c 4:slowlibm.c; do
	n=${row%%:*} src=${row#*:} sub=
	[ "$n" = 2 ] && sub=${deep:+/$deep}
	mkdir -p "$L/$n$sub"
	gcc -O2 -shared -fPIC -o "$L/$n$sub/libm.so.6" $D/$src -Wl,-soname,libm.so.6 -Wl,--version-script=$D/fakelibm.map \
		"$L/libmstub.so" || fail "cannot build $src"
	export EVIDENT_STORE="$TEST_TMP/s$n"
	env LD_LIBRARY_PATH="$L/$n" nice -n 19 "$EVIDENT" run --no-progress $SP/host-redteam229-chal.yaml > side$n.out 2>&1
	r=$(ls "$EVIDENT_STORE"/runs/*.json | grep -v -- -batch.json | head -1)
	[ -n "$r" ] || { cat side$n.out; fail "row $n: the side run recorded nothing"; }
	# (the runner's check at start, and the box's copy: red team 240)
	expect_eq "$(jget "$r" 'len(d["judge"]["sandbox"]["shadowed_libraries"]) >= 1')" True "row $n: the side run's shadowed_libraries"
	expect_match "$r" "$L/$n$sub/libm.so.6 \\(shadows /[^)]*, copied into a box\\)"
	expect_match "$r" "$L/$n$sub/libm.so.6 \\(shadows /"
	echo '{"kernel": "'$D'/chal.c"}' | env -u LD_LIBRARY_PATH "$EVIDENT" eval --no-progress $SP/host-redteam229-chal.yaml > a$n.json 2> a$n.err || true
	answer a$n.json > said || fail "reading the answer: $(cat said a$n.err)"
	read -r promoted outcome held < said
	expect_eq "$outcome" None "row $n, candidate_refuted: $(sed -n 2p said)"
	[ "$held" != True ] || fail "row $n: held by candidate_drift: $(sed -n 2p said)"
	r=$(ls "$EVIDENT_STORE"/runs/*.json | grep -v -- -batch.json | tail -1)
	expect_eq "$(jget "$r" 'len(d["judge"]["sandbox"]["shadowed_libraries"])')" 0 "row $n: the eval's run"
done
exit 0
