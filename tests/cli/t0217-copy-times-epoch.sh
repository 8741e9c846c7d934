# t0217 - a boxed build's object holds no time of its build (red team
# 128, tests/fixtures/adversary/host/redteam128/README.md): gcc's
# __TIMESTAMP__ is the source file's modification time as the compiler
# sees it, and the compile is shown copies made as the build runs, so an
# object that held __TIMESTAMP__ (past -Werror=date-time by a pragma)
# held each build's second under one build key (three objects of key
# deb8df2a6713).  Now the copies bear the epoch's time (build.c
# shown_copy): two builds from empty caches make one object, and its
# string is the epoch's.
. "$REPO/tests/cli/lib.sh"
mkrepo
cp tests/fixtures/adversary/host/redteam128/ts.c kernels/ts.c
cat > experiments/ts.yaml <<'Y'
name: ts
question: Does a boxed build's object hold the time of its build?
problem: rowsum
backend: host
shape: {R: 8, C: 1024}
kernel: kernels/ts.c
baseline: a
variants:
  a: {}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 3, cache: hot}
repeats: 1
limits: {timeout_s: 30}
Y
sums=""
for i in 1 2; do
	rm -rf build/cache
	sleep 1.1 # another second of the clock between the builds
	"$EVIDENT" run --no-progress experiments/ts.yaml > "run$i.out" 2>&1
	so=$(grep -l -a RT128TS build/cache/*/kernel.so 2>/dev/null | head -1)
	[ -n "$so" ] || { cat "run$i.out"; fail "build $i made no object"; }
	grep -a -o 'RT128TS=[^"]*' "$so" | head -1 > "ts$i.txt"
	sums="$sums $(sha256sum < "$so" | cut -c1-16)"
done
grep -q 'RT128TS=Thu Jan  1 00:00:00 1970' ts1.txt || { cat ts1.txt; fail "the object holds another time than the epoch's"; }
set -- $sums
[ "$1" = "$2" ] || { cat ts1.txt ts2.txt; fail "two builds of one source made two objects ($1, $2)"; }
exit 0
