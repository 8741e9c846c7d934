/*
 * cpu_peak.h - the host backend's peaks: one core's fp32 FMA rate and its
 * memory bandwidth, measured once per machine and cached, for "fraction of
 * peak" beside every host kernel's time (record/throughput.c turns them
 * into the record's peak).
 *
 * Measured, not a table (data/gpu-peaks.yaml is a table for GPUs), because
 * a CPU's name says too little: virtual machines report generic models
 * ("AMD EPYC" on the project's 2-CPU machine, "Intel(R) Xeon(R) Processor"
 * on the H100 host), which name neither the clocks nor the vector units,
 * and memory bandwidth belongs to the machine (channels, DIMMs, the VM's
 * share of them), not to the CPU model.  A measurement is what one core of
 * this machine reaches, the ceiling a host kernel can aim at.
 *
 * One core, because a host kernel runs in one worker process and the
 * kernels here are one thread; a kernel that starts threads can exceed it
 * (its fraction reads above 1, and every table says "one core").  For the
 * same reason it is not the physical floor of the below_floor outcome:
 * that stays peaks.h's peak_host_gflops, an upper bound with a margin.
 *
 * The method (cpu_peak_measure), in about 0.4 s on the 2-CPU machine:
 *   compute    an fp32 FMA loop with 12 independent chains (enough to fill
 *              two FMA pipes of latency 4 to 6), in every vector width the
 *              CPU has (AVX-512, AVX2+FMA on x86-64; generic vector code
 *              elsewhere), calibrated to trials of about 1 ms, 40 trials
 *              each (at least 8, fewer past 0.5 s of wall time: on a
 *              machine shared by many processes a millisecond of work can
 *              take fifteen); the rate is the fastest trial of the best width (2
 *              FLOP per lane per FMA): the loop touches only registers,
 *              so nothing makes a trial faster than the FMA pipes, and an
 *              interrupted one is only slower.
 *   bandwidth  a STREAM triad a[i] = b[i] + s * c[i] over three fp32
 *              arrays of 4x the last-level cache each (32 to 256 MiB, at
 *              most 1/16 of memory), with non-temporal stores on x86-64
 *              (so the bytes counted are the bytes moved), timed per 2 MiB
 *              chunk over 4 passes (at least 1, no new one past 1.5 s);
 *              bytes counted as STREAM does (12 per
 *              element, no write-allocate); the rate is the 90th
 *              percentile of the chunks.
 * Short trials and the fastest (or a high percentile) make it robust to
 * the machine being shared: a trial another process interrupted is slower,
 * and one in ten running undisturbed is enough.  The spread of the trials
 * is kept with the method.  Measured on the 2-CPU machine, ten times in
 * a row: 118 GFLOP/s every time, near idle and with the load average
 * near 9; 29-36 GB/s near idle, 26-31 GB/s (and 19 once) at load 9:
 * other processes share the memory bandwidth, and no statistic of one
 * core's trials can take that back.
 *
 * The cache: $XDG_CACHE_HOME/evident/cpu-peaks/ (else
 * ~/.cache/evident/cpu-peaks/), a JSON file per CPU model (the key is the
 * model name /proc/cpuinfo gives, as the run record's machine.cpu holds
 * it).  Delete the file to measure again.  Where the cache cannot be
 * written, every run measures.
 */
#ifndef EVIDENT_CPU_PEAK_H
#define EVIDENT_CPU_PEAK_H

#include "base/util.h"

struct cpu_peak {
	char model[160];             /* the cache key: machine.cpu, or "host:NAME" without one */
	double gflops;               /* fp32, one core, GFLOP/s */
	double gbps;                 /* one core, GB/s (10^9 bytes/s) */
	char isa[24];                /* the vector width of the rate: "avx512f", "avx2+fma", "generic" */
	char method[480];            /* one line: what ran, sizes, the statistic and the spread */
	char measured_utc[40];
	char host[96];
	char machine_id[40];         /* /etc/machine-id where measured, "" unknown */
	long cpus;                   /* CPUs online when measured */
	double load1;                /* the 1-minute load average when measured, NAN unknown */
	double seconds;              /* how long the measurement took */
	char cache_sha256[65];       /* the cache file read (its sha256), "" measured now */
	char source[768];            /* "measured on host H at T (N CPUs online, load L)", and whether by
				      * this run or read from a cache file (its path and sha256) */
};

/*
 * Measure now (about 0.4 s; no cache), for the CPU named model.  Returns 0,
 * or -1 with the reason in why (the triad's memory could not be had).
 */
int cpu_peak_measure(const char *model, struct cpu_peak *p, struct strbuf *why);

/*
 * The cached measurement of model: 1 found, 0 none (no file, or no cache
 * directory: nothing said), -1 a file that is not a measurement (the
 * reason, naming the file, in why).
 */
int cpu_peak_cached(const char *model, struct cpu_peak *p, struct strbuf *why);

/* Cache p under its model: 0, or -1 with the reason in why. */
int cpu_peak_save(const struct cpu_peak *p, struct strbuf *why);

/*
 * The cache file of model (malloc'd: the caller frees), or NULL when
 * neither XDG_CACHE_HOME nor HOME is set.
 */
char *cpu_peak_cache_path(const char *model);

/*
 * This machine's peak for model: cached, or measured and cached (saying so
 * on stderr, once per machine; a damaged cache file or one that cannot be
 * written is a warning, and the measurement is used anyway).  *measured is
 * 1 when it was measured now.  Returns 0, or -1 with the reason in why.
 *
 * A cached file is whatever the runner's environment names (XDG_CACHE_HOME:
 * red team 131 set one to 0.05 GFLOP/s and a naive rowsum read 793% of
 * peak), so it is used only when it names this host (its host is this
 * hostname, as the records' machine.host; its machine_id, where it has one,
 * this /etc/machine-id) and its rates lie in this CPU's band
 * (cpu_peak_band), and its FMA rate is no lower than a spot check now
 * (the fastest of a few 1 ms trials a width, about 10 ms each at rest)
 * over CPU_PEAK_SPOT_MARGIN: load only slows a trial, so a cache under
 * what the core just did is not this core's peak (3x: an honest
 * measurement at load 9 read 118 GFLOP/s where 217-248 at rest; red team 231's
 * peakband: 14.5 GFLOP/s, inside the band, against 217 measured, made an
 * honest gemm read 95% of peak).  Otherwise a warning, and measured
 * again.  The record names the file and its sha256 (source).  Open: the
 * bandwidth has no such check (a spot triad would read the caches).
 */
int cpu_peak_here(const char *model, struct cpu_peak *p, int *measured, struct strbuf *why);

/*
 * The band a measurement of one core of this CPU must lie in, from
 * /proc/cpuinfo (peaks.h peak_host_gflops: the listed clock, cpuinfo_max_freq
 * where higher, x the widest vector's fp32 FLOP per cycle x 2 for boost):
 * gflops in [that / CPU_PEAK_BAND_LOW_DIV, that x CPU_PEAK_BAND_HIGH_MUL],
 * gbps in [CPU_PEAK_GBPS_MIN, the same clock x 64 bytes per cycle x
 * CPU_PEAK_BAND_HIGH_MUL x 2].  Wide on purpose: it refuses what no core
 * of this CPU can be (the forged 0.05 GFLOP/s is 1/4000 of it), never a
 * measurement under load (the fastest of its 1 ms trials; the lowest seen
 * on the 2-CPU machine, 118 GFLOP/s at load 9, is 50x the floor).  0 with
 * the band, or -1 when /proc/cpuinfo gives no clock (no band: every cached
 * value is taken, as before).
 */
#define CPU_PEAK_BAND_LOW_DIV 128.0
#define CPU_PEAK_BAND_HIGH_MUL 1.5
#define CPU_PEAK_GBPS_MIN 1.0
#define CPU_PEAK_SPOT_MARGIN 3.0
/* a cache under the spot by more than this is raised to it (a third to
 * this: red team 234's peakmid), within it read as cached (the spot's
 * few trials can beat the measurement's fastest by noise) */
#define CPU_PEAK_RAISE_MARGIN 1.25
/* a cache over the spot by more than these (after a second spot) is
 * measured again: the spot is a floor of the peak, and load slows it, so
 * the margins leave room for a busy machine (the FMA spot read 217-220
 * where the measurement read 217, at rest and under load; the triad's
 * one pass varies more) - red team 236's peakhigh: a cache edited to
 * 480 GFLOP/s and 480 GB/s (217 and 15-18 measured) was read as is, an
 * honest gemm at 0.025 of peak and a value claim on it supported */
#define CPU_PEAK_HIGH_MARGIN 1.5
#define CPU_PEAK_BW_HIGH_MARGIN 2.0
int cpu_peak_band(double *gflops_lo, double *gflops_hi, double *gbps_lo, double *gbps_hi, char *how, size_t n);

#endif /* EVIDENT_CPU_PEAK_H */
