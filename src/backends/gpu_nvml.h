/*
 * gpu_nvml.h - what the GPU is and what state it is in, through NVML.
 *
 * NVML (libnvidia-ml.so.1, part of the driver) is loaded at run time with
 * dlopen, so the runner starts and runs host experiments where there is no
 * driver; then these functions return NULL and gpu_nvml_error() says why.
 * NVML creates no CUDA context, so the parent process can read the device
 * before and after each variant without disturbing the worker.
 *
 * The environment variable EVIDENT_NVML_LIB names another library to load
 * (tests use it to simulate a machine without the driver).
 */
#ifndef EVIDENT_GPU_NVML_H
#define EVIDENT_GPU_NVML_H

#include <jansson.h>

/*
 * Static facts of GPU `index`: name, uuid, pci_bus_id, compute capability,
 * driver / NVML / CUDA driver versions, persistence mode, memory total,
 * power limits, max SM / memory clocks, ECC mode.  New object (the caller
 * frees) or NULL, with the reason in gpu_nvml_error().
 */
json_t *gpu_nvml_info(int index);

/*
 * The moment's state of GPU `index`: SM / memory clocks (current and
 * max), temperature, power draw and limit, clock-throttle reasons (names,
 * raw mask and the ones that distort timing; "throttled" is true when any
 * of the latter is set), volatile ECC error counts,
 * compute processes on the GPU (pid, used memory, name), performance
 * state, utilisation, and the UTC time read.  New object or NULL.
 */
json_t *gpu_nvml_state(int index);

/*
 * Cheap enough to read every few milliseconds while sampling: the SM clock
 * now (MHz) and whether a reason that distorts timing (power cap,
 * thermal, HW slowdown, power brake) is active.  0, or -1 (*sm_mhz = -1).
 */
int gpu_nvml_clock(int index, double *sm_mhz, int *throttled);

/* How many GPUs NVML sees (its indices, nvidia-smi's, are 0..n-1), or -1. */
int gpu_nvml_count(void);
/* The UUID of GPU `index` ("GPU-8a3c..."), malloc'd, or NULL. */
char *gpu_nvml_uuid(int index);

/* NVML's index of the GPU of this UUID (NVML ignores CUDA_VISIBLE_DEVICES:
 * a pool slot's worker, whose CUDA device 0 is the slot's GPU, must not
 * read NVML's GPU 0), or -1. */
int gpu_nvml_index_of(const char *uuid);

/* The minor number of the GPU of this UUID: its device node is
 * /dev/nvidia<minor> (nvmlDeviceGetHandleByUUID, nvmlDeviceGetMinorNumber).
 * -1 with gpu_nvml_error() set when NVML cannot tell. */
int gpu_nvml_minor(const char *uuid);

/* Compute capability through NVML (no CUDA context).  0 or -1. */
int gpu_nvml_compute_capability(int index, int *major, int *minor);

/* Why the last call returned NULL / -1 ("" if it did not). */
const char *gpu_nvml_error(void);

/*
 * Names of the bits of an NVML clocks-event (throttle) mask, as a new JSON
 * array (the caller frees); with timing_only, only the reasons that make
 * timings unrepresentative (HW slowdown, SW/HW thermal, power brake, SW
 * power cap), not idle or application-clock settings.
 */
json_t *gpu_nvml_throttle_names(unsigned long long mask, int timing_only);

#endif /* EVIDENT_GPU_NVML_H */
