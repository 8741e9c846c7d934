/*
 * fake_nvml.c - a stand-in for libnvidia-ml.so.1 that keeps NVML's one
 * rule test_nvml_fork checks: its state belongs to the process that called
 * nvmlInit_v2, and in a process forked after it every call answers
 * NVML_ERROR_UNINITIALIZED (1) until that process initialises again (what
 * the real library did in a pool slot on an H200 pair).  Two GPUs,
 * "GPU-fake-0" and "GPU-fake-1", minor numbers 0 and 1.  Built as
 * build/tests/libfake_nvml.so; nothing here allocates.
 */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef void *nvmlDevice_t;

static pid_t inited = -1;
static long handles[2] = { 0, 1 };

/* 0 where this process initialised NVML, else NVML_ERROR_UNINITIALIZED */
static nvmlReturn_t ready(void)
{
	return inited == getpid() ? 0 : 1;
}

nvmlReturn_t nvmlInit_v2(void)
{
	inited = getpid();
	return 0;
}

const char *nvmlErrorString(nvmlReturn_t r)
{
	return r == 1 ? "Uninitialized" : r ? "Unknown Error" : "Success";
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
	if (ready())
		return ready();
	*n = 2;
	return 0;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *dev)
{
	if (ready())
		return ready();
	if (i > 1)
		return 2; /* NVML_ERROR_INVALID_ARGUMENT */
	*dev = &handles[i];
	return 0;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t dev, char *buf, unsigned int len)
{
	if (ready())
		return ready();
	snprintf(buf, len, "GPU-fake-%ld", *(long *)dev);
	return 0;
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *dev)
{
	if (ready())
		return ready();
	for (int i = 0; i < 2; i++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "GPU-fake-%d", i);
		if (!strcmp(buf, uuid)) {
			*dev = &handles[i];
			return 0;
		}
	}
	return 6; /* NVML_ERROR_NOT_FOUND */
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t dev, unsigned int *minor)
{
	if (ready())
		return ready();
	*minor = (unsigned int)*(long *)dev;
	return 0;
}
