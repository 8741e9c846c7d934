# t0206 - a spec's flag directory outside the repository is no longer
# shown whole to the compile: only the headers the preprocessor's rule
# names (and the libraries -l names).  Red team 98
# (tests/fixtures/adversary/host/redteam98/README.md): flag_blob had the
# assembler read a data file of an -I directory (its include-binary
# directive pasted from two strings, which no text search finds and no
# -MD list names): one build key and one code for a 1-pass and a 3-pass
# object, and eval promoted a comment-only copy of the reference 2.4x;
# store_peek read the store's own index through a hard link in the
# directory.  Now the first reads a file the compile is not shown
# (build_failed, "the assembler read"), and a header with other names
# (a hard link) is refused.
. "$REPO/tests/cli/lib.sh"
mkrepo
mkdir -p "$TEST_TMP/inc" "$TEST_TMP/peek"
chmod 755 "$TEST_TMP" "$TEST_TMP/inc" "$TEST_TMP/peek"
printf 3 > "$TEST_TMP/inc/passes.bin"
chmod 644 "$TEST_TMP/inc/passes.bin"
sed "s|/tmp/rt98inc|$TEST_TMP/inc|g" tests/fixtures/adversary/host/redteam98/flag_blob.c > kernels/blob.c
sed -e "s|-I/tmp/rt98inc|-I$TEST_TMP/inc|" -e "s|tests/fixtures/adversary/host/redteam98/flag_blob.c|kernels/blob.c|" \
	-e 's/samples: 200/samples: 5/' tests/fixtures/specs/host-redteam98-blob.yaml > experiments/blob.yaml
grep -q -- "-I$TEST_TMP/inc" experiments/blob.yaml || fail "the spec did not take the directory"
expect_exit 0 "$EVIDENT" run --no-progress experiments/blob.yaml
expect_match "$TEST_TMP/out" "ref: build_failed - the assembler read '$TEST_TMP/inc/passes.bin'"
# a header of the directory that is a hard link (to any file: the store's
# index in red team 98's store_peek) is refused; the same header copied
# is code like any other (its hash in the record's sources)
printf '/* a header */\n' > "$TEST_TMP/secret.h"
ln "$TEST_TMP/secret.h" "$TEST_TMP/peek/idx.h"
chmod 644 "$TEST_TMP/secret.h"
{ printf '#include "idx.h"\n'; cat kernels/rowsum/naive.c; } > kernels/rs_inc.c
cat > experiments/peek.yaml <<Y
name: peek
problem: rowsum
backend: host
shape: {R: 64, C: 256}
flags: [-I$TEST_TMP/peek]
kernel: kernels/rs_inc.c
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5}
repeats: 1
Y
expect_exit 1 "$EVIDENT" run --no-progress experiments/peek.yaml
expect_contains "$TEST_TMP/out" "a file with 2 names (a hard link)"
rm "$TEST_TMP/peek/idx.h"
cp "$TEST_TMP/secret.h" "$TEST_TMP/peek/idx.h"
chmod 644 "$TEST_TMP/peek/idx.h"
expect_exit 0 "$EVIDENT" run --no-progress experiments/peek.yaml
r=$(ls -t artifacts/runs/*.json | grep -v batch | head -1)
jget "$r" "[s['path'] for s in d['code']['sources']]" | grep -q "peek/idx.h" || fail "the copied header is not in the record's sources"
# red team 100: a library name that is a link to the store's own index
# (or anywhere outside the flag directories and the toolchain) is not
# shown to the compile, which quoted its lines into the stored log;
# -l:.. (the directory's parent) is refused; a header that is a link
# inside its own directory builds (shown at the name the compiler opens)
mkdir -p "$TEST_TMP/lib" "$TEST_TMP/hs/real"
chmod 755 "$TEST_TMP/lib" "$TEST_TMP/hs" "$TEST_TMP/hs/real"
ln -s "$PWD/artifacts/index" "$TEST_TMP/lib/librt100.a"
sed -e "s|^flags: .*|flags: [-L$TEST_TMP/lib, -lrt100]|" -e 's/^kernel: .*/kernel: kernels\/rowsum\/naive.c/' \
	experiments/peek.yaml > experiments/lib.yaml
expect_exit 1 "$EVIDENT" run --no-progress experiments/lib.yaml
expect_contains "$TEST_TMP/out" "the build box did not show '$TEST_TMP/lib/librt100.a' is a file of the store"
sed -e "s|^flags: .*|flags: [-L$TEST_TMP/lib, '-l:..']|" experiments/lib.yaml > experiments/dots.yaml
expect_exit 1 "$EVIDENT" run --no-progress experiments/dots.yaml
expect_contains "$TEST_TMP/out" "a library name of dots alone"
printf '/* a header */\n' > "$TEST_TMP/hs/real/idx.h"
chmod 644 "$TEST_TMP/hs/real/idx.h"
ln -s real/idx.h "$TEST_TMP/hs/idx.h"
sed -e "s|^flags: .*|flags: [-I$TEST_TMP/hs]|" experiments/peek.yaml > experiments/hs.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/hs.yaml
