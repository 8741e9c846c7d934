/*
 * peaks.h - a GPU's peak dense throughput per dtype and peak memory
 * bandwidth, from data/gpu-peaks.yaml (vendor datasheet figures, each with
 * its source and the date it was read), for rooflines and "fraction of
 * peak" in reports.
 *
 * An entry matches an NVML device name ("NVIDIA H100 80GB HBM3") when the
 * name contains every `match` string and no `exclude` string, ignoring
 * case; the first matching entry wins.  A GPU the table does not know has
 * no peak: nothing is guessed.
 */
#ifndef EVIDENT_PEAKS_H
#define EVIDENT_PEAKS_H

#include <stddef.h>

#include "base/util.h"

/* The dtypes a table entry may give ("fp32" is the CUDA cores' rate, the
 * others are dense tensor-core rates with fp32 accumulation). */
enum peak_dtype { PEAK_FP32, PEAK_TF32, PEAK_FP16, PEAK_BF16, PEAK_FP8, PEAK_NDTYPES };
extern const char *const peak_dtype_names[PEAK_NDTYPES]; /* "fp32", "tf32", ... */

struct peak_entry {
	char *model;                    /* "H100 SXM5 80GB (HBM3)" */
	char **match, **exclude;        /* NULL-terminated */
	double tflops[PEAK_NDTYPES];    /* NAN where the GPU has no such rate */
	double gbps;                    /* peak memory bandwidth, 10^9 bytes/s */
	char *source;                   /* "<vendor document> (read <date>)" */
	char *read_via, *date;
};

/* A loaded table; PEAK_TABLE_INIT is an empty one. */
struct peak_table {
	struct peak_entry *e;
	size_t n;
};
#define PEAK_TABLE_INIT { NULL, 0 }

/*
 * Load the YAML table at path into t (owned by t; release with
 * peak_table_release).  Every entry needs model, match (a string or a list),
 * tflops (a mapping of known dtypes to positive numbers), bandwidth_gbps,
 * source and date.  Returns 0, or -1 after error() naming the file, line
 * and entry.
 */
int peak_table_load(const char *path, struct peak_table *t);
void peak_table_release(struct peak_table *t);
/* The first entry matching gpu_name, or NULL. */
const struct peak_entry *peak_table_find(const struct peak_table *t, const char *gpu_name);

/*
 * The peak of gpu_name (an NVML device name) for dtype ("fp32", "tf32",
 * "fp16", "bf16", "fp8"; "float16"/"bfloat16"/"float32" too), from the
 * table $EVIDENT_PEAKS or else data/gpu-peaks.yaml under the current
 * directory, loaded once per process.
 * Returns 0 when the GPU is in the table: *gbps and *source set (source
 * lives as long as the process), *tflops the dense peak or NAN when the GPU
 * has none for dtype (fp8 on A100).  Returns 1 when no entry matches or
 * there is no table here (*tflops and *gbps NAN, *source NULL).  Returns -1
 * after error() when dtype is unknown or the table is there but cannot be
 * read.  Any output may be NULL.
 */
int peak_lookup(const char *gpu_name, const char *dtype, double *tflops, double *gbps,
		const char **source);

/*
 * The entry of gpu_name (an NVML device name) in the same process-wide
 * table, or NULL with the reason appended to why (when why is not NULL):
 * no entry matches, there is no table file here (nothing printed: a
 * reader of old records may run anywhere), or the table is not valid
 * (error() printed, once per process).  The entry lives as long as the
 * process.
 */
const struct peak_entry *peak_find(const char *gpu_name, struct strbuf *why);
/* The index into peak_entry.tflops of dtype ("fp16", "float16", ...), or -1. */
int peak_dtype_index(const char *dtype);

/*
 * An upper bound on this machine's fp32 throughput for host kernels, from
 * what the CPU says of itself (measured once per process, not a table: a
 * host's CPU model names little of its clocks and vector units): online
 * CPUs x the highest clock /proc/cpuinfo or cpufreq reports x 2 (a margin
 * for boost clocks a VM does not report) x FLOP per cycle of its widest
 * FMA (avx512f: 64, avx2+fma: 32, avx: 16, else 8).  A host kernel's time
 * below flops / that is not its work.  Returns the GFLOP/s (> 0) and
 * fills source (how it was derived), or returns NAN when /proc/cpuinfo
 * cannot be read.
 */
double peak_host_gflops(char *source, size_t n);
/* The GPU peak table this process reads (EVIDENT_PEAKS, else
 * data/gpu-peaks.yaml): "the table PATH, sha256 HEX[, named by
 * EVIDENT_PEAKS]", or NULL where none loaded.  Every GPU peak's method
 * names it (record_peak_lookup). */
const char *peak_table_origin(void);

#endif /* EVIDENT_PEAKS_H */
