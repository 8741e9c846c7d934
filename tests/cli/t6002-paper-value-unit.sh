# t6002: an inline value prints its unit once.  A value block prints "number
# unit" (6.6 GFLOP/s); where the prose right after the block already says
# the unit, as writers put it (-->6.6<!-- /evident:value --> GFLOP/s), the
# block holds the number alone, at the first generation and every one
# after (issue 23: "6.6 GFLOP/s GFLOP/s").  A word that only starts like
# the unit (slower after x, seconds after s) is no unit.
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/paper-lib.sh"
setup_tiny_repo
run_tiny tiny.yaml
v='<!-- evident:value experiment=tiny variant=slow run=latest'
cat >P.md <<EOF2
a $v stat=gflops --> GFLOP/s.
b $v stat=gflops -->6.6<!-- /evident:value -->  GFLOP/s, and
c $v stat=gbps -->1 GB/s<!-- /evident:value --> GB/s
d $v stat=median_us unit=ms -->?<!-- /evident:value --> ms per launch
e $v stat=speedup -->0.2x<!-- /evident:value -->x faster
f $v stat=gflops -->1<!-- /evident:value -->.
g $v stat=speedup --> slower
h $v stat=median_us unit=s -->?<!-- /evident:value --> seconds
i $v stat=tflops --> GFLOP/s
j $v stat=gflops -->
GFLOP/s on the next line
k $v stat=gflops -->

GFLOP/s after a blank line: another paragraph
EOF2
expect_exit 0 "$EVIDENT" paper P.md
num='[0-9]+(\.[0-9]+)?'
expect_match P.md "^a .* stat=gflops -->$num<!-- /evident:value --> GFLOP/s\.\$"
expect_match P.md "^b .* stat=gflops -->$num<!-- /evident:value -->  GFLOP/s, and\$"
expect_match P.md "^c .* stat=gbps -->$num<!-- /evident:value --> GB/s\$"
expect_match P.md "^d .* unit=ms -->$num<!-- /evident:value --> ms per launch\$"
expect_match P.md "^e .* stat=speedup -->$num<!-- /evident:value -->x faster\$"
expect_match P.md "^f .* stat=gflops -->$num GFLOP/s<!-- /evident:value -->\.\$"
expect_match P.md "^g .* stat=speedup -->${num}x<!-- /evident:value --> slower\$"
expect_match P.md "^h .* unit=s -->$num s<!-- /evident:value --> seconds\$"
expect_match P.md "^i .* stat=tflops -->$num TFLOP/s<!-- /evident:value --> GFLOP/s\$"
expect_match P.md "^j .* stat=gflops -->$num<!-- /evident:value -->\$"
[ "$(grep -A1 '^j ' P.md | tail -1)" = "GFLOP/s on the next line" ] || { cat P.md; fail "a unit on the next line"; }
expect_match P.md "^k .* stat=gflops -->$num GFLOP/s<!-- /evident:value -->\$"
expect_not_contains P.md "GFLOP/s GFLOP/s"
expect_not_contains P.md "GB/s GB/s"
cp P.md first.md
expect_exit 0 "$EVIDENT" paper P.md
cmp first.md P.md || fail "a second 'evident paper' changed P.md"
