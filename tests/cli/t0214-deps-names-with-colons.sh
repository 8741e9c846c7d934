# t0214 - a header the build reads whose name a dependency list cannot
# write unambiguously, or that is a symbolic link in the repository, fails
# the build, named ("rename the file the kernel includes").  Red team 113
# (tests/fixtures/adversary/host/redteam113/README.md): gcc -M writes a
# header named "sel.h:" unescaped and a tab as "\<TAB>"; build.c's list
# reader took the first for a make target and split the second, so a
# header only pass 1 read, so named, chose the program and was in no
# record's sources (eval promoted a comment-only copy 61x).  Red team 116
# (redteam116/README.md): gcc writes a backslash as it is, and "a\\sel.h"
# read back as a committed decoy "a\sel.h"; and a selection header that
# is a symlink was recorded by its target's path, so retargeting the link
# at a clean commit changed nothing recorded (eval promoted a copy 91x);
# and a name with a byte that is not UTF-8 failed with a wrong reason.
# The control with a plain name builds.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "the build and its dependency list are the subject"
D=adversary/host/redteam113
E=adversary/host/redteam116
mkrepo git $D/p1_colon.c $D/p1_tab.c $D/p1_nocolon.c $D/rt113_fast.h $D/rt113_slow.h $D/rt113_p1only.h \
	$D/rt113_msel.h $D/mknames.sh $E/p1_bs.c $E/p1_ln.c $E/p1_ff.c $E/rt116_fast.h $E/rt116_slow.h $E/rt116_p1only.h \
	$E/rt116_msel.h $E/mknames.sh
mkdir -p tests/fixtures/$D/flagdir && sh tests/fixtures/$D/mknames.sh tests/fixtures/$D && rm -rf tests/fixtures/$D/flagdir ||
	fail "red team 113's names"
sh tests/fixtures/$E/mknames.sh tests/fixtures/$E && ln -s rt116_msel.h tests/fixtures/$E/rt116_lsel.h || fail "red team 116's names"
for v in colon tab nocolon; do
	sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam113-$v.yaml" > experiments/$v.yaml
done
for v in bs ln ff; do
	sed -e 's/samples: 5/samples: 3/' "$REPO/tests/fixtures/specs/host-redteam116-$v.yaml" > experiments/$v.yaml
done
git add -A && git -c user.email=t@t -c user.name=t commit -qm names || fail "commit"
for v in colon tab bs ln ff; do
	"$EVIDENT" run --no-progress experiments/$v.yaml > $v.out 2>&1
	grep -qE "^[a-z_0-9]+ +build_failed " $v.out || { cat $v.out; fail "$v: not refused"; }
	grep -q "rename the file the kernel includes" $v.out || { cat $v.out; fail "$v: the reason does not say to rename"; }
done
grep -q "a character a dependency list cannot write unambiguously" colon.out || { cat colon.out; fail "colon: the reason"; }
grep -q "bytes that are" ff.out || { cat ff.out; fail "ff: the reason"; }
grep -q "a symbolic link" ln.out || { cat ln.out; fail "ln: the reason"; }
expect_exit 0 "$EVIDENT" run --no-progress experiments/nocolon.yaml
true
