# stats.mk - `make bench-stats`: evident's statistics against SciPy on the
# same data (issue 5), up to whole `evident stats A B` runs at 10^5, 10^6 and
# 10^7 samples a side.  A benchmark that prints a table, not a test.  The C
# driver is tests/stats/bench.c, the table and the SciPy side are
# scripts/bench-stats and scripts/bench-stats-scipy.py; without SciPy the
# table still shows evident's own figures.  `make bench-aa` (below): the
# verdicts' false-positive rate on real runs of identical code.

STATS_BENCH := $(BUILD)/bench/stats_bench

$(STATS_BENCH): tests/stats/bench.c $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libevident.a $(LDLIBS)

bench-stats: all $(STATS_BENCH)
	@scripts/bench-stats $(STATS_BENCH) $(EVIDENT)

# `make bench-aa [N=20] [ONE=5]`: the A/A calibration of the verdicts on
# this machine (issue 23): N separate runs of experiments/aa-host.yaml at
# the default settings, the false-positive rate of faster/slower with its
# CI, ONE runs with --repeats 1 for contrast, cpu-demo twice (do its
# speedup CIs overlap?), and the load the runs recorded.  scripts/bench-aa
# says how; figures from a busy machine say so.
.PHONY: bench-aa
bench-aa: all
	@ONE=$(or $(ONE),5) scripts/bench-aa $(EVIDENT) $(or $(N),20)
