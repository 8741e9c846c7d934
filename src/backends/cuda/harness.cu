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
 * -> fp16/bf16 conversion, output poisoning, the fp32 reference (cuBLAS
 * SGEMM in pedantic fp32 mode + a softmax kernel, on the inputs as rounded
 * for the kernel) and the timing loop.  Timing follows nvbench's cold
 * measurement: CUDA events around each sample on the one stream, an L2
 * flush (a device write over 2x the L2 size) before every sample outside
 * the timed region when the cache is cold, adaptive stopping on the
 * relative standard deviation once min_seconds of samples were taken, and
 * CUDA-graph batching for kernels too short to time one launch at a time.
 *
 * Every CUDA call is checked; the first error is returned as its
 * cudaError_t value, with "cudaErrorX: text (where)" in the caller's err.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <library_types.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evident_cuda.h"

/* The poison patterns, kept equal to problem.h (which is C, not included
 * here to keep its C declarations out of this C++ unit); a static_assert in
 * backend_cuda.c checks they agree. */
#define EVC_POISON_F32 0x7fc0deadu
#define EVC_POISON_F16 0x7e5bu
#define EVC_POISON_BF16 0x7fdeu

#define EVC_MAX_BUFFERS 64

struct evc_ctx {
	int device;
	cudaStream_t stream;
	cublasHandle_t cublas;
	long long l2_bytes;
	void *d_flush;
	size_t flush_bytes;
	void *buffers[EVC_MAX_BUFFERS];
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
		int ma = 0, mi = 0, pa = 0;
		if (cublasGetProperty(MAJOR_VERSION, &ma) == CUBLAS_STATUS_SUCCESS &&
		    cublasGetProperty(MINOR_VERSION, &mi) == CUBLAS_STATUS_SUCCESS &&
		    cublasGetProperty(PATCH_LEVEL, &pa) == CUBLAS_STATUS_SUCCESS)
			info->cublas_version = ma * 10000 + mi * 100 + pa;
	}

	c = (struct evc_ctx *)calloc(1, sizeof(*c));
	if (!c)
		return set_err(cudaErrorMemoryAllocation, err, errlen, "host calloc");
	c->device = device;
	c->l2_bytes = info->l2_bytes;
	{
		cudaError_t e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
		if (e != cudaSuccess) {
			free(c);
			return set_err((int)e, err, errlen, "cudaStreamCreateWithFlags");
		}
	}
	*out = c;
	return 0;
}

/* Frees everything the context owns.  Errors are ignored: after a sticky
 * error the context is dead and the process is about to exit anyway. */
static void evc_close(struct evc_ctx *c)
{
	if (!c)
		return;
	for (int i = 0; i < EVC_MAX_BUFFERS; i++)
		if (c->buffers[i])
			cudaFree(c->buffers[i]);
	if (c->d_flush)
		cudaFree(c->d_flush);
	if (c->cublas)
		cublasDestroy(c->cublas);
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
	return 0;
}

static void evc_free_buffer(struct evc_ctx *c, void *d_ptr)
{
	for (int i = 0; i < EVC_MAX_BUFFERS; i++)
		if (d_ptr && c->buffers[i] == d_ptr) {
			cudaFree(d_ptr);
			c->buffers[i] = NULL;
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

__global__ void poison_fill16_kernel(uint16_t *p, size_t n, uint16_t v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = v;
}

__global__ void poison_fill32_kernel(uint32_t *p, size_t n, uint32_t v)
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
		poison_fill16_kernel<<<blocks, 256, 0, c->stream>>>((uint16_t *)d_dst, numel,
								    EVC_POISON_F16);
		break;
	case EV_BF16:
		poison_fill16_kernel<<<blocks, 256, 0, c->stream>>>((uint16_t *)d_dst, numel,
								    EVC_POISON_BF16);
		break;
	case EV_F32:
		poison_fill32_kernel<<<blocks, 256, 0, c->stream>>>((uint32_t *)d_dst, numel,
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

/* ---- fp32 reference ------------------------------------------------ */

/* Row-wise softmax in place: one block per row of n floats. */
__global__ void softmax_rows_kernel(float *x, long long n)
{
	__shared__ float red[32];
	float *row = x + (long long)blockIdx.x * n;
	float m = -INFINITY, s = 0.0f;
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;

	for (long long j = threadIdx.x; j < n; j += blockDim.x)
		m = fmaxf(m, row[j]);
	for (int o = 16; o; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
	if (!lane)
		red[warp] = m;
	__syncthreads();
	m = red[0];
	for (int w = 1; w < nw; w++)
		m = fmaxf(m, red[w]);
	__syncthreads();
	for (long long j = threadIdx.x; j < n; j += blockDim.x) {
		float e = expf(row[j] - m);
		row[j] = e;
		s += e;
	}
	for (int o = 16; o; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (!lane)
		red[warp] = s;
	__syncthreads();
	s = 0.0f;
	for (int w = 0; w < nw; w++)
		s += red[w];
	for (long long j = threadIdx.x; j < n; j += blockDim.x)
		row[j] = row[j] / s;
}

static const char *cublas_name(cublasStatus_t s)
{
	return cublasGetStatusName(s);
}

#define CKB(call, where)                                                            \
	do {                                                                        \
		cublasStatus_t ckb_s_ = (call);                                     \
		if (ckb_s_ != CUBLAS_STATUS_SUCCESS) {                              \
			if (err && errlen)                                          \
				snprintf(err, errlen, "%s: %s (%s)",                \
					 cublas_name(ckb_s_),                        \
					 cublasGetStatusString(ckb_s_), where);      \
			rc = cudaErrorUnknown;                                      \
			goto fail;                                                  \
		}                                                                   \
	} while (0)
#define CKG(call, where)                                                            \
	do {                                                                        \
		cudaError_t ckg_e_ = (call);                                        \
		if (ckg_e_ != cudaSuccess) {                                        \
			rc = set_err((int)ckg_e_, err, errlen, where);              \
			goto fail;                                                  \
		}                                                                   \
	} while (0)

static int evc_reference_attn(struct evc_ctx *c, long long B, long long H, long long S,
			      long long D, double scale, const float *h_q, const float *h_k,
			      const float *h_v, float *h_out, char *err, size_t errlen)
{
	long long BH = B * H, per = S * D;
	size_t bytes = (size_t)(BH * per) * sizeof(float);
	float *d_q = NULL, *d_k = NULL, *d_v = NULL, *d_o = NULL, *d_p = NULL;
	long long chunk;
	int rc = 0;
	const float alpha = (float)scale, one = 1.0f, zero = 0.0f;

	if (BH <= 0 || S <= 0 || D <= 0 || S > 0x7fffffffLL || D > 0x7fffffffLL)
		return set_err(cudaErrorInvalidValue, err, errlen, "reference: bad shape");
	if (!c->cublas) {
		CKB(cublasCreate(&c->cublas), "cublasCreate");
		/* pedantic: true fp32 SGEMM, never TF32 or other reduced precision */
		CKB(cublasSetMathMode(c->cublas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
	}
	CKB(cublasSetStream(c->cublas, c->stream), "cublasSetStream");

	/* the S x S score matrices dominate memory: bound them to ~1 GiB */
	chunk = (1LL << 28) / (S * S);
	if (chunk < 1)
		chunk = 1;
	if (chunk > BH)
		chunk = BH;

	CKG(cudaMalloc((void **)&d_q, bytes), "cudaMalloc reference q");
	CKG(cudaMalloc((void **)&d_k, bytes), "cudaMalloc reference k");
	CKG(cudaMalloc((void **)&d_v, bytes), "cudaMalloc reference v");
	CKG(cudaMalloc((void **)&d_o, bytes), "cudaMalloc reference o");
	CKG(cudaMalloc((void **)&d_p, (size_t)(chunk * S * S) * sizeof(float)),
	    "cudaMalloc reference scores");
	CKG(cudaMemcpyAsync(d_q, h_q, bytes, cudaMemcpyHostToDevice, c->stream), "copy q");
	CKG(cudaMemcpyAsync(d_k, h_k, bytes, cudaMemcpyHostToDevice, c->stream), "copy k");
	CKG(cudaMemcpyAsync(d_v, h_v, bytes, cudaMemcpyHostToDevice, c->stream), "copy v");

	for (long long b0 = 0; b0 < BH; b0 += chunk) {
		long long nb = BH - b0 < chunk ? BH - b0 : chunk;
		/*
		 * Row-major X[S][D] is the column-major D x S matrix Xc.
		 * Scores (row-major S x S, P[i][j] = q_i . k_j) seen column-major
		 * is Pc(j,i) = (Kc^T Qc)(j,i): gemm(T, N, m=S, n=S, k=D).
		 */
		CKB(cublasSgemmStridedBatched(c->cublas, CUBLAS_OP_T, CUBLAS_OP_N, (int)S, (int)S,
					      (int)D, &alpha, d_k + b0 * per, (int)D, per,
					      d_q + b0 * per, (int)D, per, &zero, d_p, (int)S,
					      S * S, (int)nb),
		    "cublasSgemmStridedBatched QK^T");
		softmax_rows_kernel<<<(unsigned)(nb * S), 256, 0, c->stream>>>(d_p, S);
		CKG(cudaGetLastError(), "softmax_rows_kernel launch");
		/* O row-major S x D = Oc (D x S) = Vc (D x S) * Pc (S x S) */
		CKB(cublasSgemmStridedBatched(c->cublas, CUBLAS_OP_N, CUBLAS_OP_N, (int)D, (int)S,
					      (int)S, &one, d_v + b0 * per, (int)D, per, d_p,
					      (int)S, S * S, &zero, d_o + b0 * per, (int)D, per,
					      (int)nb),
		    "cublasSgemmStridedBatched PV");
	}
	CKG(cudaMemcpyAsync(h_out, d_o, bytes, cudaMemcpyDeviceToHost, c->stream), "copy o");
	CKG(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize reference");
fail:
	cudaFree(d_q);
	cudaFree(d_k);
	cudaFree(d_v);
	cudaFree(d_o);
	cudaFree(d_p);
	return rc;
}

/* ---- launching ----------------------------------------------------- */

static int evc_kernel_init(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen)
{
	l->stream = (void *)c->stream;
	if (desc->init) {
		char why[512] = "";
		if (desc->init(l, why, sizeof(why))) {
			snprintf(err, errlen, "%s", why[0] ? why : "init returned non-zero");
			return -1;
		}
	}
	CK(cudaGetLastError(), "after init");
	return 0;
}

static int evc_launch_sync(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen)
{
	int rc = desc->launch(l);
	if (rc)
		return set_err(rc, err, errlen, "launch");
	CK(cudaGetLastError(), "cudaGetLastError after launch");
	CK(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize after launch");
	CK(cudaGetLastError(), "cudaGetLastError after synchronize");
	return 0;
}

/* ---- timing -------------------------------------------------------- */

struct sample_buf {
	double *v;
	int n, cap;
	double mean, m2; /* Welford */
	double sum_ms;   /* of whole samples (all batch launches) */
};

static int sample_push(struct sample_buf *s, double us, double sample_ms)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 1024;
		double *v = (double *)realloc(s->v, (size_t)cap * sizeof(double));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = us;
	{
		double d = us - s->mean;
		s->mean += d / s->n;
		s->m2 += d * (us - s->mean);
	}
	s->sum_ms += sample_ms;
	return 0;
}

static double sample_stdrel(const struct sample_buf *s)
{
	if (s->n < 2 || s->mean <= 0)
		return INFINITY;
	return sqrt(s->m2 / (s->n - 1)) / s->mean;
}

static int evc_time_kernel(struct evc_ctx *c, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, const struct evc_timing_opts *o,
			   struct evc_timing_result *res, char *err, size_t errlen)
{
	cudaEvent_t ev0 = NULL, ev1 = NULL;
	cudaGraph_t graph = NULL;
	cudaGraphExec_t exec = NULL;
	struct sample_buf s = { NULL, 0, 0, 0, 0, 0 };
	int batch = o->batch > 1 ? o->batch : 1;
	int rc = 0, min_n;
	double t0, t_start;
	double max_s = o->max_seconds > 0 ? o->max_seconds : 15.0;
	double min_s = o->min_seconds >= 0 ? o->min_seconds : 0.5;
	double target = o->stdrel > 0 ? o->stdrel : 0.005;

	memset(res, 0, sizeof(*res));
	res->batch = batch;
	res->adaptive = o->samples <= 0;
	l->stream = (void *)c->stream;

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
	CKG(cudaEventCreate(&ev0), "cudaEventCreate");
	CKG(cudaEventCreate(&ev1), "cudaEventCreate");

	if (batch > 1) {
		int lr = 0;
		res->graph = 1;
		CKG(cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal),
		    "cudaStreamBeginCapture");
		for (int k = 0; k < batch && !lr; k++)
			lr = desc->launch(l);
		{
			cudaError_t ee = cudaStreamEndCapture(c->stream, &graph);
			if (lr) {
				rc = set_err(lr, err, errlen, "launch during graph capture");
				goto fail;
			}
			CKG(ee, "cudaStreamEndCapture (does launch() synchronise or allocate?)");
		}
		CKG(cudaGraphInstantiate(&exec, graph, 0ULL), "cudaGraphInstantiate");
	}

#define ONE_SAMPLE(where)                                                          \
	do {                                                                       \
		if (exec) {                                                        \
			CKG(cudaGraphLaunch(exec, c->stream), "cudaGraphLaunch " where); \
		} else {                                                           \
			int lr_ = desc->launch(l);                                 \
			if (lr_) {                                                 \
				rc = set_err(lr_, err, errlen, "launch " where);   \
				goto fail;                                         \
			}                                                          \
		}                                                                  \
		CKG(cudaGetLastError(), "cudaGetLastError " where);                \
	} while (0)

	/* warm-up by time, at least one launch */
	t0 = wall_now();
	do {
		ONE_SAMPLE("(warm-up)");
		CKG(cudaStreamSynchronize(c->stream), "cudaStreamSynchronize (warm-up)");
		res->warmup_launches += batch;
	} while ((wall_now() - t0) * 1e3 < o->warmup_ms);
	res->warmup_ms_done = (wall_now() - t0) * 1e3;

	min_n = o->samples > 0 ? (o->samples < 10 ? o->samples : 10) : 10;
	t_start = wall_now();
	for (unsigned it = 0;; it++) {
		float ms = 0;
		double elapsed;
		if (o->cold) /* outside the timed region, in stream order before it */
			CKG(cudaMemsetAsync(c->d_flush, (int)(it & 0xff), c->flush_bytes, c->stream),
			    "cudaMemsetAsync L2 flush");
		CKG(cudaEventRecord(ev0, c->stream), "cudaEventRecord start");
		ONE_SAMPLE("(timed)");
		CKG(cudaEventRecord(ev1, c->stream), "cudaEventRecord stop");
		CKG(cudaEventSynchronize(ev1), "cudaEventSynchronize (timed)");
		CKG(cudaGetLastError(), "cudaGetLastError (timed)");
		CKG(cudaEventElapsedTime(&ms, ev0, ev1), "cudaEventElapsedTime");
		if (sample_push(&s, (double)ms * 1e3 / batch, (double)ms)) {
			rc = set_err(cudaErrorMemoryAllocation, err, errlen, "sample buffer");
			goto fail;
		}
		elapsed = wall_now() - t_start;
		if (o->samples > 0) {
			if (s.n >= o->samples) {
				res->converged = 1;
				break;
			}
		} else if (s.n >= 10 && s.sum_ms * 1e-3 >= min_s && sample_stdrel(&s) <= target) {
			res->converged = 1;
			break;
		}
		if (elapsed >= max_s && s.n >= min_n) {
			res->capped = 1;
			break;
		}
	}
	res->sampling_seconds = wall_now() - t_start;
	res->stdrel = s.n >= 2 ? sample_stdrel(&s) : 0;
	res->samples_us = s.v;
	res->n = s.n;
	s.v = NULL;
#undef ONE_SAMPLE
fail:
	free(s.v);
	if (exec)
		cudaGraphExecDestroy(exec);
	if (graph)
		cudaGraphDestroy(graph);
	if (ev0)
		cudaEventDestroy(ev0);
	if (ev1)
		cudaEventDestroy(ev1);
	return rc;
}

static void evc_timing_release(struct evc_timing_result *res)
{
	if (!res)
		return;
	free(res->samples_us);
	res->samples_us = NULL;
	res->n = 0;
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
	evc_reference_attn,
	evc_kernel_init,
	evc_launch_sync,
	evc_time_kernel,
	evc_timing_release,
};

extern "C" __attribute__((visibility("default"))) const struct evc_api *evident_cuda_api(void)
{
	return &api;
}
