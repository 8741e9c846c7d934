# stats.mk - `make bench-stats`: evident's statistics against SciPy on the
# same data (issue 5), up to whole `evident stats A B` runs at 10^5, 10^6 and
# 10^7 samples a side.  A benchmark that prints a table, not a test.  The C
# driver is tests/stats/bench.c, the table and the SciPy side are
# scripts/bench-stats and scripts/bench-stats-scipy.py; without SciPy the
# table still shows evident's own figures.

STATS_BENCH := $(BUILD)/bench/stats_bench

$(STATS_BENCH): tests/stats/bench.c $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libevident.a $(LDLIBS)

bench-stats: all $(STATS_BENCH)
	@scripts/bench-stats $(STATS_BENCH) $(EVIDENT)
