/*
 * harness.cu - lib/libevident_cuda.so, every CUDA call the runner makes.
 *
 * The cuda backend's worker process (src/backends/backend_cuda.c) dlopen()s this
 * library and drives it through the table returned by evident_cuda_api()
 * (src/backends/cuda/evident_cuda.h has the contract).  Keeping CUDA here means the
 * runner binary links no CUDA library and starts on machines with no
 * driver; and since the kernel objects are built with `-cudart shared`, the
 * harness and the kernel share one libcudart, so the stream created here is
 * the stream the kernel launches on.
 *
 * What lives here: the device's properties, tensor allocation, host float
 * -> fp16/bf16 conversion, output poisoning and scrambling, the sealed
 * plan's capture and replay (seal.cu) and the timing loop.  No cuBLAS is
 * linked (the GPU references are the problems' own, run in the checker;
 * a sealed kernel's box holds no cuBLAS): its version is read where the
 * worker can load it.
 *
 * The timing loop is built so that a kernel cannot tell a timed launch from
 * another and cannot hide work from the clock (evident_cuda.h has the
 * sample sequence): every sample rotates the input set, scrambles every
 * output (scramble.h) and flushes L2 in the same order; a blocking kernel
 * (nvbench's idea) holds the stream while the host runs launch(), so the
 * events time device work and not the launcher's host latency; CUPTI's
 * activity API, dlopen()ed at run time, gives a second clock (the kernels'
 * own start and end) and, with its callback API, which kernels and copies
 * each launch() issued and on which stream, so that work on other streams,
 * work still running after the stop event, and work from other threads
 * are visible.  The harness decides nothing: the caller's callback gets
 * every sample and says when to stop.
 *
 * Every CUDA call is checked; the first error is returned as its
 * cudaError_t value, with "cudaErrorX: text (where)" in the caller's err.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cublas_v2.h> /* types only: nothing of cuBLAS is linked */
#include <library_types.h>
#include <cupti.h> /* types only: libcupti is dlopen()ed, nothing is linked */

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evident_cuda.h"
#include "seal.h"
#include "../scramble.h"
#include "../sigseal.h"

static_assert(EVC_MAX_GRAPHS == EVS_MAX_GRAPHS, "protocol.c and the checker count graphs as the harness does");

/* The poison patterns, kept equal to problem.h (which is C, not included
 * here to keep its C declarations out of this C++ unit); a static_assert in
 * backend_cuda.c checks they agree. */
#define EVC_POISON_F32 0x7fc0deadu
#define EVC_POISON_F16 0x7e5bu
#define EVC_POISON_BF16 0x7fdeu

/* The blocking kernel's flag, in host memory mapped into the device. */
struct evc_block_flag {
	volatile unsigned release;   /* the host writes the generation to release */
	volatile unsigned timed_out; /* the kernel writes the generation it gave up on */
};

struct evc_ctx {
	int device;
	int sm_count;
	cudaStream_t stream;
	long long l2_bytes;
	void *d_flush;
	size_t flush_bytes;
	void *buffers[EVC_MAX_BUFFERS];
	size_t buffer_bytes[EVC_MAX_BUFFERS];
	struct evc_block_flag *h_block;   /* cudaHostAlloc, mapped */
	struct evc_block_flag *d_block;   /* its device address */
	unsigned block_gen;
	unsigned long long *d_ruler;      /* the ruler's %globaltimer at its start and end
					   * (cudaMalloc'd by evc_time_kernel, after every buffer
					   * of the kernel's: an allocation in evc_open moved the
					   * sealed planner's layout, and red team 35's farbias,
					   * refused there before, crashed; run_sample copies it
					   * to its stack: mapped host memory is a trust: host
					   * thread's to edit) */
};

static int set_err(int code, char *err, size_t errlen, const char *where)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s (%s)", cudaGetErrorName((cudaError_t)code),
			 cudaGetErrorString((cudaError_t)code), where);
	return code;
}

/* CK(call, "where"): return the error of a CUDA runtime call. */
#define CK(call, where)                                                  \
	do {                                                             \
		cudaError_t ck_e_ = (call);                              \
		if (ck_e_ != cudaSuccess)                                \
			return set_err((int)ck_e_, err, errlen, where);  \
	} while (0)

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- errors -------------------------------------------------------- */

static int evc_kind(int code)
{
	switch ((cudaError_t)code) {
	case cudaSuccess:
		return EVC_OK;
	case cudaErrorNoDevice:
	case cudaErrorInsufficientDriver:
	case cudaErrorInvalidDevice:
	case cudaErrorDevicesUnavailable:
	case cudaErrorSystemDriverMismatch:
	case cudaErrorCompatNotSupportedOnDevice:
	case cudaErrorStubLibrary:
	case cudaErrorSystemNotReady:
		return EVC_NO_DEVICE;
	case cudaErrorInvalidConfiguration:
	case cudaErrorInvalidValue:
	case cudaErrorLaunchOutOfResources:
	case cudaErrorInvalidDeviceFunction:
	case cudaErrorNoKernelImageForDevice:
	case cudaErrorInvalidKernelImage:
	case cudaErrorInvalidPtx:
	case cudaErrorUnsupportedPtxVersion:
	case cudaErrorSharedObjectInitFailed:
	case cudaErrorCooperativeLaunchTooLarge:
	case cudaErrorInvalidPitchValue:
		return EVC_LAUNCH;
	case cudaErrorIllegalAddress:
	case cudaErrorMisalignedAddress:
	case cudaErrorLaunchFailure:
	case cudaErrorLaunchTimeout:
	case cudaErrorHardwareStackError:
	case cudaErrorIllegalInstruction:
	case cudaErrorInvalidAddressSpace:
	case cudaErrorInvalidPc:
	case cudaErrorAssert:
	case cudaErrorECCUncorrectable:
	case cudaErrorContextIsDestroyed:
		return EVC_CRASH;
	default:
		return EVC_OTHER;
	}
}

static const char *evc_error_name(int code)
{
	return cudaGetErrorName((cudaError_t)code);
}

static const char *evc_error_string(int code)
{
	return cudaGetErrorString((cudaError_t)code);
}

/* ---- device -------------------------------------------------------- */

static void cupti_claim(void);
static int cupti_begin(void);

static int evc_watch_plan_calls(void);

static int evc_open(int device, struct evc_ctx **out, struct evc_device_info *info, char *err,
		    size_t errlen)
{
	int count = 0;
	cudaDeviceProp p;
	struct evc_ctx *c;

	*out = NULL;
	memset(info, 0, sizeof(*info));
	CK(cudaDriverGetVersion(&info->driver_version), "cudaDriverGetVersion");
	CK(cudaRuntimeGetVersion(&info->runtime_version), "cudaRuntimeGetVersion");
	CK(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
	if (device < 0 || device >= count)
		return set_err(cudaErrorInvalidDevice, err, errlen, "device ordinal out of range");
	CK(cudaSetDevice(device), "cudaSetDevice");
	CK(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");

	info->device = device;
	snprintf(info->name, sizeof(info->name), "%s", p.name);
	{
		const unsigned char *u = (const unsigned char *)p.uuid.bytes;
		snprintf(info->uuid, sizeof(info->uuid),
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
			 u[12], u[13], u[14], u[15]);
	}
	CK(cudaDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof(info->pci_bus_id), device),
	   "cudaDeviceGetPCIBusId");
	info->cc_major = p.major;
	info->cc_minor = p.minor;
	info->sm_count = p.multiProcessorCount;
	info->l2_bytes = p.l2CacheSize;
	info->persisting_l2_max_bytes = p.persistingL2CacheMaxSize;
	info->smem_per_block = (long long)p.sharedMemPerBlock;
	info->smem_per_block_optin = (long long)p.sharedMemPerBlockOptin;
	info->smem_per_sm = (long long)p.sharedMemPerMultiprocessor;
	info->regs_per_block = p.regsPerBlock;
	info->regs_per_sm = p.regsPerMultiprocessor;
	info->global_mem_bytes = (long long)p.totalGlobalMem;
	info->max_threads_per_block = p.maxThreadsPerBlock;
	info->warp_size = p.warpSize;
	info->ecc_enabled = p.ECCEnabled;
	{
		/* cuBLAS's version, where the worker can load it: the harness
		 * links no cuBLAS (a sealed kernel's box of copies has none, and
		 * copying its 600 MB into every box would cost more than the
		 * launch), a trust: host kernel that names it loads it anyway */
		char so[32];
		snprintf(so, sizeof(so), "libcublas.so.%d", CUBLAS_VER_MAJOR);
		void *lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
		decltype(&cublasGetProperty) prop =
			lib ? (decltype(&cublasGetProperty))dlsym(lib, "cublasGetProperty") : NULL;
		int ma = 0, mi = 0, pa = 0;
		if (prop && prop(MAJOR_VERSION, &ma) == CUBLAS_STATUS_SUCCESS &&
		    prop(MINOR_VERSION, &mi) == CUBLAS_STATUS_SUCCESS && prop(PATCH_LEVEL, &pa) == CUBLAS_STATUS_SUCCESS)
			info->cublas_version = ma * 10000 + mi * 100 + pa;
	}

	c = (struct evc_ctx *)calloc(1, sizeof(*c));
	if (!c)
		return set_err(cudaErrorMemoryAllocation, err, errlen, "host calloc");
	c->device = device;
	c->sm_count = p.multiProcessorCount;
	c->l2_bytes = info->l2_bytes;
	{
		cudaError_t e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
		if (e == cudaSuccess)
			e = cudaHostAlloc((void **)&c->h_block, sizeof(*c->h_block),
					  cudaHostAllocMapped | cudaHostAllocPortable);
		if (e == cudaSuccess) {
			memset((void *)c->h_block, 0, sizeof(*c->h_block));
			e = cudaHostGetDevicePointer((void **)&c->d_block, (void *)c->h_block, 0);
		}
		if (e != cudaSuccess) {
			if (c->h_block)
				cudaFreeHost((void *)c->h_block);
			if (c->stream)
				cudaStreamDestroy(c->stream);
			free(c);
			return set_err((int)e, err, errlen, "open: stream and blocking flag");
		}
	}
	*out = c;
	cupti_claim(); /* before any kernel object loads (cupti_claim) */
	evc_watch_plan_calls(); /* the same: a sealed plan's configuration calls */
	return 0;
}

static void cupti_shutdown(void);

/* Zero a buffer and free it, so that the next allocation (another
 * variant's process may get the same memory) finds none of its data. */
static void clear_and_free(struct evc_ctx *c, void *d_ptr, size_t bytes)
{
	if (cudaMemsetAsync(d_ptr, 0, bytes, c->stream) == cudaSuccess)
		cudaStreamSynchronize(c->stream);
	cudaFree(d_ptr);
}

/* Frees everything the context owns, zeroing the buffers first.  Errors
 * are ignored: after a sticky error the context is dead and the process is
 * about to exit anyway. */
static void evc_close(struct evc_ctx *c)
{
	if (!c)
		return;
	cupti_shutdown();
	seal_unload();
	for (int i = 0; i < EVC_MAX_BUFFERS; i++)
		if (c->buffers[i])
			clear_and_free(c, c->buffers[i], c->buffer_bytes[i]);
	if (c->d_flush)
		cudaFree(c->d_flush);
	if (c->h_block)
		cudaFreeHost((void *)c->h_block);
	if (c->d_ruler)
		cudaFree(c->d_ruler);
	if (c->stream)
		cudaStreamDestroy(c->stream);
	free(c);
}

static void *evc_stream(struct evc_ctx *c)
{
	return (void *)c->stream;
}

static size_t elem_size(int dtype)
{
	switch (dtype) {
	case EV_F32: return 4;
	case EV_F16: return 2;
	case EV_BF16: return 2;
	case EV_F64: return 8;
	default: return 0;
	}
}

/* ---- buffers ------------------------------------------------------- */

static int evc_alloc(struct evc_ctx *c, int dtype, size_t numel, void **d_ptr, char *err,
		     size_t errlen)
{
	size_t es = elem_size(dtype);
	int slot = -1;

	*d_ptr = NULL;
	if (!es)
		return set_err(cudaErrorInvalidValue, err, errlen, "alloc: unknown dtype");
	for (int i = 0; i < EVC_MAX_BUFFERS; i++)
		if (!c->buffers[i]) {
			slot = i;
			break;
		}
	if (slot < 0)
		return set_err(cudaErrorMemoryAllocation, err, errlen, "alloc: too many buffers");
	/* at least 256 bytes so that a zero-element tensor is still a valid pointer */
	CK(cudaMalloc(d_ptr, numel * es > 256 ? numel * es : 256), "cudaMalloc");
	c->buffers[slot] = *d_ptr;
	c->buffer_bytes[slot] = numel * es > 256 ? numel * es : 256;
	return 0;
}

static void evc_free_buffer(struct evc_ctx *c, void *d_ptr)
{
	for (int i = 0; i < EVC_MAX_BUFFERS; i++)
		if (d_ptr && c->buffers[i] == d_ptr) {
			clear_and_free(c, d_ptr, c->buffer_bytes[i]);
			c->buffers[i] = NULL;
			c->buffer_bytes[i] = 0;
		}
}

static int evc_upload_floats(struct evc_ctx *c, void *d_dst, int dtype, const float *h_src,
			     size_t numel, char *err, size_t errlen)
{
	size_t es = elem_size(dtype);
	void *h = NULL;
	cudaError_t e;

	if (!es || dtype == EV_F64)
		return set_err(cudaErrorInvalidValue, err, errlen, "upload: unsupported dtype");
	if (dtype == EV_F32) {
		CK(cudaMemcpyAsync(d_dst, h_src, numel * 4, cudaMemcpyHostToDevice, c->stream),
		   "cudaMemcpyAsync upload");
		CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize upload");
		return 0;
	}
	h = malloc(numel * es + 1);
	if (!h)
		return set_err(cudaErrorMemoryAllocation, err, errlen, "upload: host malloc");
	if (dtype == EV_F16) {
		__half *p = (__half *)h;
		for (size_t i = 0; i < numel; i++)
			p[i] = __float2half_rn(h_src[i]);
	} else {
		__nv_bfloat16 *p = (__nv_bfloat16 *)h;
		for (size_t i = 0; i < numel; i++)
			p[i] = __float2bfloat16_rn(h_src[i]);
	}
	e = cudaMemcpyAsync(d_dst, h, numel * es, cudaMemcpyHostToDevice, c->stream);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(c->stream);
	free(h);
	if (e != cudaSuccess)
		return set_err((int)e, err, errlen, "upload");
	return 0;
}

__global__ void evc_harness_poison_fill16(uint16_t *p, size_t n, uint16_t v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = v;
}

__global__ void evc_harness_poison_fill32(uint32_t *p, size_t n, uint32_t v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = v;
}

static int evc_poison(struct evc_ctx *c, void *d_dst, int dtype, size_t numel, char *err,
		      size_t errlen)
{
	unsigned blocks = (unsigned)((numel + 255) / 256);
	if (blocks > 4096)
		blocks = 4096;
	if (!blocks)
		return 0;
	switch (dtype) {
	case EV_F16:
		evc_harness_poison_fill16<<<blocks, 256, 0, c->stream>>>((uint16_t *)d_dst, numel,
								    EVC_POISON_F16);
		break;
	case EV_BF16:
		evc_harness_poison_fill16<<<blocks, 256, 0, c->stream>>>((uint16_t *)d_dst, numel,
								    EVC_POISON_BF16);
		break;
	case EV_F32:
		evc_harness_poison_fill32<<<blocks, 256, 0, c->stream>>>((uint32_t *)d_dst, numel,
								    EVC_POISON_F32);
		break;
	default:
		return set_err(cudaErrorInvalidValue, err, errlen, "poison: unsupported dtype");
	}
	CK(cudaGetLastError(), "poison_fill launch");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize poison");
	return 0;
}

static int evc_download(struct evc_ctx *c, void *h_dst, const void *d_src, size_t bytes,
			char *err, size_t errlen)
{
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize before download");
	CK(cudaMemcpyAsync(h_dst, d_src, bytes, cudaMemcpyDeviceToHost, c->stream),
	   "cudaMemcpyAsync download");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize download");
	return 0;
}

/* a CUDA call that fails: its error into err, then to fail */
#define CKG(call, where)                                                            \
	do {                                                                        \
		cudaError_t ckg_e_ = (call);                                        \
		if (ckg_e_ != cudaSuccess) {                                        \
			rc = set_err((int)ckg_e_, err, errlen, where);              \
			goto fail;                                                  \
		}                                                                   \
	} while (0)

/* ---- scramble, copy, clear, upload ---------------------------------- */

/* Fill bytes at p with the scramble stream of key (scramble.h): 8-byte
 * stores when p is 8-byte aligned (cudaMalloc's always are), else bytes. */
/* dst[k] = evs_mix_bit(key, t, k') ? b[k] : a[k], element by element (fresh
 * inputs), k' = evs_mix_elem(k, fold): the problem's fold (all 0: k' = k) */
template <typename E>
__global__ void evc_harness_mix(E *dst, const E *a, const E *b, size_t n, uint64_t key, uint32_t t, uint64_t inner,
			   uint64_t len, uint64_t mod)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += stride)
		dst[k] = evs_mix_bit(key, t, evs_mix_elem(k, inner, len, mod)) ? b[k] : a[k];
}

static int enqueue_mix(struct evc_ctx *c, void *dst, const void *a, const void *b, size_t bytes, int elem,
		       uint64_t key, uint32_t t, const uint64_t *fold)
{
	const uint64_t none[3] = { 0, 0, 0 }, *f = fold ? fold : none;
	size_t n = bytes / (size_t)elem;
	int blocks = (int)((n + 255) / 256 < (size_t)c->sm_count * 8 ? (n + 255) / 256 : (size_t)c->sm_count * 8);
	if (blocks < 1)
		blocks = 1;
	if (elem == 2)
		evc_harness_mix<uint16_t><<<blocks, 256, 0, c->stream>>>((uint16_t *)dst, (const uint16_t *)a,
								   (const uint16_t *)b, n, key, t, f[0], f[1], f[2]);
	else if (elem == 4)
		evc_harness_mix<uint32_t><<<blocks, 256, 0, c->stream>>>((uint32_t *)dst, (const uint32_t *)a,
								   (const uint32_t *)b, n, key, t, f[0], f[1], f[2]);
	else
		evc_harness_mix<uint64_t><<<blocks, 256, 0, c->stream>>>((uint64_t *)dst, (const uint64_t *)a,
								   (const uint64_t *)b, n, key, t, f[0], f[1], f[2]);
	return (int)cudaGetLastError();
}

__global__ void evc_harness_scramble(unsigned char *p, size_t bytes, uint64_t key)
{
	size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	if (((uintptr_t)p & 7) == 0) {
		uint64_t *q = (uint64_t *)p;
		size_t nw = bytes >> 3;
		for (size_t w = tid; w < nw; w += stride)
			q[w] = evs_word(key, w);
		if (tid == 0)
			for (size_t b = nw << 3; b < bytes; b++)
				p[b] = evs_byte(key, b);
	} else {
		for (size_t b = tid; b < bytes; b += stride)
			p[b] = evs_byte(key, b);
	}
}

/* Enqueue the scramble of one buffer; returns a cudaError_t value. */
static int enqueue_scramble(struct evc_ctx *c, void *d_ptr, size_t bytes, uint64_t key)
{
	size_t blocks = (bytes / 8 + 256) / 256;
	size_t max_blocks = (size_t)(c->sm_count > 0 ? c->sm_count : 80) * 8;
	if (!bytes)
		return cudaSuccess;
	if (blocks > max_blocks)
		blocks = max_blocks;
	evc_harness_scramble<<<(unsigned)blocks, 256, 0, c->stream>>>((unsigned char *)d_ptr, bytes, key);
	return (int)cudaGetLastError();
}

static int evc_scramble(struct evc_ctx *c, void *d_ptr, size_t bytes, uint64_t seed, uint64_t i,
			uint32_t j, uint32_t o, char *err, size_t errlen)
{
	int rc = enqueue_scramble(c, d_ptr, bytes, evs_key(seed, i, j, o));
	if (rc)
		return set_err(rc, err, errlen, "evc_harness_scramble launch");
	return 0;
}

static int evc_copy(struct evc_ctx *c, void *d_dst, const void *d_src, size_t bytes, char *err,
		    size_t errlen)
{
	CK(cudaMemcpyAsync(d_dst, d_src, bytes, cudaMemcpyDeviceToDevice, c->stream),
	   "cudaMemcpyAsync device to device");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize copy");
	return 0;
}

static int evc_clear(struct evc_ctx *c, void *d_ptr, size_t bytes, char *err, size_t errlen)
{
	CK(cudaMemsetAsync(d_ptr, 0, bytes, c->stream), "cudaMemsetAsync clear");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize clear");
	return 0;
}

static int evc_upload(struct evc_ctx *c, void *d_dst, const void *h_src, size_t bytes, char *err,
		      size_t errlen)
{
	CK(cudaMemcpyAsync(d_dst, h_src, bytes, cudaMemcpyHostToDevice, c->stream),
	   "cudaMemcpyAsync upload");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize upload");
	return 0;
}

/* ---- the blocking kernel -------------------------------------------- */

#define EVC_BLOCK_TIMEOUT_MS 100.0

__device__ __forceinline__ unsigned long long global_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/*
 * Spin until the host writes generation `gen` (or later) into f->release,
 * or until timeout_ns of %globaltimer passed; then write gen into
 * f->timed_out.  One thread: it holds the stream, not the device.
 */
__global__ void evc_harness_block(struct evc_block_flag *f, unsigned gen, unsigned long long timeout_ns)
{
	unsigned long long t0 = global_ns();
	while ((int)(f->release - gen) < 0) {
		if (global_ns() - t0 > timeout_ns) {
			f->timed_out = gen;
			return;
		}
		__nanosleep(128);
	}
}

/*
 * The ruler (red team 80's tsfit): one thread spins spin_ns of
 * %globaltimer and writes where it started and ended.  Its CUPTI record
 * is the kernel clock's conversion of the same device interval, so the
 * two against each other are the kernel clock's rate (run_sample,
 * cupti_attribute).  %globaltimer is the device's; a CPU clock a trust:
 * host kernel hands CUPTI (cuptiActivityRegisterTimestampCallback) sets
 * the slope of every record's conversion and never this register.
 */
__global__ void evc_harness_ruler(unsigned long long *out, unsigned long long spin_ns)
{
	unsigned long long t0 = global_ns(), t;
	do
		t = global_ns();
	while (t - t0 < spin_ns);
	out[0] = t0;
	out[1] = t;
}

static unsigned long long block_timeout_ns(double ms)
{
	return (unsigned long long)((ms > 0 ? ms : EVC_BLOCK_TIMEOUT_MS) * 1e6);
}

static void block_release(struct evc_ctx *c, unsigned gen)
{
	__atomic_store_n((unsigned *)&c->h_block->release, gen, __ATOMIC_SEQ_CST);
}

/* Entries in /proc/self/task: the process's threads; -1 if unreadable. */
static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* ---- CUPTI: the kernel clock ---------------------------------------- */

/*
 * libcupti is loaded at run time, so the harness starts where it is
 * missing and says why it ran on events alone.  Two CUPTI interfaces are
 * used.  The activity API delivers a record of every kernel
 * (CONCURRENT_KERNEL, which unlike KIND_KERNEL does not serialise
 * kernels), memcpy and memset: start, end, stream and the correlation id
 * of the API call that issued it (a graph's nodes carry the id of the
 * cudaGraphLaunch).  The callback API on the whole runtime and driver
 * domains sorts the ids as they are issued: calls from any thread while
 * launch() runs (the window) are the launch's; calls by the harness thread
 * around its own last operation before the start event are the anchor
 * (its record gives the harness stream's id and, with the event time, the
 * stop event's time on CUPTI's clock); calls by other threads outside the
 * window are stray, and every stray id is kept for the process's life
 * (up to CU_STRAY_MAX; past it every later sample is incomplete): a ring
 * of 1024 forgot them, and red team 24's helper thread pushed its hidden
 * kernel's id out with 1536 cheap calls before releasing it, after the
 * stop event, where a record of an unknown id was ignored.  Everything
 * here is process-wide, guarded by cu_mu;
 * callbacks make no CUDA call and the harness makes none under the lock.
 *
 * A graph launched in the window onto the harness stream (its launch's
 * parameters name that stream) is ordered there as a whole: the stream's
 * next work, the stop event, waits for every node, so the records of its
 * nodes (by the launch's correlation id) are the harness stream's even
 * where CUPTI files a branch under a stream of the driver's own (red
 * team 41's graph2: an honest graph of two unjoined kernels was
 * other_stream).  Only what carries that id is excused: work another
 * stream runs after an event-record node of the graph is its own launch,
 * with its own id (other_stream, or stray off the window); late and early
 * apply to the graph's records as to any other; a graph launched on any
 * other stream stays other_stream.
 */
enum { WIN_NONE = 0, WIN_LAUNCH = 1, WIN_ANCHOR = 2, WIN_RULER = 3 };
enum { REC_KERNEL = 1, REC_COPY = 2 };
#define CU_LAUNCH_CAP 4096
#define CU_ANCHOR_CAP 16
#define CU_STRAY_MAX (1 << 20)
#define CU_OWED_MAX 4096
#define EVC_LATE_SLACK_US 5.0  /* CUPTI end after the stop event (start before the
				* start event) by more: late (early) */
/* the ruler's spin (evc_harness_ruler): long beside the microsecond the
 * record's start and end lie outside it (0.99 us on an H200: a rate of
 * 1.0198 at a 50 us spin in every run of S40, 2026-12-02), short beside a
 * timed sample's own overhead (scramble, flush, output copy) */
#define EVC_RULER_US 100.0
#define EVC_EV0_GAP_US 20.0    /* the start event at most this after the anchor's end */

struct cupti_rec {
	uint64_t start, end;
	uint32_t corr, stream;
	int kind;
};

static pthread_mutex_t cu_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int tried, loaded, registered, subscribed, active;
	char why[256];
	uint32_t version;
	decltype(&cuptiGetVersion) get_version;
	decltype(&cuptiGetResultString) result_string;
	decltype(&cuptiActivityRegisterCallbacks) register_callbacks;
	decltype(&cuptiActivityEnable) enable;
	decltype(&cuptiActivityDisable) disable;
	decltype(&cuptiActivityFlushAll) flush_all;
	decltype(&cuptiActivityGetNextRecord) next_record;
	decltype(&cuptiActivityGetNumDroppedRecords) num_dropped;
	decltype(&cuptiSubscribe) subscribe;
	decltype(&cuptiUnsubscribe) unsubscribe;
	decltype(&cuptiEnableDomain) enable_domain;
	decltype(&cuptiEnableCallback) enable_callback;
	decltype(&cuptiGetCallbackName) callback_name;
	decltype(&cuptiGetCallbackState) callback_state; /* optional (evc_modules_watched) */
	CUpti_SubscriberHandle sub;
	pthread_t harness_thread;
	int window; /* WIN_*; atomic */
	uint32_t launch_ids[CU_LAUNCH_CAP];
	int n_launch, launch_overflow;
	/* the window's kernel launches (cupti_is_launch), each of which must
	 * have a record; a stream capture begun in the window (its launches
	 * make none) */
	uint32_t kl_ids[CU_LAUNCH_CAP];
	unsigned char kl_owes[CU_LAUNCH_CAP]; /* OWE_*: the record it owes */
	int n_kl, captured;
	/* the window's graph launches onto the harness stream (graph2, red
	 * team 41): a graph launched on a stream is ordered there as a whole
	 * (the stream's next work, the stop event included, waits for every
	 * node), yet CUPTI files the records of a branch under a stream of
	 * the driver's own; records of these ids count as the harness
	 * stream's.  Sorted in cupti_attribute. */
	uint32_t graph_own_ids[CU_LAUNCH_CAP];
	int n_graph_own;
	/* the stream the timed launch() is given (evc_time_kernel sets it;
	 * atomic: the callbacks read it on any thread) */
	CUstream harness_stream;
	uint32_t anchor_ids[CU_ANCHOR_CAP];
	int n_anchor;
	uint32_t ruler_ids[CU_ANCHOR_CAP]; /* the ruler's launch (WIN_RULER), as the anchor's */
	int n_ruler;
	uint32_t *stray_ids; /* every stray call's id (cupti_shutdown frees) */
	/* the stray calls that launch, copy or memset (cupti_is_launch), each
	 * of which owes its record as a call of the window does: kept until
	 * its record arrives (cupti_buf_completed), and unrecorded when the
	 * device was synchronised after the call and a flush still brought
	 * none (cupti_attribute; gen: owe_gen when the call was made) */
	struct owed_stray {
		uint32_t id, gen;
		unsigned char owes, seen;
	} owed[CU_OWED_MAX];
	int n_owed;
	uint32_t owe_gen;
	long long n_stray, cap_stray, n_stray_sorted;
	int stray_overflow; /* sticky: an id could not be kept */
	struct cupti_rec *recs;
	int n_recs, cap_recs, recs_overflow;
	long long dropped;
} cu;

static const char *cupti_result(CUptiResult r)
{
	const char *s = NULL;
	if (cu.result_string && cu.result_string(r, &s) == CUPTI_SUCCESS && s)
		return s;
	return "unknown CUPTI error";
}

/* the record a call of the window owes: a kernel's, any (a graph's
 * nodes), a copy's or memset's */
enum { OWE_KERNEL, OWE_ANY, OWE_COPY };

/*
 * The calls that enqueue a copy or a memset, by domain and callback id
 * (cupti_mark_copies: every cudaMemcpy*, cudaMemset*, cuMemcpy*,
 * cuMemset*, cu64Memcpy* and cu64Memset* CUPTI names), each of which
 * owes a copy record as a launch owes a kernel's: red team 43's hostcopy
 * turned CUPTI's copy records off around copies on a stream of its own
 * while the harness stream waited for the start event, so neither clock
 * nor any record saw them.
 */
static unsigned char copy_rt[CUPTI_RUNTIME_TRACE_CBID_SIZE], copy_drv[CUPTI_DRIVER_TRACE_CBID_SIZE];

static void cupti_mark_copies(void)
{
	static const char *const rt[] = { "cudaMemcpy", "cudaMemset" };
	static const char *const drv[] = { "cuMemcpy", "cuMemset", "cu64Memcpy", "cu64Memset" };
	const char *n;
	/* each callback's name asked once, then matched against every prefix */
	for (uint32_t k = 0; k < CUPTI_RUNTIME_TRACE_CBID_SIZE; k++)
		if (cu.callback_name(CUPTI_CB_DOMAIN_RUNTIME_API, k, &n) == CUPTI_SUCCESS && n)
			for (size_t j = 0; j < sizeof(rt) / sizeof(rt[0]); j++)
				copy_rt[k] |= !strncmp(n, rt[j], strlen(rt[j]));
	for (uint32_t k = 0; k < CUPTI_DRIVER_TRACE_CBID_SIZE; k++)
		if (cu.callback_name(CUPTI_CB_DOMAIN_DRIVER_API, k, &n) == CUPTI_SUCCESS && n)
			for (size_t j = 0; j < sizeof(drv) / sizeof(drv[0]); j++)
				copy_drv[k] |= !strncmp(n, drv[j], strlen(drv[j]));
}

/*
 * A call that launches one kernel: 1 for the runtime's, 2 for the
 * driver's; 3 for a stream capture's start (its launches make no record);
 * 4 for a graph's launch (its nodes' records carry its id: at least one);
 * 5 for a copy or memset (cupti_mark_copies: a copy's record); else 0.
 */
static int cupti_is_launch(CUpti_CallbackDomain dom, CUpti_CallbackId cbid)
{
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE && copy_rt[cbid])
		return 5;
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE && copy_drv[cbid])
		return 5;
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API)
		switch (cbid) {
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000:
			return 1;
		case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030:
		case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030:
			return 3;
		case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
			return 4;
		default:
			return 0;
		}
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API)
		switch (cbid) {
		case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice:
			return 2;
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
		case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
			return 3;
		case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
		case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
			return 4;
		default:
			return 0;
		}
	return 0;
}

/*
 * A copy or memset call (cupti_is_launch 5) that moves no bytes, by its
 * own arguments as CUPTI hands them to the callback: the runtime's 1-D
 * cudaMemcpy, cudaMemcpyAsync, cudaMemset, cudaMemsetAsync (and their
 * per-thread forms) and the driver's 1-D async copies and memsets.  CUDA
 * returns success for such a call, enqueues nothing and makes no record
 * for it, so it owes none (red team 290 row 2, a denial measured on an
 * H100: an honest trust: host launch() whose cudaMemsetAsync or
 * cudaMemcpyAsync was 0 bytes at the spec's shape was escaped_work, every
 * sample "unrecorded").  The count is the call's own, read at its entry,
 * and the call does what its arguments say: a copy of any other form
 * (2-D, 3-D, peer, arrays, symbols, batches), or one without parameters,
 * still owes its record however little it moves.
 */
static int copy_moves_nothing(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
	const void *p = cd->functionParams;
	if (!p)
		return 0;
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API)
		switch (cbid) {
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
			return ((const cudaMemcpy_v3020_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
			return ((const cudaMemcpy_ptds_v7000_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
			return ((const cudaMemcpyAsync_v3020_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
			return ((const cudaMemcpyAsync_ptsz_v7000_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
			return ((const cudaMemset_v3020_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
			return ((const cudaMemset_ptds_v7000_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
			return ((const cudaMemsetAsync_v3020_params *)p)->count == 0;
		case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000:
			return ((const cudaMemsetAsync_ptsz_v7000_params *)p)->count == 0;
		default:
			return 0;
		}
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API)
		switch (cbid) {
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync:
			return ((const cuMemcpyAsync_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz:
			return ((const cuMemcpyAsync_ptsz_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2:
			return ((const cuMemcpyDtoDAsync_v2_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz:
			return ((const cuMemcpyDtoDAsync_v2_ptsz_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2:
			return ((const cuMemcpyHtoDAsync_v2_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz:
			return ((const cuMemcpyHtoDAsync_v2_ptsz_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2:
			return ((const cuMemcpyDtoHAsync_v2_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz:
			return ((const cuMemcpyDtoHAsync_v2_ptsz_params *)p)->ByteCount == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async:
			return ((const cuMemsetD8Async_params *)p)->N == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz:
			return ((const cuMemsetD8Async_ptsz_params *)p)->N == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async:
			return ((const cuMemsetD16Async_params *)p)->N == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz:
			return ((const cuMemsetD16Async_ptsz_params *)p)->N == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async:
			return ((const cuMemsetD32Async_params *)p)->N == 0;
		case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz:
			return ((const cuMemsetD32Async_ptsz_params *)p)->N == 0;
		default:
			return 0;
		}
	return 0;
}

/* this thread is inside a runtime launch, copy or memset: the driver call
 * it makes is the same operation (its record carries the runtime call's
 * id) */
static __thread int rt_launching;
/* the nodes of the graph the harness itself is replaying on this thread
 * (graph mode's timed launch), else -1 */
static __thread int own_graph_nodes = -1;

/*
 * The stream a graph launch (cupti_is_launch 4) names, from its
 * parameters: the runtime's cudaGraphLaunch (and _ptsz) or the driver's
 * cuGraphLaunch (and _ptsz); NULL when the call is of another kind or
 * has no parameters (NULL is also the legacy default stream, never the
 * harness's, which is one of its own).
 */
static CUstream graph_launch_stream(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
	if (!cd->functionParams)
		return NULL;
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API) {
		if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000)
			return (CUstream)((const cudaGraphLaunch_v10000_params *)cd->functionParams)->stream;
		if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000)
			return (CUstream)((const cudaGraphLaunch_ptsz_v10000_params *)cd->functionParams)->stream;
	} else if (dom == CUPTI_CB_DOMAIN_DRIVER_API) {
		if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch)
			return ((const cuGraphLaunch_params *)cd->functionParams)->hStream;
		if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
			return ((const cuGraphLaunch_ptsz_params *)cd->functionParams)->hStream;
	}
	return NULL;
}

/* Texture and surface objects made since evc_watch_tex_objects (the
 * driver's create calls, runtime ones included: the runtime makes them
 * through the driver), and destroyed. */
static unsigned long tex_objects_made, tex_objects_destroyed;

/*
 * What the process asked of the driver that a sealed replay must know and
 * no captured node holds (evc_watch_plan_calls): the cache configuration
 * set on a function (cuFuncSetCacheConfig, cudaFuncSetCacheConfig under
 * it) or on the context (cuCtxSetCacheConfig, cudaDeviceSetCacheConfig),
 * and, while seal_capture watches launches, the shared memory carveout a
 * launch asked for by attribute and the first attribute a replay does not
 * carry (red team 48: carve_launch and cache_func ran 8.2 us sealed, 15.4
 * us in their processes, the L1/shared split the process asked for left
 * out).  Written from CUPTI's callbacks on the kernel's threads, read by
 * seal_capture on the harness thread: under plan_mu.
 */
#define PLAN_FUNCS 256
#define PLAN_ATTRS 7 /* plan_attrs' */
static pthread_mutex_t plan_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const void *f; /* a CUfunction, or a CUkernel (the runtime's, context-independent) */
	int cache, carve; /* -1: not asked (carve: by a launch attribute, while launch() was captured) */
	int plain_launch; /* launched while launch() was captured without a carveout launch attribute */
	int at_read;      /* at[] holds what a watched launch of it ran at */
	int at[PLAN_ATTRS]; /* the function's attributes there (plan_attrs; INT_MIN: unread) */
} plan_funcs[PLAN_FUNCS];

/* The function attributes a sealed plan reads after launch()'s third call
 * (seal.cu kernel_step) and sets once in the replay: each watched launch
 * must have run at the values read then (plan_launch_seen,
 * evc_plan_launch_check; red team 179's clusreset cleared its required
 * cluster before each launch and set it after, so the replay ran
 * clusters its process never ran). */
static const struct {
	CUfunction_attribute id;
	const char *name;
} plan_attrs[] = {
	{ CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, "shared memory carveout" },
	{ CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "maximum dynamic shared memory" },
	{ CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, "non-portable cluster size" },
	{ CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, "cluster scheduling policy" },
	{ CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, "required cluster width" },
	{ CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, "required cluster height" },
	{ CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, "required cluster depth" },
};
static_assert(sizeof(plan_attrs) / sizeof(plan_attrs[0]) == PLAN_ATTRS, "plan_attrs and PLAN_ATTRS");
/* the context's cache configuration at the watched launches (INT_MIN: no
 * launch yet) */
static int launch_ctx_cache = INT_MIN;
static int n_plan_funcs, plan_funcs_over, ctx_cache = -1, launch_watch, plan_watch_ok, green_made;
static char plan_refused[400];

/* the first reason a watched call gives a sealed replay to refuse (under
 * plan_mu) */
static void plan_refuse(const char *why)
{
	if (!plan_refused[0])
		snprintf(plan_refused, sizeof(plan_refused), "%s", why);
}

/* f's entry (made where there is none); NULL when the table is full.
 * Under plan_mu. */
static int plan_func(const void *f)
{
	for (int i = 0; i < n_plan_funcs; i++)
		if (plan_funcs[i].f == f)
			return i;
	if (n_plan_funcs == PLAN_FUNCS) {
		plan_funcs_over = 1;
		return -1;
	}
	plan_funcs[n_plan_funcs] = {};
	plan_funcs[n_plan_funcs].f = f;
	plan_funcs[n_plan_funcs].cache = plan_funcs[n_plan_funcs].carve = -1;
	return n_plan_funcs++;
}

/*
 * The rule for what a sealed plan sets once, before its launches (a
 * function's or kernel's carveout and cache configuration, the context's
 * cache configuration): while launch()'s second and third calls are
 * watched, a call that changes one of them from the value in force is
 * refused.  A replay sets each once, at load, so a value changed between
 * the watched launches is one the replay cannot follow, and the plan
 * reads the values after the third call, so a value changed after the
 * last launch is one no launch ran at: red team 172's carvereset and
 * cachereset (set before each launch, reset after it), red team 176's
 * ctxreset (the same on the context: 8.22 us sealed against 15.71 us in
 * its process on an H200) and thirdreset (set back in the third call
 * only, one value in the watch).  Values set in init() or launch()'s
 * first call, and the same value set again in every call, are no change
 * and are carried.  Under plan_mu.
 */
static void plan_config_change(const char *what, int from, int to)
{
	if (from == to || !__atomic_load_n(&launch_watch, __ATOMIC_RELAXED))
		return;
	char why[400];
	snprintf(why, sizeof(why),
		 "launch() changed %s from %d to %d after init() and its first call, which a sealed replay sets "
		 "once, before its launches (set it in init(), or to one value in every call)",
		 what, from, to);
	plan_refuse(why);
}

/* f (a CUfunction or CUkernel) was given cache configuration config: kept
 * for the plan, and a change while launch() is watched refused
 * (plan_config_change; a function never set is at PREFER_NONE) */
static void plan_cache_set(const void *f, int config)
{
	pthread_mutex_lock(&plan_mu);
	int i = plan_func(f);
	if (i >= 0) {
		int was = plan_funcs[i].cache >= 0 ? plan_funcs[i].cache : (int)CU_FUNC_CACHE_PREFER_NONE;
		plan_config_change("a kernel's cache configuration", was, config);
		plan_funcs[i].cache = config;
	}
	pthread_mutex_unlock(&plan_mu);
}

/*
 * A launch of f (a CUfunction, or a CUkernel passed as one) while launch()
 * is watched, with or without a carveout launch attribute (lcarve -1:
 * without).  The plan carries one carveout a function, so a function
 * launched at two carveouts by attribute, or with the attribute and
 * without it (at the function's own carveout: red team 176's mixcarve,
 * 13.47 us sealed against 20.72 us in its process, both launches
 * replayed at the attribute's 100), is refused (the latter by
 * evc_plan_func_config, which sees both of a function's handles).  And
 * what the launch ran at, read from the driver by the caller before it
 * locks (own_carve, the function's carveout; ctx, the context's cache
 * configuration; INT_MIN where unread): the same at every watched launch,
 * and compared by kernel_step with what the plan replays
 * (evc_plan_launch_config), whatever call changed it, watched or not.
 * Under plan_mu.
 */
static void plan_launch_seen(const void *f, int lcarve, const int *own, int ctx)
{
	if (ctx != INT_MIN) {
		if (launch_ctx_cache != INT_MIN && launch_ctx_cache != ctx)
			plan_refuse("launch()'s launches ran under two context cache configurations, which a sealed "
				    "replay sets once");
		launch_ctx_cache = ctx;
	}
	int i = plan_func(f);
	if (i < 0)
		return;
	for (int a = 0; a < PLAN_ATTRS; a++) {
		if (plan_funcs[i].at_read && own[a] != INT_MIN && plan_funcs[i].at[a] != INT_MIN &&
		    own[a] != plan_funcs[i].at[a]) {
			char why[200];
			snprintf(why, sizeof(why), "launch() launched one kernel at two values of its %s, which a sealed "
						   "replay sets once", plan_attrs[a].name);
			plan_refuse(why);
		}
		plan_funcs[i].at[a] = own[a];
	}
	plan_funcs[i].at_read = 1;
	if (lcarve < 0) {
		plan_funcs[i].plain_launch = 1;
	} else if (plan_funcs[i].carve >= 0 && plan_funcs[i].carve != lcarve) {
		plan_refuse("launch() launches one kernel at two shared memory carveouts (launch attributes), which a "
			    "sealed replay does not tell apart");
	} else {
		plan_funcs[i].carve = lcarve;
	}
}

/* what a watched launch of f ran at, read before plan_mu is taken
 * (plan_launch_seen): the function's own attributes (own[], plan_attrs;
 * INT_MIN where the driver does not answer), the context's cache
 * configuration (*ctx) */
static void launch_config_now(const void *f, int *own, int *ctx)
{
	CUfunc_cache c = CU_FUNC_CACHE_PREFER_NONE;
	/* where the driver does not read f as a function (a CUkernel passed
	 * as one, as the runtime's launches may: red team 179's clusreset was
	 * not seen by this reading on an H200) nothing is read (INT_MIN), and
	 * the watch on the setters (plan_config_change) is what holds.  Reading the CUkernel's own attributes instead
	 * refused an honest kernel on an H200 (red team 179's fnset: its
	 * function's carveout set, the CUkernel's read -1); reading the
	 * context's function of it (cuKernelGetFunction) is not measured yet. */
	for (int a = 0; a < PLAN_ATTRS; a++) {
		int v = 0;
		own[a] = cuFuncGetAttribute(&v, plan_attrs[a].id, (CUfunction)f) == CUDA_SUCCESS ? v : INT_MIN;
	}
	*ctx = cuCtxGetCacheConfig(&c) == CUDA_SUCCESS ? (int)c : INT_MIN;
}

/*
 * Memory the kernel's code imported (external memory, an IPC handle, a
 * pool's or an allocation's shareable handle): the driver reads a mapping
 * of it as plain device memory (red team 243, measured on an H100: an
 * imported cuMemCreate allocation, and host NUMA memory imported, both
 * CU_MEMORYTYPE_DEVICE, not managed, unknown to
 * cuMemRetainAllocationHandle), and a sealed replay gives it a buffer of
 * its own: two mappings of one page replayed apart ran 10.4 us sealed
 * against 20.5 us in its process, host pages read over PCIe 44 against
 * 342 us.  The call's name, kept for evc_plan_refused.
 */
static char plan_import[64];
static void plan_import_seen(const CUpti_CallbackData *cd)
{
	int ok = !cd->functionReturnValue || *(const CUresult *)cd->functionReturnValue == CUDA_SUCCESS;
	if (cd->callbackSite != CUPTI_API_EXIT || !ok)
		return;
	pthread_mutex_lock(&plan_mu);
	if (!plan_import[0])
		snprintf(plan_import, sizeof(plan_import), "%s", cd->functionName ? cd->functionName : "an import");
	pthread_mutex_unlock(&plan_mu);
}

/* CUPTI's callback for the calls evc_watch_plan_calls watches: 1 when
 * cbid was one of them (nothing else of the callback applies to a
 * configuration call) */
static int plan_call_cb(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
	int ok = !cd->functionReturnValue || *(const CUresult *)cd->functionReturnValue == CUDA_SUCCESS;
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate:
	case CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate:
		return 1; /* counted above */
	case CUPTI_DRIVER_TRACE_CBID_cuTexObjectDestroy:
	case CUPTI_DRIVER_TRACE_CBID_cuSurfObjectDestroy:
		if (cd->callbackSite == CUPTI_API_EXIT && ok)
			__atomic_add_fetch(&tex_objects_destroyed, 1, __ATOMIC_RELAXED);
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute:
	case CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute:
		/* watched only while launch() is captured: a carveout changed
		 * from the one in force (read from the driver before the call)
		 * is refused (plan_config_change: red team 49's split_func, 172's
		 * carvereset, 176's thirdreset); the same value set in every
		 * call (as much library code does) is read back with the
		 * function's */
		if (cd->callbackSite == CUPTI_API_ENTER && cd->functionParams &&
		    __atomic_load_n(&launch_watch, __ATOMIC_RELAXED)) {
			int value, was = -1, a;
			CUfunction_attribute attrib;
			if (cbid == CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute) {
				const cuFuncSetAttribute_params *pp = (const cuFuncSetAttribute_params *)cd->functionParams;
				attrib = pp->attrib, value = pp->value;
				if (cuFuncGetAttribute(&was, attrib, pp->hfunc) != CUDA_SUCCESS)
					was = INT_MIN; /* unknown: any value is a change */
			} else {
				const cuKernelSetAttribute_params *pp = (const cuKernelSetAttribute_params *)cd->functionParams;
				attrib = pp->attrib, value = pp->val;
				if (cuKernelGetAttribute(&was, attrib, pp->kernel, pp->dev) != CUDA_SUCCESS)
					was = INT_MIN;
			}
			/* every attribute the plan reads after the third call (red
			 * team 179's clusreset: its required cluster cleared before
			 * each launch and set after) */
			for (a = 0; a < PLAN_ATTRS && plan_attrs[a].id != attrib; a++)
				;
			if (a == PLAN_ATTRS)
				return 1;
			char what[120];
			snprintf(what, sizeof(what), "a kernel's %s (cudaFuncSetAttribute)", plan_attrs[a].name);
			pthread_mutex_lock(&plan_mu);
			plan_config_change(what, was, value);
			pthread_mutex_unlock(&plan_mu);
		}
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate:
		/* a green context runs its launches on part of the device; a
		 * replay runs on the whole (red team 49's green) */
		if (cd->callbackSite == CUPTI_API_EXIT && ok)
			__atomic_store_n(&green_made, 1, __ATOMIC_RELAXED);
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuImportExternalMemory:
	case CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedBuffer:
	case CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedMipmappedArray:
	case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle:
	case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer:
	case CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportFromShareableHandle:
	case CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle:
		plan_import_seen(cd);
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig:
		if (cd->callbackSite == CUPTI_API_EXIT && ok && cd->functionParams) {
			const cuFuncSetCacheConfig_params *pp = (const cuFuncSetCacheConfig_params *)cd->functionParams;
			plan_cache_set(pp->hfunc, (int)pp->config);
		}
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig:
		/* the runtime's cudaFuncSetCacheConfig on a context-independent
		 * kernel */
		if (cd->callbackSite == CUPTI_API_EXIT && ok && cd->functionParams) {
			const cuKernelSetCacheConfig_params *pp = (const cuKernelSetCacheConfig_params *)cd->functionParams;
			plan_cache_set(pp->kernel, (int)pp->config);
			/* and under the kernel's function in this context, which is
			 * what a launch and its captured node may name (red team
			 * 179's kcache: PreferL1 set on the CUkernel, launched by
			 * its CUfunction, predicted replayed at the default) */
			CUfunction fn = NULL;
			if (cuKernelGetFunction(&fn, pp->kernel) == CUDA_SUCCESS && fn && (const void *)fn != pp->kernel)
				plan_cache_set(fn, (int)pp->config);
		}
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig:
		if (cd->callbackSite == CUPTI_API_ENTER && cd->functionParams &&
		    __atomic_load_n(&launch_watch, __ATOMIC_RELAXED)) {
			/* the context's, read from the driver before the call
			 * (plan_config_change: red team 176's ctxreset) */
			CUfunc_cache was = CU_FUNC_CACHE_PREFER_NONE;
			int from = cuCtxGetCacheConfig(&was) == CUDA_SUCCESS ? (int)was : INT_MIN;
			pthread_mutex_lock(&plan_mu);
			plan_config_change("the context's cache configuration (cudaDeviceSetCacheConfig)", from,
					   (int)((const cuCtxSetCacheConfig_params *)cd->functionParams)->config);
			pthread_mutex_unlock(&plan_mu);
		}
		if (cd->callbackSite == CUPTI_API_EXIT && ok && cd->functionParams)
			__atomic_store_n(&ctx_cache, (int)((const cuCtxSetCacheConfig_params *)cd->functionParams)->config,
					 __ATOMIC_RELAXED);
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphAddChildGraphNode:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetParams:
		/* a node launch() adds to a graph itself (the capture's, from
		 * cudaStreamGetCaptureInfo, or one it then launches) is a launch
		 * no launch callback sees, so none of the rules above (red team
		 * 179's addnode: red team 176's mixcarve with its second launch
		 * added by cudaGraphAddKernelNode, predicted replayed at the
		 * other launch's carveout) */
		if (cd->callbackSite == CUPTI_API_ENTER && __atomic_load_n(&launch_watch, __ATOMIC_RELAXED)) {
			pthread_mutex_lock(&plan_mu);
			plan_refuse("launch() built graph nodes itself (cudaGraphAddKernelNode, cudaGraphAddNode, a child "
				    "graph, or set a node's parameters), which a sealed plan does not follow");
			pthread_mutex_unlock(&plan_mu);
		}
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute:
	case CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeCopyAttributes:
		/* an attribute put on the node launch() just captured (found
		 * by cudaStreamGetCaptureInfo), which no launch names: red team
		 * 169's nodecarve set carveout 0 there, which reads back as a
		 * fresh node's (seal.cu node_attrs cannot tell it), and was
		 * replayed at the driver's split, 8.26 us against 15.68 us in
		 * its process (H200) */
		if (cd->callbackSite == CUPTI_API_ENTER && __atomic_load_n(&launch_watch, __ATOMIC_RELAXED)) {
			pthread_mutex_lock(&plan_mu);
			plan_refuse("launch() set launch attributes on a graph node (cudaGraphKernelNodeSetAttribute or "
				    "cudaGraphKernelNodeCopyAttributes), which a sealed replay does not carry");
			pthread_mutex_unlock(&plan_mu);
		}
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
		/* the params of both are laid out alike */
		if (cd->callbackSite != CUPTI_API_ENTER || !__atomic_load_n(&launch_watch, __ATOMIC_RELAXED) ||
		    !cd->functionParams)
			return 0;
		const cuLaunchKernelEx_params *pp = (const cuLaunchKernelEx_params *)cd->functionParams;
		const CUlaunchConfig *c = pp->config;
		int lcarve = -1, own[PLAN_ATTRS], ctx;
		for (unsigned k = 0; c && c->attrs && k < c->numAttrs; k++)
			if (c->attrs[k].id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
				lcarve = (int)c->attrs[k].value.sharedMemCarveout;
		launch_config_now(pp->f, own, &ctx);
		pthread_mutex_lock(&plan_mu);
		for (unsigned k = 0; c && c->attrs && k < c->numAttrs; k++) {
			CUlaunchAttributeID id = c->attrs[k].id;
			if (id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
				/* one value a function: the plan carries one a step's
				 * function (red team 49's split_launch: two launches of
				 * one kernel at carveouts 0 and 100 replayed both at 100;
				 * plan_launch_seen) */
			} else if (id != CU_LAUNCH_ATTRIBUTE_IGNORE && id != CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
				   id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
				   id != CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION && !plan_refused[0]) {
				snprintf(plan_refused, sizeof(plan_refused),
					 "a launch in launch() carries launch attribute %d, which a sealed replay does "
					 "not set",
					 (int)id);
			}
		}
		plan_launch_seen(pp->f, lcarve, own, ctx);
		pthread_mutex_unlock(&plan_mu);
		return 0; /* a launch: the rest of the callback applies */
	}
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		/* laid out alike: f first; a launch with no attributes, at the
		 * function's own carveout (plan_launch_seen) */
		if (cd->callbackSite == CUPTI_API_ENTER && cd->functionParams &&
		    __atomic_load_n(&launch_watch, __ATOMIC_RELAXED)) {
			const void *f = ((const cuLaunchKernel_params *)cd->functionParams)->f;
			int own[PLAN_ATTRS], ctx;
			launch_config_now(f, own, &ctx);
			pthread_mutex_lock(&plan_mu);
			plan_launch_seen(f, -1, own, ctx);
			pthread_mutex_unlock(&plan_mu);
		}
		return 0;
	default:
		return 0;
	}
}

/* evc_capture_watch's window (1 while launch()'s calls are captured) and
 * the calls made in it that enqueue work no activity record shows: a host
 * function, a stream memory write, wait or batch (red team 67's
 * memop_spoil and memop_gate: cuStreamWriteValue32 and cudaLaunchHostFunc
 * on an unjoined stream, no kernel there).  Captured, such work is a node
 * no plan holds either (steps_of refuses it), so every one is counted. */
static int side_watch;
static unsigned long side_ops;

static int side_op(CUpti_CallbackId cbid)
{
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2_ptsz:
		return 1;
	default:
		return 0;
	}
}

/* evc_watch_modules's callee (backends/modwatch.h) and its argument; mod_on
 * once the resource callback was enabled */
typedef void (*evc_module_fn)(void *arg, uint32_t id, const void *payload, size_t bytes);
static evc_module_fn mod_fn;
static void *mod_arg;
static int mod_on;

static void CUPTIAPI cupti_api_cb(void *userdata, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
				  const void *data)
{
	const CUpti_CallbackData *cd = (const CUpti_CallbackData *)data;
	int w, own, kl;
	(void)userdata;
	if (dom == CUPTI_CB_DOMAIN_RESOURCE) {
		/* a module loaded: the resource data's descriptor is the module's */
		evc_module_fn fn = __atomic_load_n(&mod_fn, __ATOMIC_ACQUIRE);
		const CUpti_ResourceData *rd = (const CUpti_ResourceData *)data;
		if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && fn && rd && rd->resourceDescriptor) {
			const CUpti_ModuleResourceData *md = (const CUpti_ModuleResourceData *)rd->resourceDescriptor;
			fn(__atomic_load_n(&mod_arg, __ATOMIC_ACQUIRE), md->moduleId, md->pCubin, md->cubinSize);
		}
		return;
	}
	if ((dom != CUPTI_CB_DOMAIN_RUNTIME_API && dom != CUPTI_CB_DOMAIN_DRIVER_API) || !cd)
		return;
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API && cd->callbackSite == CUPTI_API_EXIT &&
	    (cbid == CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate || cbid == CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate) &&
	    (!cd->functionReturnValue || *(const CUresult *)cd->functionReturnValue == CUDA_SUCCESS))
		__atomic_add_fetch(&tex_objects_made, 1, __ATOMIC_RELAXED);
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API && cd->callbackSite == CUPTI_API_ENTER &&
	    __atomic_load_n(&side_watch, __ATOMIC_RELAXED) && side_op(cbid))
		__atomic_add_fetch(&side_ops, 1, __ATOMIC_RELAXED);
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API && plan_call_cb(cbid, cd))
		return;
	kl = cupti_is_launch(dom, cbid);
	/* a graph launch, the runtime's or the driver's under it (either id
	 * may be the one its nodes' records carry) */
	int graph_call = kl == 4;
	if (cd->callbackSite != CUPTI_API_ENTER) {
		if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && (kl == 1 || kl == 4 || kl == 5))
			rt_launching = 0;
		return;
	}
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API && (kl == 1 || kl == 4 || kl == 5))
		rt_launching = 1;
	else if (dom == CUPTI_CB_DOMAIN_DRIVER_API && (kl == 2 || kl == 4 || kl == 5) && rt_launching)
		kl = 0; /* the runtime launch's own driver call */
	if (kl == 4 && own_graph_nodes == 0)
		kl = 0; /* the harness's replay of an empty graph */
	/* a copy or memset of 0 bytes: no work, no record (red team 290 row
	 * 2); kept out of every list, so a record CUPTI might still make of
	 * it (without timestamps) marks no sample */
	if (kl == 5 && copy_moves_nothing(dom, cbid, cd))
		return;
	w = __atomic_load_n(&cu.window, __ATOMIC_ACQUIRE);
	own = pthread_equal(pthread_self(), cu.harness_thread);
	if (w == WIN_NONE && own)
		return; /* the harness's own calls */
	pthread_mutex_lock(&cu_mu);
	if (w == WIN_LAUNCH) {
		if (cu.n_launch < CU_LAUNCH_CAP)
			cu.launch_ids[cu.n_launch++] = cd->correlationId;
		else
			cu.launch_overflow = 1;
		if (kl == 3)
			cu.captured = 1;
		else if (kl && cu.n_kl < CU_LAUNCH_CAP) {
			cu.kl_owes[cu.n_kl] = kl == 4 ? OWE_ANY : kl == 5 ? OWE_COPY : OWE_KERNEL;
			cu.kl_ids[cu.n_kl++] = cd->correlationId;
		}
		if (graph_call && cu.n_graph_own < CU_LAUNCH_CAP) {
			CUstream hs = __atomic_load_n(&cu.harness_stream, __ATOMIC_ACQUIRE);
			if (hs && graph_launch_stream(dom, cbid, cd) == hs)
				cu.graph_own_ids[cu.n_graph_own++] = cd->correlationId;
		}
	} else if (w == WIN_ANCHOR && own) {
		if (cu.n_anchor < CU_ANCHOR_CAP)
			cu.anchor_ids[cu.n_anchor++] = cd->correlationId;
	} else if (w == WIN_RULER && own) {
		if (cu.n_ruler < CU_ANCHOR_CAP)
			cu.ruler_ids[cu.n_ruler++] = cd->correlationId;
	} else if (!cu.stray_overflow) {
		if (cu.n_stray == cu.cap_stray) {
			long long cap = cu.cap_stray ? 2 * cu.cap_stray : 1024;
			uint32_t *ids = cap <= CU_STRAY_MAX
						? (uint32_t *)realloc(cu.stray_ids, (size_t)cap * sizeof(uint32_t))
						: NULL;
			if (ids) {
				cu.stray_ids = ids;
				cu.cap_stray = cap;
			}
		}
		if (cu.n_stray < cu.cap_stray)
			cu.stray_ids[cu.n_stray++] = cd->correlationId;
		else
			cu.stray_overflow = 1;
		if (kl && kl != 3) {
			if (cu.n_owed < CU_OWED_MAX)
				cu.owed[cu.n_owed++] = { cd->correlationId, cu.owe_gen,
							 (unsigned char)(kl == 4 ? OWE_ANY : kl == 5 ? OWE_COPY : OWE_KERNEL),
							 0 };
			else
				cu.stray_overflow = 1;
		}
	}
	pthread_mutex_unlock(&cu_mu);
}

static void CUPTIAPI cupti_buf_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*size = (size_t)1 << 20;
	*buffer = (uint8_t *)aligned_alloc(8, *size); /* NULL: CUPTI drops and counts */
	*max_records = 0;
}

/* under cu_mu: record x pays what a stray call owed (cu.owed) */
static void owed_paid(const struct cupti_rec *x)
{
	for (int k = 0; k < cu.n_owed; k++)
		if (cu.owed[k].id == x->corr &&
		    (cu.owed[k].owes == OWE_ANY || x->kind == (cu.owed[k].owes == OWE_COPY ? REC_COPY : REC_KERNEL)))
			cu.owed[k].seen = 1;
}

static void rec_push(const struct cupti_rec *x)
{
	owed_paid(x);
	if (cu.n_recs == cu.cap_recs) {
		int cap = cu.cap_recs ? 2 * cu.cap_recs : 4096;
		struct cupti_rec *r =
			(struct cupti_rec *)realloc(cu.recs, (size_t)cap * sizeof(*r));
		if (!r) {
			cu.recs_overflow = 1;
			return;
		}
		cu.recs = r;
		cu.cap_recs = cap;
	}
	cu.recs[cu.n_recs++] = *x;
}

static void CUPTIAPI cupti_buf_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
					size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;
	size_t dropped = 0;
	(void)size;
	pthread_mutex_lock(&cu_mu);
	while (buffer && valid && cu.next_record(buffer, valid, &r) == CUPTI_SUCCESS) {
		struct cupti_rec x;
		switch (r->kind) {
		case CUPTI_ACTIVITY_KIND_KERNEL:
		case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
			const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
			x = { k->start, k->end, k->correlationId, k->streamId, REC_KERNEL };
			rec_push(&x);
			break;
		}
		case CUPTI_ACTIVITY_KIND_MEMCPY: {
			const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)r;
			x = { m->start, m->end, m->correlationId, m->streamId, REC_COPY };
			rec_push(&x);
			break;
		}
		case CUPTI_ACTIVITY_KIND_MEMSET: {
			const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)r;
			x = { m->start, m->end, m->correlationId, m->streamId, REC_COPY };
			rec_push(&x);
			break;
		}
		default:
			break;
		}
	}
	if (cu.num_dropped && cu.num_dropped(ctx, stream_id, &dropped) == CUPTI_SUCCESS)
		cu.dropped += (long long)dropped;
	pthread_mutex_unlock(&cu_mu);
	free(buffer);
}

/* dlopen libcupti once per process; 0, or -1 with the reason in cu.why. */
static int cupti_load(void)
{
	char soname[32], paths[8][512];
	const char *homes[3] = { getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda" };
	void *lib = NULL;
	const char *dl = NULL;
	int np = 0;
	Dl_info info;

	if (cu.tried)
		return cu.loaded ? 0 : -1;
	cu.tried = 1;
	/* the soname of the toolkit this harness was built with, found through
	 * the loader's path and the harness's rpath first */
	snprintf(soname, sizeof(soname), "libcupti.so.%d", CUDART_VERSION / 1000);
	snprintf(paths[np++], sizeof(paths[0]), "%s", soname);
	for (int h = 0; h < 3; h++) {
		if (!homes[h] || !*homes[h])
			continue;
		snprintf(paths[np++], sizeof(paths[0]), "%s/lib64/%s", homes[h], soname);
		snprintf(paths[np++], sizeof(paths[0]), "%s/extras/CUPTI/lib64/%s", homes[h], soname);
		if (np > 6)
			break;
	}
	snprintf(paths[np++], sizeof(paths[0]), "libcupti.so");
	for (int k = 0; k < np && !lib; k++) {
		lib = dlopen(paths[k], RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			dl = dlerror();
	}
	if (!lib) {
		snprintf(cu.why, sizeof(cu.why),
			 "libcupti not found (%s; looked for %s in CUDA_HOME, CUDA_PATH and "
			 "/usr/local/cuda: lib64 and extras/CUPTI/lib64)",
			 dl ? dl : "dlopen failed", soname);
		return -1;
	}
#define CU_SYM(field, name)                                                               \
	do {                                                                              \
		*(void **)&cu.field = dlsym(lib, name);                                   \
		if (!cu.field) {                                                          \
			snprintf(cu.why, sizeof(cu.why), "libcupti lacks %s", name);      \
			return -1;                                                        \
		}                                                                         \
	} while (0)
	CU_SYM(get_version, "cuptiGetVersion");
	CU_SYM(result_string, "cuptiGetResultString");
	CU_SYM(register_callbacks, "cuptiActivityRegisterCallbacks");
	CU_SYM(enable, "cuptiActivityEnable");
	CU_SYM(disable, "cuptiActivityDisable");
	CU_SYM(flush_all, "cuptiActivityFlushAll");
	CU_SYM(next_record, "cuptiActivityGetNextRecord");
	CU_SYM(num_dropped, "cuptiActivityGetNumDroppedRecords");
	CU_SYM(subscribe, "cuptiSubscribe");
	CU_SYM(unsubscribe, "cuptiUnsubscribe");
	CU_SYM(enable_domain, "cuptiEnableDomain");
	CU_SYM(enable_callback, "cuptiEnableCallback");
	CU_SYM(callback_name, "cuptiGetCallbackName");
#undef CU_SYM
	*(void **)&cu.callback_state = dlsym(lib, "cuptiGetCallbackState");
	if (cu.get_version(&cu.version) != CUPTI_SUCCESS || cu.version / 10000 < CUPTI_API_VERSION / 10000) {
		snprintf(cu.why, sizeof(cu.why),
			 "libcupti's API version %u is older than the headers' %u (the harness reads "
			 "records in the newer layout)",
			 cu.version, (unsigned)CUPTI_API_VERSION);
		return -1;
	}
	snprintf(cu.why, sizeof(cu.why), "%s (CUPTI API %u)",
		 dladdr(*(void **)&cu.get_version, &info) && info.dli_fname ? info.dli_fname : soname,
		 cu.version);
	cupti_mark_copies();
	cu.loaded = 1;
	return 0;
}

static void cupti_reset_sample(void)
{
	pthread_mutex_lock(&cu_mu);
	cu.n_launch = 0;
	cu.n_kl = cu.captured = cu.n_graph_own = 0;
	cu.launch_overflow = 0;
	cu.n_anchor = cu.n_ruler = 0;
	cu.n_recs = 0;
	cu.recs_overflow = 0;
	pthread_mutex_unlock(&cu_mu);
}

static void cupti_window(int w)
{
	__atomic_store_n(&cu.window, w, __ATOMIC_RELEASE);
}

/* Turn activity records and the callbacks off (flushing what is left). */
static void cupti_end(void)
{
	if (!cu.active)
		return;
	cupti_window(WIN_NONE);
	cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	cu.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	cu.disable(CUPTI_ACTIVITY_KIND_MEMCPY);
	cu.disable(CUPTI_ACTIVITY_KIND_MEMSET);
	cu.enable_domain(0, cu.sub, CUPTI_CB_DOMAIN_RUNTIME_API);
	cu.enable_domain(0, cu.sub, CUPTI_CB_DOMAIN_DRIVER_API);
	cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	cupti_reset_sample();
	cu.active = 0;
}

/* Load CUPTI if need be, then turn records and callbacks on: 0, or -1
 * with the reason in cu.why (and CUPTI left off). */
/*
 * Take CUPTI's one subscription as the device opens, before the worker
 * loads a kernel object: a trust: host kernel whose constructor or init()
 * subscribed first left the harness's cupti_begin failing, and `clock:
 * auto` then timed it on CUDA events, which see no work on another thread's
 * stream before the start event (red team 25's follow-up).  Nothing is
 * enabled yet (cupti_begin does that for the timed samples); where the
 * subscription is held elsewhere (a profiler, compute-sanitizer) nothing
 * changes: cupti_begin fails as before and says why.
 */
static void cupti_claim(void)
{
	if (cupti_load())
		return;
	cu.harness_thread = pthread_self();
	if (!cu.registered && cu.register_callbacks(cupti_buf_requested, cupti_buf_completed) == CUPTI_SUCCESS)
		cu.registered = 1;
	if (cu.registered && !cu.subscribed &&
	    cu.subscribe(&cu.sub, (CUpti_CallbackFunc)cupti_api_cb, NULL) == CUPTI_SUCCESS)
		cu.subscribed = 1;
}

/*
 * The sealed planner's watch on texture and surface objects (seal.cu's
 * capture): CUPTI calls back on the driver's create calls from now on.
 * A handle is a small number the driver reuses once it is destroyed, so
 * an object launch() made and destroyed within its call leaves nothing
 * to find afterwards (red team 35's texdead: replayed in a fresh context,
 * its kernel read no texture, wrong_output).  0 when watching, -1 when
 * CUPTI cannot (the capture then finds live handles only).
 */
int evc_watch_tex_objects(void)
{
	static const CUpti_CallbackId ids[] = { CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate,
						CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate,
						CUPTI_DRIVER_TRACE_CBID_cuTexObjectDestroy,
						CUPTI_DRIVER_TRACE_CBID_cuSurfObjectDestroy };
	if (!cu.loaded || !cu.subscribed || !cu.enable_callback)
		return -1;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (cu.enable_callback(1, cu.sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]) != CUPTI_SUCCESS)
			return -1;
	return 0;
}

unsigned long evc_tex_objects_live(void)
{
	unsigned long m = __atomic_load_n(&tex_objects_made, __ATOMIC_RELAXED),
		      d = __atomic_load_n(&tex_objects_destroyed, __ATOMIC_RELAXED);
	return m > d ? m - d : 0;
}

/*
 * Watch, from the device's opening (before the kernel object's
 * constructors and init() run), the calls a sealed replay must repeat and
 * no captured node holds (plan_call_cb): texture and surface objects made
 * and destroyed, and the cache configuration of functions and of the
 * context.  0, or -1 when CUPTI cannot (then seal_capture watches the
 * textures around the capture only, as before).
 */
static int evc_watch_plan_calls(void)
{
	static const CUpti_CallbackId ids[] = { CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig,
						CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig,
						CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig,
						CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate,
						CUPTI_DRIVER_TRACE_CBID_cuImportExternalMemory,
						CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedBuffer,
						CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedMipmappedArray,
						CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle,
						CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2,
						CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer,
						CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportFromShareableHandle,
						CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle };
	if (evc_watch_tex_objects() < 0)
		return -1;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (cu.enable_callback(1, cu.sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]) != CUPTI_SUCCESS)
			return -1;
	plan_watch_ok = 1;
	return 0;
}

/*
 * The planner's watch on work launch() runs outside its capture (red team
 * 66: a kernel on a stream of the kernel's own, the legacy default stream
 * or the per-thread one, never joined to the captured stream by an event,
 * is legal in a relaxed capture, runs at once and is in no plan, so a
 * replay left it out: its effect on the outputs and its time; side_gate
 * was ok at 9.25 us sealed against 52.24 us joined on an H200).  Captured
 * work never runs, so it makes no activity record: on, the records are
 * turned on (cupti_begin) and what ran so far drained and dropped; off,
 * the device drained and the kernel, copy and memset records since
 * counted (an overflow counts one more), with every host function and
 * stream memory operation called in the window (side_op: no activity
 * record shows them; red team 67).  -1 where CUPTI cannot watch.
 */
int evc_capture_watch(int on)
{
	if (on) {
		if (cupti_begin() < 0)
			return -1;
		cuCtxSynchronize();
		cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
		cupti_reset_sample();
		__atomic_store_n(&side_ops, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&side_watch, 1, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_store_n(&side_watch, 0, __ATOMIC_RELAXED);
	if (!cu.active)
		return -1;
	cuCtxSynchronize();
	cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&cu_mu);
	int n = cu.n_recs + (cu.recs_overflow ? 1 : 0);
	pthread_mutex_unlock(&cu_mu);
	cupti_reset_sample();
	return n + (int)__atomic_load_n(&side_ops, __ATOMIC_RELAXED);
}

int evc_watch_launches(int on)
{
	if (!cu.loaded || !cu.subscribed || !cu.enable_callback)
		return -1;
	if (on) {
		pthread_mutex_lock(&plan_mu);
		launch_ctx_cache = INT_MIN;
		for (int i = 0; i < n_plan_funcs; i++)
			plan_funcs[i].at_read = 0;
		pthread_mutex_unlock(&plan_mu);
	}
	__atomic_store_n(&launch_watch, on, __ATOMIC_RELAXED);
	/* the launch callbacks themselves: on while a trust: host window is
	 * open too (cupti_begin enables the domains), so only ever turned on
	 * here */
	static const CUpti_CallbackId ids[] = { CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
						CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
						CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
						CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
						CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
						CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
						CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode,
						CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2,
						CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode,
						CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode_v2,
						CUPTI_DRIVER_TRACE_CBID_cuGraphAddChildGraphNode,
						CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams,
						CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2,
						CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetParams,
						CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute,
						CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute };
	for (size_t i = 0; on && i < sizeof(ids) / sizeof(ids[0]); i++)
		if (cu.enable_callback(1, cu.sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]) != CUPTI_SUCCESS)
			return -1;
	return 0;
}

int evc_plan_func_config(const void *f, const void *kern, int *cache, int *carve)
{
	pthread_mutex_lock(&plan_mu);
	*cache = __atomic_load_n(&ctx_cache, __ATOMIC_RELAXED);
	*carve = -1;
	/* the entries of both handles (the function's and its kernel's), each
	 * value from the ones that set it: an entry made later that set
	 * nothing (-1) erased the carveout another had kept (red team 172's
	 * lateentry); two handles that set two values are refused */
	int fcache = -1, twice = 0, plain = 0;
	for (int i = 0; i < n_plan_funcs; i++)
		if (plan_funcs[i].f && (plan_funcs[i].f == f || plan_funcs[i].f == kern)) {
			plain |= plan_funcs[i].plain_launch;
			if (plan_funcs[i].cache >= 0) {
				twice |= fcache >= 0 && fcache != plan_funcs[i].cache;
				fcache = plan_funcs[i].cache;
			}
			if (plan_funcs[i].carve >= 0) {
				twice |= *carve >= 0 && *carve != plan_funcs[i].carve;
				*carve = plan_funcs[i].carve;
			}
		}
	if (fcache >= 0)
		*cache = fcache;
	int over = plan_funcs_over;
	pthread_mutex_unlock(&plan_mu);
	return over ? -1 : twice ? -2 : *carve >= 0 && plain ? -3 : 0;
}

int evc_plan_launch_check(const void *f, const void *kern, char *why, size_t whylen)
{
	int now[PLAN_ATTRS], ctx_now;
	launch_config_now(f, now, &ctx_now);
	int rc = 0;
	pthread_mutex_lock(&plan_mu);
	if (launch_ctx_cache != INT_MIN && ctx_now != INT_MIN && launch_ctx_cache != ctx_now) {
		snprintf(why, whylen, "the context's cache configuration was %d at the launches and %d after launch()'s "
				      "third call", launch_ctx_cache, ctx_now);
		rc = -1;
	}
	for (int i = 0; !rc && i < n_plan_funcs; i++) {
		if (!plan_funcs[i].f || (plan_funcs[i].f != f && plan_funcs[i].f != kern) || !plan_funcs[i].at_read)
			continue;
		for (int a = 0; !rc && a < PLAN_ATTRS; a++)
			if (plan_funcs[i].at[a] != INT_MIN && now[a] != INT_MIN && plan_funcs[i].at[a] != now[a]) {
				snprintf(why, whylen, "its %s was %d at its launches and %d after launch()'s third call",
					 plan_attrs[a].name, plan_funcs[i].at[a], now[a]);
				rc = -1;
			}
	}
	pthread_mutex_unlock(&plan_mu);
	return rc;
}

const char *evc_plan_refused(void)
{
	pthread_mutex_lock(&plan_mu);
	if (__atomic_load_n(&green_made, __ATOMIC_RELAXED))
		plan_refuse("the kernel's code made a green context (part of the device's SMs): a sealed replay runs "
			    "on the whole device");
	if (plan_import[0]) {
		char why[256];
		snprintf(why, sizeof(why),
			 "the kernel's code imported memory (%s): a sealed replay gives it device memory of its own, "
			 "without the import's aliases or placement",
			 plan_import);
		plan_refuse(why);
	}
	const char *r = plan_refused[0] ? plan_refused : NULL;
	pthread_mutex_unlock(&plan_mu);
	return r;
}

int evc_plan_watch_was_on(void)
{
	return plan_watch_ok;
}

unsigned long evc_tex_objects_made(void)
{
	return __atomic_load_n(&tex_objects_made, __ATOMIC_RELAXED);
}

/*
 * CUPTI's activity state is the process's, not a subscriber's: any code
 * may register buffer callbacks of its own (CUPTI then hands every buffer
 * of records to them, to edit before passing on) or turn a kind of record
 * off and on around a launch (red team 26, rt26_cupti_rebind: a trust:
 * host kernel that gave its hidden side-stream kernel's record another
 * correlation id, or made none, read "faster").  After every return from
 * the kernel's code the harness registers its own callbacks again and
 * turns its kinds back on, so the flush that follows a sample hands its
 * records to the harness alone.  What a launch did while its records were
 * off is not recovered: that shows as the device still busy after the
 * stop event (the drain, job.c job_escapes) or as events far above the
 * kernel clock (clock_disagree).  Failures are ignored: the calls repeat
 * what cupti_begin already did, and where CUPTI refuses them it refused
 * the kernel's the same way.
 */
static void cupti_reassert(void)
{
	if (!cu.loaded)
		return;
	if (cu.registered)
		cu.register_callbacks(cupti_buf_requested, cupti_buf_completed);
	if (cu.active) {
		cu.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
		cu.enable(CUPTI_ACTIVITY_KIND_MEMCPY);
		cu.enable(CUPTI_ACTIVITY_KIND_MEMSET);
	}
}

static int cupti_begin(void)
{
	CUptiResult r;
	const char *step = "";

	if (cupti_load())
		return -1;
	if (cu.active)
		return 0;
	cu.harness_thread = pthread_self();
	if (!cu.registered) {
		r = cu.register_callbacks(cupti_buf_requested, cupti_buf_completed);
		if (r != CUPTI_SUCCESS) {
			step = "cuptiActivityRegisterCallbacks";
			goto fail;
		}
		cu.registered = 1;
	}
	if (!cu.subscribed) {
		/* fails when another tool (a profiler, compute-sanitizer) holds CUPTI */
		r = cu.subscribe(&cu.sub, (CUpti_CallbackFunc)cupti_api_cb, NULL);
		if (r != CUPTI_SUCCESS) {
			step = "cuptiSubscribe";
			goto fail;
		}
		cu.subscribed = 1;
	}
	cu.active = 1; /* from here cupti_end undoes whatever was turned on */
	if ((r = cu.enable_domain(1, cu.sub, CUPTI_CB_DOMAIN_RUNTIME_API)) != CUPTI_SUCCESS) {
		step = "cuptiEnableDomain runtime";
		goto fail;
	}
	if ((r = cu.enable_domain(1, cu.sub, CUPTI_CB_DOMAIN_DRIVER_API)) != CUPTI_SUCCESS) {
		step = "cuptiEnableDomain driver";
		goto fail;
	}
	if ((r = cu.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS) {
		step = "cuptiActivityEnable concurrent kernel";
		goto fail;
	}
	if ((r = cu.enable(CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS) {
		step = "cuptiActivityEnable memcpy";
		goto fail;
	}
	if ((r = cu.enable(CUPTI_ACTIVITY_KIND_MEMSET)) != CUPTI_SUCCESS) {
		step = "cuptiActivityEnable memset";
		goto fail;
	}
	return 0;
fail:
	/* keep the library's path in the message: it did load */
	{
		char loaded[sizeof(cu.why)];
		memcpy(loaded, cu.why, sizeof(loaded));
		/* (the return value is used: a long path may be cut, on purpose) */
		if (snprintf(cu.why, sizeof(cu.why), "%s: %s (libcupti %s)", step, cupti_result(r),
			     loaded) < 0)
			cu.why[0] = 0;
	}
	cupti_end();
	cu.loaded = 0; /* do not try again in this process */
	return -1;
}

static void cupti_shutdown(void)
{
	cupti_end();
	if (cu.subscribed) {
		cu.unsubscribe(cu.sub);
		cu.subscribed = 0;
	}
	pthread_mutex_lock(&cu_mu);
	free(cu.recs);
	cu.recs = NULL;
	cu.n_recs = cu.cap_recs = 0;
	free(cu.stray_ids);
	cu.stray_ids = NULL;
	cu.n_stray = cu.cap_stray = cu.n_stray_sorted = 0;
	cu.n_owed = 0;
	pthread_mutex_unlock(&cu_mu);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* under cu_mu, the stray ids sorted since the last call */
static int stray_has(uint32_t id)
{
	if (cu.n_stray_sorted != cu.n_stray) {
		qsort(cu.stray_ids, (size_t)cu.n_stray, sizeof(uint32_t), cmp_u32);
		cu.n_stray_sorted = cu.n_stray;
	}
	return cu.n_stray && bsearch(&id, cu.stray_ids, (size_t)cu.n_stray, sizeof(uint32_t), cmp_u32) != NULL;
}

/* under cu_mu, after cupti_attribute's sort: is id a graph launch of the
 * window onto the harness stream (cu.graph_own_ids)? */
static int graph_own(uint32_t id)
{
	return cu.n_graph_own &&
	       bsearch(&id, cu.graph_own_ids, (size_t)cu.n_graph_own, sizeof(uint32_t), cmp_u32) != NULL;
}

/*
 * After the drain: flush the records of the sample and attribute them.
 * The stop event's time on CUPTI's clock is the start event's plus the
 * event time; the start event's lies between the anchor's end and the
 * first own operation on the harness stream (below).
 */
static void cupti_attribute(double event_ms, int stream_mode, long long *dropped_seen,
			    struct evc_sample *s)
{
	const uint64_t slack_ns = (uint64_t)(EVC_LATE_SLACK_US * 1e3);
	uint64_t anchor_end = 0, first = UINT64_MAX, last = 0, t_stop, late_ns = 0;
	long long harness_stream = -1, kernel_ns = 0, copy_ns = 0;
	int incomplete = 0;

	cupti_reassert(); /* a thread of the kernel's may have registered its own since the window closed */
	cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&cu_mu);
	/* a stray call still owing its record (below) may have work that ran
	 * past the drain: synchronise the device and flush once more, so
	 * what was called before this point has had its every chance */
	uint32_t owe_due = cu.owe_gen;
	for (int k = 0; k < cu.n_owed; k++)
		if (!cu.owed[k].seen) {
			owe_due = ++cu.owe_gen;
			pthread_mutex_unlock(&cu_mu);
			(void)cudaDeviceSynchronize(); /* an error shows at the next sample's */
			cupti_reassert();
			cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
			pthread_mutex_lock(&cu_mu);
			break;
		}
	qsort(cu.launch_ids, (size_t)cu.n_launch, sizeof(uint32_t), cmp_u32);
	qsort(cu.graph_own_ids, (size_t)cu.n_graph_own, sizeof(uint32_t), cmp_u32);
	for (int k = 0; k < cu.n_recs; k++)
		for (int a = 0; a < cu.n_anchor; a++)
			if (cu.recs[k].corr == cu.anchor_ids[a] && cu.recs[k].end) {
				harness_stream = cu.recs[k].stream;
				if (cu.recs[k].end > anchor_end)
					anchor_end = cu.recs[k].end;
			}
	/* The start event lies between the anchor's end and the first of
	 * launch()'s operations on the harness stream (stream order); the
	 * anchor's end alone put the stop event early by the GPU's own gap to
	 * the event, and an honest graph batch's last kernel was "late" (4
	 * samples of an adaptive run on the H100).  So the later bound, but
	 * never more than EVC_EV0_GAP_US after the anchor: an idle start
	 * (the host still enqueueing) does not widen the window beyond that. */
	uint64_t ev0 = anchor_end;
	if (anchor_end && harness_stream >= 0) {
		uint64_t first_own = UINT64_MAX;
		for (int k = 0; k < cu.n_recs; k++) {
			const struct cupti_rec *r = &cu.recs[k];
			if (((long long)r->stream == harness_stream || graph_own(r->corr)) && r->start &&
			    r->start >= anchor_end &&
			    r->start < first_own &&
			    bsearch(&r->corr, cu.launch_ids, (size_t)cu.n_launch, sizeof(uint32_t), cmp_u32))
				first_own = r->start;
		}
		const uint64_t cap = anchor_end + (uint64_t)(EVC_EV0_GAP_US * 1e3);
		if (first_own != UINT64_MAX)
			ev0 = first_own < cap ? first_own : cap;
	}
	t_stop = anchor_end ? ev0 + (uint64_t)(event_ms * 1e6) : 0;
	s->kernels = s->copies = s->other_stream_kernels = s->stray = s->late = s->early = 0;
	for (int k = 0; k < cu.n_recs; k++) {
		const struct cupti_rec *r = &cu.recs[k];
		int mine = cu.n_launch && bsearch(&r->corr, cu.launch_ids, (size_t)cu.n_launch,
						  sizeof(uint32_t), cmp_u32) != NULL;
		if (!mine && !stray_has(r->corr))
			continue;
		if (!r->start || r->end < r->start) {
			incomplete = 1;
			continue;
		}
		if (mine) {
			if (r->kind == REC_KERNEL) {
				s->kernels++;
				kernel_ns += (long long)(r->end - r->start);
			} else {
				s->copies++;
				copy_ns += (long long)(r->end - r->start);
			}
			first = r->start < first ? r->start : first;
			last = r->end > last ? r->end : last;
			if (harness_stream >= 0 && (long long)r->stream != harness_stream && !graph_own(r->corr))
				s->other_stream_kernels++;
		} else {
			s->stray++;
		}
		if (t_stop && r->end > t_stop && r->end - t_stop > late_ns)
			late_ns = r->end - t_stop;
		if (t_stop && r->end > t_stop + slack_ns)
			s->late++;
		/* the start event follows the anchor's end */
		if (anchor_end && r->start + slack_ns < anchor_end)
			s->early++;
	}
	/* the ruler's record (run_sample): the kernel clock's reading of an
	 * interval the device's %globaltimer measured too */
	s->ruler_us = NAN;
	for (int k = 0; k < cu.n_recs; k++)
		for (int a = 0; a < cu.n_ruler; a++)
			if (cu.recs[k].corr == cu.ruler_ids[a] && cu.recs[k].kind == REC_KERNEL && cu.recs[k].start &&
			    cu.recs[k].end > cu.recs[k].start)
				s->ruler_us = (double)(cu.recs[k].end - cu.recs[k].start) * 1e-3;
		/* a ruler launched without its record: records were off while it
	 * ran (a thread of the kernel's can turn them off, red team 26), and
	 * the sample's clock is not vouched for */
	if (cu.n_ruler && !isfinite(s->ruler_us))
		incomplete = 1;
	if (harness_stream < 0 || cu.launch_overflow || cu.recs_overflow || cu.stray_overflow ||
	    cu.dropped != *dropped_seen)
		incomplete = 1;
	/* Every kernel launch, copy and memset of the window has its record.
	 * CUPTI's records are the process's to turn off: red team 26's toggle
	 * disabled concurrent-kernel records around a side-stream launch,
	 * which then had none, and its rows counted nowhere; red team 43's
	 * hostcopy did the same with copy records.  A call with no record,
	 * or a stream capture begun in the window (its launches make none),
	 * leaves the sample's device work unknown. */
	s->unrecorded = 0;
	for (int a = 0; a < cu.n_kl; a++) {
		int found = 0;
		for (int k = 0; k < cu.n_recs && !found; k++)
			found = cu.recs[k].corr == cu.kl_ids[a] &&
				(cu.kl_owes[a] == OWE_ANY ||
				 cu.recs[k].kind == (cu.kl_owes[a] == OWE_COPY ? REC_COPY : REC_KERNEL));
		s->unrecorded += !found;
	}
	/* a stray call made before the synchronisation above whose record
	 * the flush after it did not bring has none: its records were off
	 * (red team 44's stray: a thread of init()'s launched half the rows
	 * on a stream of its own as the window closed, records off, and they
	 * ran before the start event); one made since waits for the next
	 * sample's */
	{
		int kept = 0;
		for (int k = 0; k < cu.n_owed; k++) {
			if (cu.owed[k].seen)
				continue;
			if (cu.owed[k].gen < owe_due) {
				s->unrecorded++;
				continue;
			}
			cu.owed[kept++] = cu.owed[k];
		}
		cu.n_owed = kept;
	}
	if (s->unrecorded || cu.captured)
		incomplete = 1;
	cu.n_kl = cu.captured = cu.n_graph_own = 0;
	*dropped_seen = cu.dropped;
	cu.n_launch = cu.launch_overflow = cu.n_anchor = cu.n_ruler = cu.n_recs = cu.recs_overflow = 0;
	pthread_mutex_unlock(&cu_mu);

	/* the kernel clock counts everything launch() enqueued: kernels,
	 * copies and memsets (a memoised answer copied back is not free),
	 * as the device's window from the first one's start to the last
	 * one's end.  The sum of their durations left out the gaps between
	 * them, and an honest plan of 8, 32 or 128 kernels was clock_disagree
	 * on an H200 (red team 21: 1.1-1.3 us of gap a kernel, over the
	 * events' bound); work of the device's own in those gaps is now in
	 * the time, and only work outside the window is left to the events'
	 * bound.  One kernel: its duration, as before.  Kernels that overlap
	 * (PDL, a graph's branches) count once, as the device ran them. */
	s->kernel_span_us = last > first ? (double)(last - first) * 1e-3 / s->batch : 0;
	s->kernel_us = s->kernel_span_us > 0 ? s->kernel_span_us : (double)(kernel_ns + copy_ns) * 1e-3 / s->batch;
	/* A graph batch (trust: host) times `batch` launches in one window,
	 * and launches that overlap one another (a programmatic edge from
	 * one launch's kernel to the next's) divided it among them: red team
	 * 22's PDL overlap read 3.7x "faster" than the same kernel on an
	 * H200.  A launch's time there is at least its share of the summed
	 * durations, which overlap never lowers. */
	if (s->batch > 1 && (double)(kernel_ns + copy_ns) * 1e-3 / s->batch > s->kernel_us)
		s->kernel_us = (double)(kernel_ns + copy_ns) * 1e-3 / s->batch;
	s->copy_us = (double)copy_ns * 1e-3 / s->batch;
	s->late_us = t_stop ? (double)late_ns * 1e-3 : NAN;
	if (s->other_stream_kernels && stream_mode)
		s->flags |= EVC_F_OTHER_STREAM;
	if (s->stray)
		s->flags |= EVC_F_STRAY;
	if (s->late)
		s->flags |= EVC_F_LATE;
	if (s->early)
		s->flags |= EVC_F_EARLY;
	if (!s->kernels && !s->copies)
		s->flags |= EVC_F_NO_WORK;
	if (incomplete)
		s->flags |= EVC_F_INCOMPLETE;
	/* a sample whose records are incomplete, or that has none, has no
	 * kernel clock: a missing record read shorter, none read 0 us (red
	 * team 22); the run is then timed on the events (job.c pick_clock
	 * takes the kernel clock only when every sample has it) */
	if (s->flags & (EVC_F_NO_WORK | EVC_F_INCOMPLETE))
		s->kernel_us = NAN;
}

/* ---- launching ------------------------------------------------------ */

static int evc_kernel_init(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen)
{
	l->stream = (void *)c->stream;
	if (desc->init) {
		char why[512] = "";
		seal_note_limits();
		evc_scrub_stack();
		int ir = desc->init(l, why, sizeof(why));
		sigseal_block_all(); /* whatever init() unblocked (sigseal.h) */
		cupti_reassert();    /* whatever it did to CUPTI's records */
		if (ir) {
			snprintf(err, errlen, "%s", why[0] ? why : "init returned non-zero");
			return -1;
		}
	}
	CK(cudaGetLastError(), "after init");
	return 0;
}

/* One launch enqueued as a timed sample's is (behind the blocking kernel,
 * so launch() sees the same busy stream), then the whole device drained. */
static int evc_launch_sync(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen)
{
	unsigned gen = ++c->block_gen;
	int rc;

	evc_harness_block<<<1, 1, 0, c->stream>>>(c->d_block, gen, block_timeout_ns(0));
	CK(cudaGetLastError(), "evc_harness_block launch");
	rc = desc->launch(l);
	sigseal_block_all(); /* whatever launch() unblocked (sigseal.h) */
	cupti_reassert();
	block_release(c, gen);
	if (rc)
		return set_err(rc, err, errlen, "launch");
	CK(cudaGetLastError(), "cudaGetLastError after launch");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize after launch");
	CK(cudaDeviceSynchronize(), "cudaDeviceSynchronize after launch");
	CK(cudaGetLastError(), "cudaGetLastError after synchronize");
	return 0;
}

/* ---- timing --------------------------------------------------------- */

/* What one time_kernel call holds; released by tstate_release. */
struct tstate {
	const struct ev_kernel_desc *desc;
	struct ev_launch *l;
	const struct evc_timing_opts *o;
	int batch, n_sets, n_in, n_out, n_jbufs, first_set, block, cupti;
	void **sets;              /* n_sets x n_in, malloc'd copy */
	void **outs;              /* batch x n_out, malloc'd copy */
	size_t out_bytes[2];
	cudaEvent_t ev0, ev1;
	cudaGraph_t graph[EVC_MAX_GRAPHS];
	cudaGraphExec_t exec[EVC_MAX_GRAPHS];
	int nodes[EVC_MAX_GRAPHS]; /* each graph's nodes */
	int G;
	long long dropped_seen, dropped_at_start;
	int threads_start;
	double timeout_ms;
};

static void tstate_release(struct tstate *T)
{
	for (int g = 0; g < EVC_MAX_GRAPHS; g++) {
		if (T->exec[g])
			cudaGraphExecDestroy(T->exec[g]);
		if (T->graph[g])
			cudaGraphDestroy(T->graph[g]);
	}
	if (T->ev0)
		cudaEventDestroy(T->ev0);
	if (T->ev1)
		cudaEventDestroy(T->ev1);
	free(T->sets);
	free(T->outs);
}

/* Point l at input set `set` and at launch j's output buffers. */
static void point_launch(struct tstate *T, int set, int j)
{
	for (int k = 0; k < T->n_in; k++)
		T->l->inputs[k].data = T->sets[(size_t)set * T->n_in + k];
	for (int o = 0; o < T->n_out; o++)
		T->l->outputs[o].data = T->outs[(size_t)j * T->n_out + o];
}

static size_t tensor_bytes(const struct ev_tensor *t)
{
	size_t n = elem_size(t->dtype);
	for (int d = 0; d < t->ndim && d < 4; d++)
		n *= (size_t)(t->dims[d] > 0 ? t->dims[d] : 0);
	return n;
}

static void anchor(struct tstate *T, int on)
{
	if (T->cupti)
		cupti_window(on ? WIN_ANCHOR : WIN_NONE);
}

/*
 * One sample, warm-up or timed alike (evident_cuda.h lists the steps).
 * Fills *s; returns 0 or a cudaError_t value.  The blocking kernel is
 * always released, whatever fails.
 */
static int run_sample(struct evc_ctx *c, struct tstate *T, int index, int warm,
		      struct evc_sample *s, char *err, size_t errlen)
{
	const struct evc_timing_opts *o = T->o;
	double t_s0 = wall_now(), t0, t1, td;
	float ms = 0;
	int lr = 0, g = T->G ? index % T->G : -1;
	unsigned gen;
	cudaError_t e;

	memset(s, 0, sizeof(*s));
	s->index = index;
	s->warmup = warm;
	s->graph = g;
	s->batch = T->batch;
	s->set = evs_sample_set(T->first_set, T->n_sets, T->G ? T->batch : 1, index, 0);
	if (g < 0)
		point_launch(T, s->set, 0);
	s->threads_before = count_threads();

	/* outside the timed region, in stream order: fresh inputs, scramble,
	 * flush, block; the last of them is the anchor */
	if (o->base_inputs && T->n_sets > 0 && o->n_base >= 2 &&
	    (o->n_dists > 0 ? o->n_base >= 2 * o->n_dists : o->n_base >= T->n_sets)) {
		s->key = o->sample_key(o->cb_ctx, index);
		/* Launch j reads live set (set + j) % n_sets, each mixed once per
		 * sample under launch j's key and distribution; tstate_init
		 * refuses more launches than sets (which would read one set
		 * twice; the checker still maps launch j to j % n_sets) */
		int n_mix = T->batch < T->n_sets ? T->batch : T->n_sets;
		/* a timed sample with fresh inputs: the caller writes each set
		 * (evident_cuda.h, version 6), no mix */
		for (int j = 0; !warm && o->fresh_inputs && j < n_mix; j++) {
			int rc = o->fresh_inputs(o->cb_ctx, index, s->key, j,
						 &T->sets[(size_t)((s->set + j) % T->n_sets) * T->n_in], err, errlen);
			if (rc)
				return rc;
		}
		for (int j = 0; (warm || !o->fresh_inputs) && j < n_mix; j++) {
			/* the set launch j reads, and the two base sets it is mixed from */
			int live = (s->set + j) % T->n_sets, a = live, b = (a + 1) % o->n_base;
			uint64_t key = s->key;
			if (o->n_dists > 0) {
				/* every launch of the sample: the sample's distribution,
				 * drawn from its key (scramble.h) */
				int d = evs_sample_dist(s->key, o->n_dists, o->timing_dists);
				a = 2 * d;
				b = 2 * d + 1;
				key = evs_launch_key(s->key, (uint32_t)j);
			}
			for (int k = 0; k < T->n_in; k++) {
				const uint64_t *fold =
					o->n_dists > 0 && o->mix_fold
						? o->mix_fold + ((size_t)(a / 2) * T->n_in + k) * 3
						: NULL;
				int rc = enqueue_mix(c, T->sets[(size_t)live * T->n_in + k],
						     o->base_inputs[(size_t)a * T->n_in + k],
						     o->base_inputs[(size_t)b * T->n_in + k], o->input_bytes[k],
						     o->input_elem[k], key, (uint32_t)k, fold);
				if (rc)
					return set_err(rc, err, errlen, "evc_harness_mix launch");
			}
		}
	}
	for (int j = 0; j < T->n_jbufs; j++)
	for (int j = 0; j < T->n_jbufs; j++)
		for (int k = 0; k < T->n_out; k++) {
			int last = !o->cold && !T->block && j == T->n_jbufs - 1 && k == T->n_out - 1;
			int rc;
			anchor(T, last);
			rc = enqueue_scramble(c, T->outs[(size_t)j * T->n_out + k], T->out_bytes[k],
					      evs_key(o->scramble_seed, (uint64_t)index, (uint32_t)j,
						      (uint32_t)k));
			anchor(T, 0);
			if (rc)
				return set_err(rc, err, errlen, "evc_harness_scramble launch");
		}
	if (o->cold) {
		/* lines a launch marked persisting (an access-policy window
		 * over the next sample's inputs under a persisting-L2
		 * reservation its init set: red team 24's rt24_l2_aside,
		 * trust: host) survive a flush; made normal first, the flush
		 * evicts them.  The previous sample's work is done (drained),
		 * and the reset takes effect as it returns. */
		e = cudaCtxResetPersistingL2Cache();
		if (e == cudaErrorNotSupported)
			(void)cudaGetLastError(); /* no persisting lines on this device */
		else
			CK(e, "cudaCtxResetPersistingL2Cache before the L2 flush");
		anchor(T, !T->block);
		e = cudaMemsetAsync(c->d_flush, index & 0xff, c->flush_bytes, c->stream);
		anchor(T, 0);
		CK(e, "cudaMemsetAsync L2 flush");
	}
	gen = ++c->block_gen;
	if (T->block) {
		anchor(T, 1);
		evc_harness_block<<<1, 1, 0, c->stream>>>(c->d_block, gen, block_timeout_ns(T->timeout_ms));
		e = cudaGetLastError();
		anchor(T, 0);
		CK(e, "evc_harness_block launch");
	}

	e = cudaEventRecord(T->ev0, c->stream);
	if (e != cudaSuccess) {
		block_release(c, gen);
		return set_err((int)e, err, errlen, "cudaEventRecord start");
	}
	if (T->cupti)
		cupti_window(WIN_LAUNCH);
	t0 = wall_now();
	if (g >= 0) {
		/* the harness's own replay: its records are owed only where the
		 * graph has nodes (an empty one is the kernel's own doing, and
		 * its outputs say so: graph_skip's unwritten_output) */
		own_graph_nodes = T->nodes[g];
		lr = (int)cudaGraphLaunch(T->exec[g], c->stream);
		own_graph_nodes = -1;
	} else {
		lr = T->desc->launch(T->l);
	}
	t1 = wall_now(); /* launch()'s host time, without the seal's system call */
	/* before the window closes: a handler launch() left armed runs on
	 * this thread only inside it from here on (sigseal.h) */
	sigseal_block_all();
	if (T->cupti)
		cupti_window(WIN_NONE); /* cupti_attribute reasserts before its flush */
	e = cudaEventRecord(T->ev1, c->stream);
	s->threads_after = count_threads();
	block_release(c, gen);
	if (lr)
		return set_err(lr, err, errlen, g >= 0 ? "cudaGraphLaunch (timed)" : "launch (timed)");
	CK(e, "cudaEventRecord stop");
	CK(cudaGetLastError(), "cudaGetLastError (timed)");
	CK(cudaEventSynchronize(T->ev1), "cudaEventSynchronize (timed)");
	CK(cudaEventElapsedTime(&ms, T->ev0, T->ev1), "cudaEventElapsedTime");
	/* the drain: whatever launch() left on other streams ends here */
	td = wall_now();
	CK(cudaDeviceSynchronize(), "cudaDeviceSynchronize (drain)");
	s->drain_us = (wall_now() - td) * 1e6;
	CK(cudaGetLastError(), "cudaGetLastError (drain)");

	s->event_us = (double)ms * 1e3 / T->batch;
	s->host_launch_us = (t1 - t0) * 1e6;
	s->block_timed_out = T->block && c->h_block->timed_out == gen;
	s->ruler_us = s->ruler_gt_us = NAN;
	if (T->cupti && !warm) {
		/* the ruler, after the drain, outside the sample's window: its
		 * record and its %globaltimer are the same device interval
		 * (evc_harness_ruler), which cupti_attribute reads */
		unsigned long long g[2] = { 0, 0 };
		/* no CUPTI call between launch() and the ruler: CUPTI asks the
		 * timestamp callback at its own sync points, and one between the
		 * kernel's records and the ruler's would let a clock slow only
		 * across launch() convert the two at two rates (red team 83's
		 * phase clock; the reassert that stood here was such a call).
		 * Records launch() turned off leave the ruler without one: the
		 * sample is incomplete (cupti_attribute; red team 82's blindfit,
		 * escaped_work) */
		cupti_window(WIN_RULER);
		evc_harness_ruler<<<1, 1, 0, c->stream>>>(c->d_ruler, (unsigned long long)(EVC_RULER_US * 1e3));
		e = cudaGetLastError();
		cupti_window(WIN_NONE);
		CK(e, "evc_harness_ruler launch");
		CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize (ruler)");
		CK(cudaMemcpy(g, c->d_ruler, sizeof(g), cudaMemcpyDeviceToHost), "cudaMemcpy (ruler)");
		if (g[1] > g[0])
			s->ruler_gt_us = (double)(g[1] - g[0]) * 1e-3;
	}
	if (T->cupti) {
		cupti_attribute((double)ms, g < 0, &T->dropped_seen, s);
	} else {
		s->kernel_us = s->kernel_span_us = s->copy_us = s->late_us = NAN;
		s->kernels = s->copies = s->other_stream_kernels = s->stray = s->early = -1;
		s->late = 0;
	}
	/* the drain itself (drain_us) is judged by the parent over the run
	 * (job.c job_escapes: more than an eighth of the samples), not here
	 * per sample: one slow synchronise is the host's as often as the
	 * device's (red team 42 on an H200: an honest sealed replay on the
	 * events was escaped_work for 1 sample of 100 whose drain took over
	 * 50 us) */
	/* before/after alone misses a thread that outlives one sample: the
	 * next sample's "before" already counts it */
	s->threads_start = T->threads_start;
	if (s->threads_before >= 0 &&
	    (s->threads_after > s->threads_before || s->threads_after > T->threads_start))
		s->flags |= EVC_F_THREADS;
	if (s->block_timed_out)
		s->flags |= EVC_F_BLOCK_TIMEOUT;
	s->wall_us = (wall_now() - t_s0) * 1e6;
	return 0;
}

/* Capture the G graphs of graph mode (evident_cuda.h) and count their nodes. */
static int capture_graphs(struct evc_ctx *c, struct tstate *T, struct evc_timing_result *res,
			  char *err, size_t errlen)
{
	T->G = T->n_sets < EVC_MAX_GRAPHS ? T->n_sets : EVC_MAX_GRAPHS;
	res->n_graphs = T->G;
	for (int g = 0; g < T->G; g++) {
		int lr = 0;
		size_t n = 0;
		cudaError_t ee;
		CK(cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal),
		   "cudaStreamBeginCapture");
		for (int j = 0; j < T->batch && !lr; j++) {
			point_launch(T, evs_sample_set(T->first_set, T->n_sets, T->batch, g, j), j);
			lr = T->desc->launch(T->l);
			sigseal_block_all(); /* sigseal.h */
			cupti_reassert();
		}
		ee = cudaStreamEndCapture(c->stream, &T->graph[g]);
		if (lr)
			return set_err(lr, err, errlen, "launch during graph capture");
		CK(ee, "cudaStreamEndCapture (does launch() synchronise or allocate?)");
		CK(cudaGraphGetNodes(T->graph[g], NULL, &n), "cudaGraphGetNodes");
		res->graph_nodes[g] = T->nodes[g] = (int)n;
		if (n) {
			cudaGraphNode_t *nodes = (cudaGraphNode_t *)calloc(n, sizeof(*nodes));
			if (!nodes)
				return set_err(cudaErrorMemoryAllocation, err, errlen, "graph nodes");
			ee = cudaGraphGetNodes(T->graph[g], nodes, &n);
			for (size_t k = 0; ee == cudaSuccess && k < n; k++) {
				enum cudaGraphNodeType t;
				ee = cudaGraphNodeGetType(nodes[k], &t);
				if (ee == cudaSuccess && t == cudaGraphNodeTypeKernel)
					res->graph_kernel_nodes[g]++;
			}
			free(nodes);
			CK(ee, "cudaGraphNodeGetType");
		}
		CK(cudaGraphInstantiate(&T->exec[g], T->graph[g], 0ULL), "cudaGraphInstantiate");
	}
	return 0;
}

/* Check the options and copy the pointer tables into T; -1 with err. */
static int tstate_init(struct tstate *T, const struct ev_kernel_desc *desc, struct ev_launch *l,
		       const struct evc_timing_opts *o, char *err, size_t errlen)
{
	T->desc = desc;
	T->l = l;
	T->o = o;
	T->batch = o->batch > 1 ? o->batch : 1;
	T->n_in = l->n_inputs;
	T->n_out = l->n_outputs;
	T->block = o->block != 0;
	T->timeout_ms = o->block_timeout_ms;
	if (!o->on_sample) {
		snprintf(err, errlen, "time_kernel: opts.on_sample is required");
		return -1;
	}
	if (T->n_in < 0 || T->n_in > 4 || T->n_out < 1 || T->n_out > 2) {
		snprintf(err, errlen, "time_kernel: %d inputs and %d outputs (1..4 and 1..2 allowed)",
			 T->n_in, T->n_out);
		return -1;
	}
	if (o->n_sets < 0 || o->n_sets > EVC_MAX_SETS || o->first_set < 0 ||
	    (o->n_sets > 0 && (o->n_inputs != T->n_in || !o->set_inputs))) {
		snprintf(err, errlen,
			 "time_kernel: bad input sets (n_sets %d of at most %d, n_inputs %d for a "
			 "kernel of %d, first_set %d)",
			 o->n_sets, EVC_MAX_SETS, o->n_inputs, T->n_in, o->first_set);
		return -1;
	}
	if (o->outputs && o->n_outputs != T->n_out) {
		snprintf(err, errlen, "time_kernel: n_outputs %d for a kernel of %d", o->n_outputs,
			 T->n_out);
		return -1;
	}
	T->n_sets = o->n_sets > 0 ? o->n_sets : 1;
	T->first_set = o->first_set % T->n_sets;
	/* fresh inputs are mixed once per sample per set: two launches of a
	 * sample on one set would read the same inputs, and the second could
	 * copy the first's answer (red team 4, rt4_batch_reuse) */
	if (o->base_inputs && T->batch > T->n_sets) {
		snprintf(err, errlen,
			 "time_kernel: %d launches a sample on %d input sets: launches of one sample would read "
			 "the same inputs (the plan gives graph mode a set per launch)",
			 T->batch, T->n_sets);
		return -1;
	}
	T->sets = (void **)calloc((size_t)T->n_sets * (T->n_in ? T->n_in : 1), sizeof(void *));
	T->outs = (void **)calloc((size_t)T->batch * T->n_out, sizeof(void *));
	if (!T->sets || !T->outs) {
		snprintf(err, errlen, "time_kernel: out of host memory");
		return -1;
	}
	for (int s = 0; s < T->n_sets; s++)
		for (int k = 0; k < T->n_in; k++)
			T->sets[(size_t)s * T->n_in + k] =
				o->n_sets > 0 ? o->set_inputs[(size_t)s * T->n_in + k] : l->inputs[k].data;
	for (int j = 0; j < T->batch; j++)
		for (int k = 0; k < T->n_out; k++)
			T->outs[(size_t)j * T->n_out + k] =
				o->outputs ? o->outputs[(size_t)j * T->n_out + k] : l->outputs[k].data;
	/* without per-launch buffers every launch writes the same ones */
	T->n_jbufs = o->outputs ? T->batch : 1;
	for (int k = 0; k < T->n_out; k++) {
		T->out_bytes[k] = o->output_bytes ? o->output_bytes[k] : tensor_bytes(&l->outputs[k]);
		if (!T->out_bytes[k]) {
			snprintf(err, errlen, "time_kernel: output %d has no size", k);
			return -1;
		}
	}
	return 0;
}

static int evc_time_kernel(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, const struct evc_timing_opts *o,
			   struct evc_timing_result *res, char *err, size_t errlen)
{
	struct tstate T;
	struct ev_tensor saved_in[4], saved_out[2];
	double max_s = o->max_seconds > 0 ? o->max_seconds : 60.0;
	double t_call, t_phase, now;
	int rc = 0, warm = 1;

	memset(res, 0, sizeof(*res));
	memset(&T, 0, sizeof(T));
	memcpy(saved_in, l->inputs, sizeof(saved_in));
	memcpy(saved_out, l->outputs, sizeof(saved_out));
	l->stream = (void *)c->stream;
	__atomic_store_n(&cu.harness_stream, (CUstream)c->stream, __ATOMIC_RELEASE);
	if (tstate_init(&T, desc, l, o, err, errlen)) {
		rc = -1;
		goto fail;
	}
	res->batch = T.batch;
	res->graph = T.batch > 1;
	res->block = T.block;

	res->clock = EVC_CLOCK_EVENTS;
	if (o->clock == EVC_CLOCK_EVENTS && o->watch) {
		/* the checks, not the clock (evc_timing_opts.watch) */
		T.cupti = cupti_begin() == 0;
		if (T.cupti)
			snprintf(res->cupti_why, sizeof(res->cupti_why), "%s",
				 "loaded to watch the launch's host code; the clock is the events");
		else
			snprintf(res->cupti_why, sizeof(res->cupti_why), "%s", cu.why);
		res->cupti_loaded = T.cupti;
		if (T.cupti) {
			pthread_mutex_lock(&cu_mu);
			T.dropped_seen = T.dropped_at_start = cu.dropped;
			pthread_mutex_unlock(&cu_mu);
		}
	} else if (o->clock == EVC_CLOCK_EVENTS) {
		snprintf(res->cupti_why, sizeof(res->cupti_why), "not requested (clock: events)");
	} else {
		T.cupti = cupti_begin() == 0;
		snprintf(res->cupti_why, sizeof(res->cupti_why), "%s", cu.why);
		res->cupti_loaded = T.cupti;
		if (T.cupti) {
			res->clock = EVC_CLOCK_CUPTI;
			pthread_mutex_lock(&cu_mu);
			T.dropped_seen = T.dropped_at_start = cu.dropped;
			pthread_mutex_unlock(&cu_mu);
		} else if (o->clock == EVC_CLOCK_CUPTI) {
			rc = set_err(cudaErrorNotSupported, err, errlen, cu.why);
			goto fail;
		}
	}

	if (o->cold) {
		size_t want = (size_t)(c->l2_bytes > 0 ? 2 * c->l2_bytes : (128LL << 20));
		if (c->flush_bytes < want) {
			if (c->d_flush)
				cudaFree(c->d_flush);
			c->d_flush = NULL;
			c->flush_bytes = 0;
			CKG(cudaMalloc(&c->d_flush, want), "cudaMalloc L2 flush buffer");
			c->flush_bytes = want;
		}
		res->l2_flush_bytes = (long long)c->flush_bytes;
	}
	if (T.cupti && !c->d_ruler)
		CKG(cudaMalloc((void **)&c->d_ruler, 2 * sizeof(*c->d_ruler)), "cudaMalloc (ruler)");
	CKG(cudaEventCreate(&T.ev0), "cudaEventCreate");
	CKG(cudaEventCreate(&T.ev1), "cudaEventCreate");
	if (T.batch > 1 && (rc = capture_graphs(c, &T, res, err, errlen)))
		goto fail;
	/* nothing of the setup may count as a sample's */
	CKG(cudaDeviceSynchronize(), "cudaDeviceSynchronize before sampling");
	if (T.cupti) {
		cu.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
		cupti_reset_sample();
	}
	/* after CUPTI's own threads started: more than this later is launch()'s */
	res->threads_at_start = T.threads_start = count_threads();

	t_call = t_phase = now = wall_now();
	for (int index = 0;; index++) {
		struct evc_sample s;
		int cb;
		if ((rc = run_sample(c, &T, index, warm, &s, err, errlen)))
			goto fail;
		if (s.block_timed_out)
			res->block_timeouts++;
		if (warm) {
			res->warmup_samples++;
			res->warmup_launches += T.batch;
		} else {
			res->n++;
		}
		cb = o->on_sample(o->cb_ctx, &s);
		now = wall_now();
		if (cb < 0) {
			snprintf(err, errlen, "time_kernel: stopped by the sample callback");
			rc = -1;
			break;
		}
		if (cb == EVC_STOP) {
			if (!warm)
				break;
			warm = 0;
			res->warmup_seconds = now - t_phase;
			t_phase = now;
		}
		if (now - t_call >= max_s) {
			res->capped = 1;
			break;
		}
	}
	if (warm)
		res->warmup_seconds = now - t_phase;
	else
		res->sampling_seconds = now - t_phase;
fail:
	if (T.cupti) {
		cupti_end();
		pthread_mutex_lock(&cu_mu);
		res->cupti_dropped = cu.dropped - T.dropped_at_start;
		pthread_mutex_unlock(&cu_mu);
	}
	tstate_release(&T);
	memcpy(l->inputs, saved_in, sizeof(saved_in));
	memcpy(l->outputs, saved_out, sizeof(saved_out));
	return rc;
}

/* ---- the sealed path (seal.cu) ------------------------------------------ */

static int evc_plan_capture(struct evc_ctx *c, const struct ev_kernel_desc *desc, struct ev_launch *l,
			    char **json, char *err, size_t errlen)
{
	l->stream = (void *)c->stream;
	return seal_capture(c->stream, desc, l, json, err, errlen);
}

static int evc_plan_load(struct evc_ctx *c, const void *const *images, const size_t *image_bytes, int n_images,
			 const struct evc_plan *plan, const struct ev_kernel_desc **desc, char *err,
			 size_t errlen)
{
	(void)c;
	return seal_load(images, image_bytes, n_images, plan, desc, err, errlen);
}

static int evc_plan_globals(struct evc_ctx *c, const char *const *names, int n_names, char *err, size_t errlen)
{
	(void)c;
	return seal_set_globals(names, n_names, err, errlen);
}

static int evc_plan_sections(struct evc_ctx *c, const struct evc_section *sections, int n, char *err,
			     size_t errlen)
{
	(void)c;
	return seal_set_sections(sections, n, err, errlen);
}

static int evc_watch_modules(struct evc_ctx *c, evc_module_fn fn, void *arg, char *err, size_t errlen)
{
	(void)c;
	if (!fn) {
		__atomic_store_n(&mod_fn, (evc_module_fn)NULL, __ATOMIC_RELEASE);
		return 0;
	}
	if (!cu.loaded || !cu.subscribed || !cu.enable_callback) {
		snprintf(err, errlen, "CUPTI is not subscribed in this process (%s)", cu.why[0] ? cu.why : "not loaded");
		return -1;
	}
	__atomic_store_n(&mod_arg, arg, __ATOMIC_RELEASE);
	__atomic_store_n(&mod_fn, fn, __ATOMIC_RELEASE);
	CUptiResult r = cu.enable_callback(1, cu.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
	if (r != CUPTI_SUCCESS) {
		__atomic_store_n(&mod_fn, (evc_module_fn)NULL, __ATOMIC_RELEASE);
		snprintf(err, errlen, "cuptiEnableCallback(resource, MODULE_LOADED): %s", cupti_result(r));
		return -1;
	}
	mod_on = 1;
	return 0;
}

static int evc_modules_watched(struct evc_ctx *c)
{
	(void)c;
	uint32_t on = 0;
	if (!mod_on || !cu.subscribed || !cu.callback_state ||
	    cu.callback_state(&on, cu.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED) != CUPTI_SUCCESS)
		return -1;
	return on ? 1 : 0;
}

static const struct evc_api api = {
	EVC_API_VERSION,
	sizeof(struct evc_api),
	evc_kind,
	evc_error_name,
	evc_error_string,
	evc_open,
	evc_close,
	evc_stream,
	evc_alloc,
	evc_free_buffer,
	evc_upload_floats,
	evc_poison,
	evc_download,
	evc_kernel_init,
	evc_launch_sync,
	evc_time_kernel,
	evc_scramble,
	evc_copy,
	evc_clear,
	evc_upload,
	evc_plan_capture,
	evc_plan_load,
	evc_plan_globals,
	evc_plan_sections,
	evc_watch_modules,
	evc_modules_watched,
};

extern "C" __attribute__((visibility("default"))) const struct evc_api *evident_cuda_api(void)
{
	return &api;
}
