# bench.mk - benchmarks of the store that print figures (never timed
# tests).  Each program is tests/bench/bench_NAME.c linked against the
# library; N sets the number of runs.
#   make bench-store [N=100000] [DIR=/tmp]   commit per run at 10^3/10^4/N runs, index
#                                 load and resolve, index rebuild, verify
#   make bench-verify [N=10000]   fill and verify only (the older figure)
#   make bench-readers [N=100000] [DIR=/tmp]   ls, ls --batches, show, paper
#                                 --check, audit and verify through the binary,
#                                 on N real records (copies of artifacts/' aa batch)
#   make bench-scramble           the per-sample cost of scrambling outputs (host)
#   make bench-eval [K=5] [S=32]  what one candidate costs `evident eval` on the host:
#                                 K that compile, then the same K again (build cache
#                                 hits); scripts/bench-eval, temporary store and cache
# Both fill a fresh store under /tmp (bench-store: under DIR; /dev/shm
# shows the cost without fsync) and delete it after.

BENCH_BINS := $(BUILD)/bench/bench_readers $(BUILD)/bench/bench_store $(BUILD)/bench/bench_verify $(BUILD)/bench/bench_scramble

$(BUILD)/bench/bench_%: tests/bench/bench_%.c $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libevident.a $(LDLIBS)

.PHONY: bench-store bench-verify bench-scramble bench-readers bench-eval
bench-store: $(BUILD)/bench/bench_store
	$< $(or $(N),100000) $(or $(DIR),/tmp)

bench-readers: $(BUILD)/bench/bench_readers bin/evident
	$< $(CURDIR)/bin/evident $(or $(N),100000) $(or $(DIR),/tmp) artifacts aa

bench-verify: $(BUILD)/bench/bench_verify
	$< $(or $(N),10000)

bench-scramble: $(BUILD)/bench/bench_scramble
	$<

bench-eval: all
	scripts/bench-eval $(or $(K),5) $(or $(S),32)
