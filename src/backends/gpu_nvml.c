/*
 * gpu_nvml.c - GPU facts and state through NVML loaded with dlopen (see
 * gpu_nvml.h for the contract).
 *
 * NVML's types are declared here by hand (only the handful used, with the
 * layouts of nvml.h, which is not installed on build machines without the
 * driver).  Every query is optional: a field NVML refuses on this GPU
 * (NVML_ERROR_NOT_SUPPORTED on consumer boards, for instance) is left out
 * of the object rather than failing the whole read.  NVML is initialised
 * once per process and never shut down (nvmlShutdown at exit buys nothing).
 * A process forked after the initialisation (a pool's slot, src/run/pool.c)
 * initialises it again: NVML's state does not survive fork(), and every
 * call there answered NVML_ERROR_UNINITIALIZED, so on an H200 pair every
 * pool record had no GPU state and its box bound every GPU node.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "backends/gpu_nvml.h"
#include "base/util.h"

typedef int nvmlReturn_t; /* NVML_SUCCESS = 0 */
typedef void *nvmlDevice_t;
typedef struct {
	unsigned long long total, free, used;
} nvmlMemory_t;
typedef struct {
	unsigned int gpu, memory;
} nvmlUtilization_t;
/* nvmlProcessInfo_t of the _v3 calls (the _v2 struct, same layout) */
typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlProcessInfo_t;

enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
enum { NVML_TEMPERATURE_GPU = 0 };
enum { NVML_MEMORY_ERROR_TYPE_CORRECTED = 0, NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1 };
enum { NVML_VOLATILE_ECC = 0, NVML_AGGREGATE_ECC = 1 };
#define NVML_ERROR_INSUFFICIENT_SIZE 7

static struct {
	int tried, ok;
	pid_t pid; /* the process that initialised NVML */
	void *lib;
	char why[512];
	nvmlReturn_t (*Init)(void);
	const char *(*ErrorString)(nvmlReturn_t);
	nvmlReturn_t (*GetHandleByIndex)(unsigned int, nvmlDevice_t *);
	nvmlReturn_t (*GetCount)(unsigned int *);
	nvmlReturn_t (*GetName)(nvmlDevice_t, char *, unsigned int);
	nvmlReturn_t (*GetUUID)(nvmlDevice_t, char *, unsigned int);
	nvmlReturn_t (*GetCudaComputeCapability)(nvmlDevice_t, int *, int *);
	nvmlReturn_t (*SystemGetDriverVersion)(char *, unsigned int);
	nvmlReturn_t (*SystemGetNVMLVersion)(char *, unsigned int);
	nvmlReturn_t (*SystemGetCudaDriverVersion)(int *);
	nvmlReturn_t (*GetPersistenceMode)(nvmlDevice_t, int *);
	nvmlReturn_t (*GetMemoryInfo)(nvmlDevice_t, nvmlMemory_t *);
	nvmlReturn_t (*GetPowerManagementLimit)(nvmlDevice_t, unsigned int *);
	nvmlReturn_t (*GetEnforcedPowerLimit)(nvmlDevice_t, unsigned int *);
	nvmlReturn_t (*GetMaxClockInfo)(nvmlDevice_t, int, unsigned int *);
	nvmlReturn_t (*GetClockInfo)(nvmlDevice_t, int, unsigned int *);
	nvmlReturn_t (*GetEccMode)(nvmlDevice_t, int *, int *);
	nvmlReturn_t (*GetTemperature)(nvmlDevice_t, int, unsigned int *);
	nvmlReturn_t (*GetPowerUsage)(nvmlDevice_t, unsigned int *);
	nvmlReturn_t (*GetThrottleReasons)(nvmlDevice_t, unsigned long long *);
	nvmlReturn_t (*GetTotalEccErrors)(nvmlDevice_t, int, int, unsigned long long *);
	nvmlReturn_t (*GetComputeProcs)(nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *);
	nvmlReturn_t (*GetPerformanceState)(nvmlDevice_t, int *);
	nvmlReturn_t (*GetUtilization)(nvmlDevice_t, nvmlUtilization_t *);
	nvmlReturn_t (*GetHandleByUUID)(const char *, nvmlDevice_t *);
	nvmlReturn_t (*GetMinorNumber)(nvmlDevice_t, unsigned int *);
} nv;

const char *gpu_nvml_error(void)
{
	return nv.why;
}

static void *sym(const char *a, const char *b)
{
	void *p = dlsym(nv.lib, a);
	if (!p && b)
		p = dlsym(nv.lib, b);
	return p;
}

/* Loads and initialises NVML once.  0, or -1 with nv.why set. */
static int nvml_load(void)
{
	const char *name = getenv("EVIDENT_NVML_LIB");
	nvmlReturn_t r;

	if (nv.tried) {
		if (!nv.ok)
			return -1;
		if (nv.pid != getpid()) { /* a forked child: NVML's state stayed behind */
			r = nv.Init();
			if (r) {
				nv.ok = 0;
				snprintf(nv.why, sizeof(nv.why), "nvmlInit failed in a forked process: %s (error %d)",
					 nv.ErrorString ? nv.ErrorString(r) : "unknown", r);
				return -1;
			}
			nv.pid = getpid();
		}
		nv.why[0] = '\0';
		return 0;
	}
	nv.tried = 1;
	if (!name || !*name)
		name = "libnvidia-ml.so.1";
	nv.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!nv.lib) {
		snprintf(nv.why, sizeof(nv.why), "NVML not available (%s not found: no NVIDIA driver?)",
			 name);
		return -1;
	}
	*(void **)&nv.Init = sym("nvmlInit_v2", "nvmlInit");
	*(void **)&nv.ErrorString = sym("nvmlErrorString", NULL);
	*(void **)&nv.GetHandleByIndex = sym("nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
	*(void **)&nv.GetCount = sym("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
	*(void **)&nv.GetName = sym("nvmlDeviceGetName", NULL);
	*(void **)&nv.GetUUID = sym("nvmlDeviceGetUUID", NULL);
	*(void **)&nv.GetCudaComputeCapability = sym("nvmlDeviceGetCudaComputeCapability", NULL);
	*(void **)&nv.SystemGetDriverVersion = sym("nvmlSystemGetDriverVersion", NULL);
	*(void **)&nv.SystemGetNVMLVersion = sym("nvmlSystemGetNVMLVersion", NULL);
	*(void **)&nv.SystemGetCudaDriverVersion = sym("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
	*(void **)&nv.GetPersistenceMode = sym("nvmlDeviceGetPersistenceMode", NULL);
	*(void **)&nv.GetMemoryInfo = sym("nvmlDeviceGetMemoryInfo", NULL);
	*(void **)&nv.GetPowerManagementLimit = sym("nvmlDeviceGetPowerManagementLimit", NULL);
	*(void **)&nv.GetEnforcedPowerLimit = sym("nvmlDeviceGetEnforcedPowerLimit", NULL);
	*(void **)&nv.GetMaxClockInfo = sym("nvmlDeviceGetMaxClockInfo", NULL);
	*(void **)&nv.GetClockInfo = sym("nvmlDeviceGetClockInfo", NULL);
	*(void **)&nv.GetEccMode = sym("nvmlDeviceGetEccMode", NULL);
	*(void **)&nv.GetTemperature = sym("nvmlDeviceGetTemperature", NULL);
	*(void **)&nv.GetPowerUsage = sym("nvmlDeviceGetPowerUsage", NULL);
	*(void **)&nv.GetThrottleReasons = sym("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons");
	*(void **)&nv.GetTotalEccErrors = sym("nvmlDeviceGetTotalEccErrors", NULL);
	*(void **)&nv.GetComputeProcs = sym("nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2");
	*(void **)&nv.GetPerformanceState = sym("nvmlDeviceGetPerformanceState", NULL);
	*(void **)&nv.GetUtilization = sym("nvmlDeviceGetUtilizationRates", NULL);
	*(void **)&nv.GetHandleByUUID = sym("nvmlDeviceGetHandleByUUID", NULL);
	*(void **)&nv.GetMinorNumber = sym("nvmlDeviceGetMinorNumber", NULL);
	if (!nv.Init || !nv.GetHandleByIndex) {
		snprintf(nv.why, sizeof(nv.why), "NVML library '%s' lacks nvmlInit_v2 (too old a driver?)",
			 name);
		return -1;
	}
	r = nv.Init();
	if (r) {
		snprintf(nv.why, sizeof(nv.why), "nvmlInit failed: %s (error %d)",
			 nv.ErrorString ? nv.ErrorString(r) : "unknown", r);
		return -1;
	}
	nv.ok = 1;
	nv.pid = getpid();
	nv.why[0] = '\0';
	return 0;
}

static int nvml_device(int index, nvmlDevice_t *dev)
{
	nvmlReturn_t r;
	if (nvml_load())
		return -1;
	r = nv.GetHandleByIndex((unsigned)index, dev);
	if (r) {
		snprintf(nv.why, sizeof(nv.why), "NVML has no GPU %d: %s", index,
			 nv.ErrorString ? nv.ErrorString(r) : "error");
		return -1;
	}
	return 0;
}

int gpu_nvml_count(void)
{
	unsigned n = 0;
	if (nvml_load())
		return -1;
	if (!nv.GetCount || nv.GetCount(&n)) {
		snprintf(nv.why, sizeof(nv.why), "NVML cannot count the GPUs");
		return -1;
	}
	return (int)n;
}

char *gpu_nvml_uuid(int index)
{
	nvmlDevice_t dev;
	char buf[96];
	if (nvml_device(index, &dev))
		return NULL;
	if (!nv.GetUUID || nv.GetUUID(dev, buf, sizeof(buf))) {
		snprintf(nv.why, sizeof(nv.why), "NVML cannot read the UUID of GPU %d", index);
		return NULL;
	}
	return xstrdup(buf);
}

int gpu_nvml_index_of(const char *uuid)
{
	unsigned int n = 0;
	if (nvml_load() || nv.GetCount(&n) || !nv.GetUUID)
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		nvmlDevice_t dev;
		char buf[96];
		/* a GPU whose node the box lacks answers no permission: not ours */
		if (nv.GetHandleByIndex(i, &dev) == 0 && nv.GetUUID(dev, buf, sizeof(buf)) == 0 && !strcmp(buf, uuid))
			return (int)i;
	}
	snprintf(nv.why, sizeof(nv.why), "NVML has no GPU %s", uuid);
	return -1;
}

int gpu_nvml_minor(const char *uuid)
{
	nvmlDevice_t dev;
	unsigned int m = 0;
	nvmlReturn_t r;
	if (nvml_load())
		return -1;
	if (!nv.GetHandleByUUID || !nv.GetMinorNumber) {
		snprintf(nv.why, sizeof(nv.why), "this NVML lacks nvmlDeviceGetHandleByUUID or nvmlDeviceGetMinorNumber");
		return -1;
	}
	if ((r = nv.GetHandleByUUID(uuid, &dev)) || (r = nv.GetMinorNumber(dev, &m))) {
		snprintf(nv.why, sizeof(nv.why), "NVML cannot read the minor number of %s: %s", uuid,
			 nv.ErrorString ? nv.ErrorString(r) : "error");
		return -1;
	}
	return (int)m;
}

int gpu_nvml_compute_capability(int index, int *major, int *minor)
{
	nvmlDevice_t dev;
	if (nvml_device(index, &dev))
		return -1;
	if (!nv.GetCudaComputeCapability || nv.GetCudaComputeCapability(dev, major, minor)) {
		snprintf(nv.why, sizeof(nv.why), "NVML cannot read the compute capability");
		return -1;
	}
	return 0;
}

static const struct {
	unsigned long long bit;
	const char *name;
	int distorts_timing;
} throttle_bits[] = {
	{ 0x1ULL, "gpu_idle", 0 },
	{ 0x2ULL, "applications_clocks_setting", 0 },
	{ 0x4ULL, "sw_power_cap", 1 },
	{ 0x8ULL, "hw_slowdown", 1 },
	{ 0x10ULL, "sync_boost", 0 },
	{ 0x20ULL, "sw_thermal_slowdown", 1 },
	{ 0x40ULL, "hw_thermal_slowdown", 1 },
	{ 0x80ULL, "hw_power_brake_slowdown", 1 },
	{ 0x100ULL, "display_clock_setting", 0 },
};

int gpu_nvml_clock(int index, double *sm_mhz, int *throttled)
{
	nvmlDevice_t dev;
	unsigned u = 0;
	unsigned long long mask = 0;
	*sm_mhz = -1;
	*throttled = 0;
	if (nvml_device(index, &dev))
		return -1;
	if (nv.GetClockInfo && !nv.GetClockInfo(dev, NVML_CLOCK_SM, &u))
		*sm_mhz = u;
	if (nv.GetThrottleReasons && !nv.GetThrottleReasons(dev, &mask))
		for (size_t i = 0; i < sizeof(throttle_bits) / sizeof(throttle_bits[0]); i++)
			if ((mask & throttle_bits[i].bit) && throttle_bits[i].distorts_timing)
				*throttled = 1;
	return 0;
}


json_t *gpu_nvml_throttle_names(unsigned long long mask, int timing_only)
{
	json_t *a = json_array();
	unsigned long long known = 0;
	for (size_t i = 0; i < ARRAY_SIZE(throttle_bits); i++) {
		known |= throttle_bits[i].bit;
		if ((mask & throttle_bits[i].bit) && (!timing_only || throttle_bits[i].distorts_timing))
			json_array_append_new(a, json_string(throttle_bits[i].name));
	}
	if (!timing_only && (mask & ~known))
		json_array_append_new(a, json_string("unknown"));
	return a;
}

json_t *gpu_nvml_info(int index)
{
	nvmlDevice_t dev;
	json_t *o;
	char buf[256];
	int a, b;
	unsigned int u;
	nvmlMemory_t mem;

	if (nvml_device(index, &dev))
		return NULL;
	o = json_object();
	json_object_set_new(o, "source", json_string("nvml"));
	json_object_set_new(o, "index", json_integer(index));
	if (nv.GetName && !nv.GetName(dev, buf, sizeof(buf)))
		json_object_set_new(o, "name", json_string(buf));
	if (nv.GetUUID && !nv.GetUUID(dev, buf, sizeof(buf)))
		json_object_set_new(o, "uuid", json_string(buf));
	if (nv.GetCudaComputeCapability && !nv.GetCudaComputeCapability(dev, &a, &b)) {
		snprintf(buf, sizeof(buf), "%d.%d", a, b);
		json_object_set_new(o, "compute_capability", json_string(buf));
	}
	if (nv.SystemGetDriverVersion && !nv.SystemGetDriverVersion(buf, sizeof(buf)))
		json_object_set_new(o, "driver_version", json_string(buf));
	if (nv.SystemGetNVMLVersion && !nv.SystemGetNVMLVersion(buf, sizeof(buf)))
		json_object_set_new(o, "nvml_version", json_string(buf));
	if (nv.SystemGetCudaDriverVersion && !nv.SystemGetCudaDriverVersion(&a)) {
		snprintf(buf, sizeof(buf), "%d.%d", a / 1000, (a % 1000) / 10);
		json_object_set_new(o, "cuda_driver_version", json_string(buf));
	}
	if (nv.GetPersistenceMode && !nv.GetPersistenceMode(dev, &a))
		json_object_set_new(o, "persistence_mode", json_boolean(a));
	if (nv.GetMemoryInfo && !nv.GetMemoryInfo(dev, &mem))
		json_object_set_new(o, "memory_total_bytes", json_integer((json_int_t)mem.total));
	if (nv.GetPowerManagementLimit && !nv.GetPowerManagementLimit(dev, &u))
		json_object_set_new(o, "power_limit_w", json_real(u / 1000.0));
	if (nv.GetEnforcedPowerLimit && !nv.GetEnforcedPowerLimit(dev, &u))
		json_object_set_new(o, "power_limit_enforced_w", json_real(u / 1000.0));
	if (nv.GetMaxClockInfo && !nv.GetMaxClockInfo(dev, NVML_CLOCK_SM, &u))
		json_object_set_new(o, "max_sm_clock_mhz", json_integer(u));
	if (nv.GetMaxClockInfo && !nv.GetMaxClockInfo(dev, NVML_CLOCK_MEM, &u))
		json_object_set_new(o, "max_mem_clock_mhz", json_integer(u));
	if (nv.GetEccMode && !nv.GetEccMode(dev, &a, &b)) {
		json_object_set_new(o, "ecc_enabled", json_boolean(a));
		json_object_set_new(o, "ecc_pending", json_boolean(b));
	}
	return o;
}

/* /proc/PID/comm of a process, or NULL (other containers' pids are often
 * invisible). */
static json_t *proc_name(unsigned pid)
{
	char path[64];
	struct strbuf sb = STRBUF_INIT;
	json_t *j = NULL;
	int quiet = util_quiet;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if (!path_exists(path))
		return NULL;
	util_quiet = 1;
	if (!read_file(path, &sb)) {
		rtrim(sb.buf);
		j = json_string(sb.buf);
	}
	util_quiet = quiet;
	strbuf_release(&sb);
	return j;
}

json_t *gpu_nvml_state(int index)
{
	nvmlDevice_t dev;
	json_t *o, *t;
	unsigned int u, m;
	unsigned long long ull;
	int ps;
	char now[32];
	nvmlUtilization_t ut;

	if (nvml_device(index, &dev))
		return NULL;
	o = json_object();
	utc_now_iso(now, sizeof(now));
	json_object_set_new(o, "time", json_string(now));
	if (nv.GetClockInfo && !nv.GetClockInfo(dev, NVML_CLOCK_SM, &u))
		json_object_set_new(o, "sm_clock_mhz", json_integer(u));
	if (nv.GetMaxClockInfo && !nv.GetMaxClockInfo(dev, NVML_CLOCK_SM, &m))
		json_object_set_new(o, "sm_clock_max_mhz", json_integer(m));
	if (nv.GetClockInfo && !nv.GetClockInfo(dev, NVML_CLOCK_MEM, &u))
		json_object_set_new(o, "mem_clock_mhz", json_integer(u));
	if (nv.GetMaxClockInfo && !nv.GetMaxClockInfo(dev, NVML_CLOCK_MEM, &m))
		json_object_set_new(o, "mem_clock_max_mhz", json_integer(m));
	if (nv.GetTemperature && !nv.GetTemperature(dev, NVML_TEMPERATURE_GPU, &u))
		json_object_set_new(o, "temperature_c", json_integer(u));
	if (nv.GetPowerUsage && !nv.GetPowerUsage(dev, &u))
		json_object_set_new(o, "power_w", json_real(u / 1000.0));
	if (nv.GetEnforcedPowerLimit && !nv.GetEnforcedPowerLimit(dev, &u))
		json_object_set_new(o, "power_limit_w", json_real(u / 1000.0));
	if (nv.GetThrottleReasons && !nv.GetThrottleReasons(dev, &ull)) {
		t = json_object();
		json_object_set_new(t, "mask", json_integer((json_int_t)ull));
		json_object_set_new(t, "reasons", gpu_nvml_throttle_names(ull, 0));
		json_object_set_new(t, "distorting_timing", gpu_nvml_throttle_names(ull, 1));
		/* the runner's flag: a reason that makes timings unrepresentative */
		json_object_set_new(o, "throttled",
				    json_boolean(json_array_size(json_object_get(t, "distorting_timing"))));
		json_object_set_new(o, "throttle", t);
	}
	if (nv.GetTotalEccErrors) {
		unsigned long long c = 0, uc = 0;
		if (!nv.GetTotalEccErrors(dev, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC, &c) &&
		    !nv.GetTotalEccErrors(dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC, &uc))
			json_object_set_new(o, "ecc_volatile",
					    json_pack("{s:I, s:I}", "corrected", (json_int_t)c,
						      "uncorrected", (json_int_t)uc));
	}
	if (nv.GetComputeProcs) {
		nvmlProcessInfo_t procs[64];
		unsigned int n = ARRAY_SIZE(procs);
		nvmlReturn_t r = nv.GetComputeProcs(dev, &n, procs);
		if (!r || r == NVML_ERROR_INSUFFICIENT_SIZE) {
			json_t *a = json_array();
			if (r)
				n = ARRAY_SIZE(procs);
			for (unsigned i = 0; i < n && i < ARRAY_SIZE(procs); i++) {
				json_t *p = json_pack("{s:i, s:I}", "pid", (int)procs[i].pid,
						      "used_memory_bytes",
						      (json_int_t)procs[i].usedGpuMemory);
				json_t *nm = proc_name(procs[i].pid);
				if (nm)
					json_object_set_new(p, "name", nm);
				if ((pid_t)procs[i].pid == getpid())
					json_object_set_new(p, "self", json_true());
				json_array_append_new(a, p);
			}
			json_object_set_new(o, "compute_processes", a);
			if (r)
				json_object_set_new(o, "compute_processes_truncated", json_true());
		}
	}
	if (nv.GetPerformanceState && !nv.GetPerformanceState(dev, &ps))
		json_object_set_new(o, "pstate", json_integer(ps));
	if (nv.GetUtilization && !nv.GetUtilization(dev, &ut))
		json_object_set_new(o, "utilization",
				    json_pack("{s:i, s:i}", "gpu_pct", (int)ut.gpu, "memory_pct",
					      (int)ut.memory));
	return o;
}
