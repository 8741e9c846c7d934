/*
 * fa_mma.cu - FlashAttention-2 on tensor cores through mma.sync PTX,
 * attention_fwd: the rung after fa_wmma.cu.
 *
 * One idea over fa_wmma: know the fragment layout, so that everything that
 * fa_wmma keeps in shared memory (the score tile S, the probabilities P,
 * the output accumulator O and the softmax state m, l) lives in registers.
 * A block owns BLOCK_M query rows of one (b, h), one warp per 16 rows
 * (BLOCK_M = 16*NUM_WARPS), and walks the keys BLOCK_N at a time:
 *   - Q: the block's tile is copied to shared memory once (cp.async) and
 *     each warp keeps its 16 x D slice as mma A fragments in registers
 *     (ldmatrix.x4);
 *   - K, V: a ring of STAGES tiles in shared memory filled with cp.async,
 *     tile j+STAGES-1 in flight while tile j is computed, one barrier per
 *     tile;
 *   - S = Q K^T with mma.sync.m16n8k16 (fp16 in, fp32 accumulate), K's B
 *     fragments by ldmatrix.x4 (no transpose: K rows are B's columns);
 *   - online softmax on the accumulators: a thread holds 2 rows (groupID
 *     and groupID+8) x 2 columns per 8-key tile, so a row's max and sum are
 *     quad reductions (two shuffles); scores are scaled by scale*log2(e)
 *     and exponentiated with ex2.approx; the running max m is per row, the
 *     running sum l per thread (reduced over the quad at the end);
 *   - O += P V: the C fragments of S, rounded to fp16 pairs, are exactly
 *     the A fragments of the second MMA (no shared-memory round trip for
 *     P); V's B fragments come from ldmatrix.x4.trans;
 *   - O / l is staged through the warp's own rows of the Q tile in shared
 *     memory and written with 16-byte stores.
 * Tails: Q, K and V rows past S are zero-filled by cp.async (src-size 0),
 * keys past S get score -inf before the row max (only the last tile
 * checks), and query rows past S are not stored, so any S >= 1 works.
 * Every tile has at least one real key, so the running max is finite after
 * the first tile and exp2(m_old - m_new) is 0, never NaN, on it.
 *
 * Shared memory (dynamic; init raises the limit): rows of D+8 halves (the
 * 16-byte padding makes the 8 row addresses of an ldmatrix hit 8 distinct
 * 16-byte bank groups, and likewise the O staging stores):
 *   (BLOCK_M + 2*STAGES*BLOCK_N) * (D+8) * 2 bytes
 *   e.g. 64/64/2 at D=64: 46,080 B; 128/64/2 at D=128: 104,448 B.
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D], base pointers
 * 16-byte aligned (cp.async and the O stores move 16 bytes), D = HEAD_DIM,
 * scale > 0 (the row max is taken on unscaled scores); init refuses
 * anything else with a one-line reason.  The pointers are read from the
 * launch every time; nothing is kept between launches.
 *
 * The fragment index math is in host-callable helpers (mma_*, ldm_*) that
 * tests/gpu/mma_layout_sim.cu checks, without a GPU, against an emulation
 * of the PTX ISA's tables for mma.m16n8k16 and ldmatrix.
 *
 * Seen (tests/gpu/kcheck.cu --cold, H100 80GB HBM3, driver 580.159.04,
 * 2026-11-23): correct at every shape and input distribution tried (S = 1, 17,
 * 77, 397, 1000; peaked, large-score and |V|~100 inputs); at B4 H8 S512
 * D64 14.98 us with BLOCK_M=128 BLOCK_N=128 NUM_WARPS=8 (fa_wmma 76.64 us,
 * cudnn_sdpa 13.06 us); at B4 H16 S4096 D128 1.92 ms with the defaults
 * and HEAD_DIM=128 (286 TFLOP/s; cudnn_sdpa 0.84 ms).
 *
 * Versions in this file:
 *   attention_fwd_kernel5  mma.sync flash attention, S/P/O in registers
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params; invalid combinations
 * are static_asserts):
 *   HEAD_DIM   D compiled for: 32, 64 or 128 (default 64)
 *   NUM_WARPS  warps per block, 1..16 (default 4)
 *   BLOCK_M    query rows per block, 16*NUM_WARPS (default 64)
 *   BLOCK_N    keys per K/V tile, a multiple of 16, 16..256 (default 64)
 *   STAGES     K/V tiles in the cp.async ring, 2..4 (default 2)
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "../evident_kernel.h"

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifndef BLOCK_M
#define BLOCK_M 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 64
#endif
#ifndef STAGES
#define STAGES 2
#endif

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(NUM_WARPS >= 1 && NUM_WARPS <= 16, "NUM_WARPS must be in [1, 16]");
static_assert(BLOCK_M == 16 * NUM_WARPS,
	      "BLOCK_M must be 16*NUM_WARPS (one warp per 16 query rows)");
static_assert(BLOCK_N >= 16 && BLOCK_N <= 256 && BLOCK_N % 16 == 0,
	      "BLOCK_N must be a multiple of 16 in [16, 256] (the second MMA takes 16 keys at a time)");
static_assert(STAGES >= 2 && STAGES <= 4, "STAGES must be 2, 3 or 4 (cp.async ring of K/V tiles)");

#define THREADS (NUM_WARPS * 32)
#define LDS (HEAD_DIM + 8)                /* shared-memory row stride, halves */
#define CPR (HEAD_DIM / 8)                /* 16-byte chunks per row */
#define Q_BYTES (BLOCK_M * LDS * 2)
#define KV_BYTES (BLOCK_N * LDS * 2)      /* one K or one V tile */
#define SMEM_BYTES ((size_t)Q_BYTES + 2 * (size_t)STAGES * KV_BYTES)
#define NT_S (BLOCK_N / 8)                /* 8-key accumulator tiles of S */
#define NT_O (HEAD_DIM / 8)               /* 8-column accumulator tiles of O */
#define KS_D (HEAD_DIM / 16)              /* k-steps of Q K^T */
#define KS_N (BLOCK_N / 16)               /* k-steps of P V */

/*
 * Fragment index math (PTX ISA, "Matrix fragments for mma.m16n8k16 with
 * floating point type" and "Warp-level matrix load instruction: ldmatrix").
 * Host-callable so that tests/gpu/mma_layout_sim.cu can check it.
 *
 * Accumulator (C/D, 16x8 fp32): element e (0..3) of lane is at
 * row lane/4 + 8*(e/2), column 2*(lane%4) + e%2.
 */
__host__ __device__ constexpr int mma_acc_row(int lane, int e) { return lane / 4 + 8 * (e / 2); }
__host__ __device__ constexpr int mma_acc_col(int lane, int e) { return 2 * (lane % 4) + e % 2; }
/*
 * P as the A operand of the second MMA, k-step kk (keys 16kk..16kk+15):
 * A register r (0..3) packs the two accumulator elements 2*(r%2), +1 of
 * S tile 2*kk + r/2 (A: r=0 row g cols 2t..; r=1 row g+8; r=2 row g cols
 * 8+2t..; r=3 row g+8 cols 8+2t..; the accumulator has the same rows and
 * columns 2t, 2t+1 within each 8-key tile).
 */
__host__ __device__ constexpr int p_tile(int kk, int r) { return 2 * kk + r / 2; }
__host__ __device__ constexpr int p_elem(int r) { return 2 * (r % 2); }
/*
 * Row and column (within a 16x16 block of a row-major smem tile) whose
 * address lane gives to ldmatrix.x4; lanes 8i..8i+7 give matrix i's rows.
 *   Q (A operand, 16 rows x 16 d): matrices (rows 0-7, d 0-7), (rows 8-15,
 *     d 0-7), (rows 0-7, d 8-15), (rows 8-15, d 8-15) = a0..a3.
 *   K (B operand of Q K^T, 16 keys x 16 d, no .trans): matrices (keys 0-7,
 *     d 0-7), (keys 0-7, d 8-15), (keys 8-15, d 0-7), (keys 8-15, d 8-15)
 *     = b0, b1 of key tile 0, then b0, b1 of key tile 1.
 *   V (B operand of P V, 16 keys x 16 d, .trans): matrices (keys 0-7, d
 *     0-7), (keys 8-15, d 0-7), (keys 0-7, d 8-15), (keys 8-15, d 8-15)
 *     = b0, b1 of d tile 0, then b0, b1 of d tile 1.
 */
__host__ __device__ constexpr int ldm_q_row(int lane) { return lane % 16; }
__host__ __device__ constexpr int ldm_q_col(int lane) { return lane / 16 * 8; }
__host__ __device__ constexpr int ldm_k_row(int lane) { return lane % 8 + lane / 16 * 8; }
__host__ __device__ constexpr int ldm_k_col(int lane) { return lane / 8 % 2 * 8; }
__host__ __device__ constexpr int ldm_v_row(int lane) { return lane % 16; }
__host__ __device__ constexpr int ldm_v_col(int lane) { return lane / 16 * 8; }

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

/*
 * d += a b, one m16n8k16 MMA: fp16 A (4 regs) and B (2 regs), fp32 C/D.
 * Not volatile: a pure function of its operands, free to be scheduled.
 */
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
					  uint32_t b1)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ float ex2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
	return y;
}

__device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
	__half2 h = __floats2half2_rn(lo, hi); /* lo in the low 16 bits */
	return *(uint32_t *)&h;
}

__device__ __forceinline__ void cp_async_commit(void) { asm volatile("cp.async.commit_group;\n" ::); }

template <int N> __device__ __forceinline__ void cp_async_wait(void)
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/*
 * Issues the copy of rows [row0, row0+NROWS) of a [S][HEAD_DIM] matrix into
 * shared memory at dst (row stride LDS halves); rows at or past S are
 * zero-filled (cp.async with src-size 0 reads nothing; the source address
 * is clamped to row 0 anyway).  The caller commits the group.
 */
template <int NROWS>
__device__ __forceinline__ void load_rows(uint32_t dst, const __half *__restrict__ src, int row0,
					  int S, int tid)
{
	constexpr int N = NROWS * CPR, ITERS = (N + THREADS - 1) / THREADS;
#pragma unroll
	for (int it = 0; it < ITERS; it++) {
		const int i = tid + it * THREADS;
		if (N % THREADS != 0 && i >= N)
			break;
		const int r = i / CPR, c = i % CPR;
		const bool ok = row0 + r < S;
		const __half *g = src + (size_t)(ok ? row0 + r : 0) * HEAD_DIM + c * 8;
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
				     dst + (uint32_t)(r * LDS + c * 8) * 2),
			     "l"(g), "r"(ok ? 16 : 0));
	}
}

/*
 * grid: (ceil(S / BLOCK_M), H, B); block: THREADS; dynamic smem: SMEM_BYTES.
 * scale_log2 = scale * log2(e) > 0.
 */
__global__ void __launch_bounds__(THREADS)
attention_fwd_kernel5(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o, int H, int S,
		      float scale_log2)
{
	extern __shared__ __align__(128) unsigned char smem[];
	const uint32_t s_q = (uint32_t)__cvta_generic_to_shared(smem);
	const uint32_t s_k = s_q + Q_BYTES, s_v = s_k + STAGES * KV_BYTES;

	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int m0 = blockIdx.x * BLOCK_M;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;
	const __half *k = d_k + head, *v = d_v + head;
	const int n_tiles = (S + BLOCK_N - 1) / BLOCK_N;

	/* prologue: Q and tiles 0..STAGES-2, one commit group per tile (Q in the first) */
	load_rows<BLOCK_M>(s_q, d_q + head, m0, S, tid);
#pragma unroll
	for (int t = 0; t < STAGES - 1; t++) {
		if (t < n_tiles) {
			load_rows<BLOCK_N>(s_k + t * KV_BYTES, k, t * BLOCK_N, S, tid);
			load_rows<BLOCK_N>(s_v + t * KV_BYTES, v, t * BLOCK_N, S, tid);
		}
		cp_async_commit();
	}
	cp_async_wait<STAGES - 2>();
	__syncthreads();

	/* this warp's 16 Q rows as A fragments, for the whole kernel */
	uint32_t qf[KS_D][4];
#pragma unroll
	for (int kk = 0; kk < KS_D; kk++)
		ldmatrix_x4(qf[kk], s_q + (uint32_t)((warp * 16 + ldm_q_row(lane)) * LDS + kk * 16 +
						     ldm_q_col(lane)) * 2);

	float o[NT_O][4];
#pragma unroll
	for (int i = 0; i < NT_O; i++)
		o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.0f;
	float m_run[2] = {-INFINITY, -INFINITY}; /* rows g, g+8; scaled, log2 units */
	float l_run[2] = {0.0f, 0.0f};           /* this thread's columns only */

	for (int j = 0; j < n_tiles; j++) {
		/* tile j landed for every thread; every warp is done with tile j-1 */
		cp_async_wait<STAGES - 2>();
		__syncthreads();
		{
			const int jn = j + STAGES - 1, buf = jn % STAGES;
			if (jn < n_tiles) {
				load_rows<BLOCK_N>(s_k + buf * KV_BYTES, k, jn * BLOCK_N, S, tid);
				load_rows<BLOCK_N>(s_v + buf * KV_BYTES, v, jn * BLOCK_N, S, tid);
			}
			cp_async_commit(); /* possibly empty: keeps the group count uniform */
		}
		const uint32_t kb = s_k + (j % STAGES) * KV_BYTES, vb = s_v + (j % STAGES) * KV_BYTES;

		/* S = Q K^T, 16 rows x BLOCK_N keys per warp */
		float s[NT_S][4];
#pragma unroll
		for (int i = 0; i < NT_S; i++)
			s[i][0] = s[i][1] = s[i][2] = s[i][3] = 0.0f;
#pragma unroll
		for (int kk = 0; kk < KS_D; kk++)
#pragma unroll
			for (int nn = 0; nn < BLOCK_N / 16; nn++) {
				uint32_t b[4];
				ldmatrix_x4(b, kb + (uint32_t)((nn * 16 + ldm_k_row(lane)) * LDS + kk * 16 +
							       ldm_k_col(lane)) * 2);
				mma_16816(s[2 * nn], qf[kk], b[0], b[1]);
				mma_16816(s[2 * nn + 1], qf[kk], b[2], b[3]);
			}

		/* keys past S (last tile only): -inf before the max */
		if ((j + 1) * BLOCK_N > S) {
#pragma unroll
			for (int i = 0; i < NT_S; i++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					if (j * BLOCK_N + 8 * i + mma_acc_col(lane, e) >= S)
						s[i][e] = -INFINITY;
		}

		/* online softmax: row r of this thread is groupID + 8r */
		float alpha[2], m_scaled[2];
#pragma unroll
		for (int r = 0; r < 2; r++) {
			float mx = -INFINITY;
#pragma unroll
			for (int i = 0; i < NT_S; i++)
				mx = fmaxf(mx, fmaxf(s[i][2 * r], s[i][2 * r + 1]));
			mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
			mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
			const float m_new = fmaxf(m_run[r], mx * scale_log2); /* finite */
			alpha[r] = ex2(m_run[r] - m_new);                     /* 0 on tile 0 */
			m_run[r] = m_new;
			m_scaled[r] = -m_new;
		}
		float rs[2] = {0.0f, 0.0f};
#pragma unroll
		for (int i = 0; i < NT_S; i++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				s[i][e] = ex2(fmaf(s[i][e], scale_log2, m_scaled[e / 2]));
				rs[e / 2] += s[i][e];
			}
#pragma unroll
		for (int r = 0; r < 2; r++)
			l_run[r] = l_run[r] * alpha[r] + rs[r];
#pragma unroll
		for (int i = 0; i < NT_O; i++) {
			o[i][0] *= alpha[0];
			o[i][1] *= alpha[0];
			o[i][2] *= alpha[1];
			o[i][3] *= alpha[1];
		}

		/* O += P V: P's accumulators are the A fragments */
#pragma unroll
		for (int kk = 0; kk < KS_N; kk++) {
			uint32_t a[4];
#pragma unroll
			for (int r = 0; r < 4; r++)
				a[r] = pack_half2(s[p_tile(kk, r)][p_elem(r)], s[p_tile(kk, r)][p_elem(r) + 1]);
#pragma unroll
			for (int dd = 0; dd < HEAD_DIM / 16; dd++) {
				uint32_t b[4];
				ldmatrix_x4_trans(b, vb + (uint32_t)((kk * 16 + ldm_v_row(lane)) * LDS +
								     dd * 16 + ldm_v_col(lane)) * 2);
				mma_16816(o[2 * dd], a, b[0], b[1]);
				mma_16816(o[2 * dd + 1], a, b[2], b[3]);
			}
		}
	}
	cp_async_wait<0>(); /* only empty groups can be left; drain them anyway */

	/* O / l through this warp's own Q rows in shared memory, then 16-byte stores */
	float inv[2];
#pragma unroll
	for (int r = 0; r < 2; r++) {
		float l = l_run[r];
		l += __shfl_xor_sync(0xffffffffu, l, 1);
		l += __shfl_xor_sync(0xffffffffu, l, 2);
		inv[r] = 1.0f / l; /* l >= 1: the row max contributes exp2(0) */
	}
	__half *stage = (__half *)smem + warp * 16 * LDS;
#pragma unroll
	for (int i = 0; i < NT_O; i++)
#pragma unroll
		for (int r = 0; r < 2; r++)
			*(uint32_t *)(stage + mma_acc_row(lane, 2 * r) * LDS + 8 * i +
				      mma_acc_col(lane, 2 * r)) =
				pack_half2(o[i][2 * r] * inv[r], o[i][2 * r + 1] * inv[r]);
	__syncwarp();
	__half *out = d_o + head;
#pragma unroll
	for (int it = 0; it < 16 * CPR / 32; it++) {
		const int i = lane + 32 * it, r = i / CPR, c = i % CPR, row = m0 + warp * 16 + r;
		if (row < S)
			*(uint4 *)(out + (size_t)row * HEAD_DIM + c * 8) =
				*(const uint4 *)(stage + r * LDS + c * 8);
	}
}

/* Checks the launch and raises the dynamic shared-memory limit. */
static int fa_mma_init(struct ev_launch *l, char *err, size_t errlen)
{
	if (l->n_inputs != 3 || l->n_outputs != 1) {
		snprintf(err, errlen, "attention_fwd needs 3 inputs and 1 output, got %d and %d",
			 l->n_inputs, l->n_outputs);
		return 1;
	}
	const struct ev_tensor *t0 = &l->inputs[0];
	for (int i = 0; i < 4; i++) {
		const struct ev_tensor *t = i < 3 ? &l->inputs[i] : &l->outputs[0];
		if (t->dtype != EV_F16 || t->ndim != 4) {
			snprintf(err, errlen, "tensor %d must be fp16 with 4 dims", i);
			return 1;
		}
		for (int d = 0; d < 4; d++)
			if (t->dims[d] != t0->dims[d]) {
				snprintf(err, errlen, "Q, K, V and O must all be [B, H, S, D]");
				return 1;
			}
		if ((uintptr_t)t->data % 16 != 0) {
			snprintf(err, errlen, "tensor %d is not 16-byte aligned (16-byte cp.async and stores)", i);
			return 1;
		}
	}
	const long long B = t0->dims[0], H = t0->dims[1], S = t0->dims[2], D = t0->dims[3];
	if (D != HEAD_DIM) {
		snprintf(err, errlen, "compiled for HEAD_DIM=%d, got D=%lld (rebuild with -DHEAD_DIM=%lld)",
			 HEAD_DIM, D, D);
		return 1;
	}
	if (B < 1 || H < 1 || S < 1 || B > 65535 || H > 65535 || S > INT32_MAX - BLOCK_N) {
		snprintf(err, errlen, "shape B=%lld H=%lld S=%lld out of range for the grid", B, H, S);
		return 1;
	}
	if (!(l->scale > 0.0 && l->scale < 1e30)) {
		snprintf(err, errlen, "scale=%g must be positive and finite (the row max is taken before scaling)",
			 l->scale);
		return 1;
	}
	int dev = 0, optin = 0;
	cudaError_t e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot query the device: %s", cudaGetErrorString(e));
		return 1;
	}
	if (SMEM_BYTES > (size_t)optin) {
		snprintf(err, errlen, "tiles need %zu B of shared memory, the device allows %d B per block",
			 (size_t)SMEM_BYTES, optin);
		return 1;
	}
	e = cudaFuncSetAttribute(attention_fwd_kernel5, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)SMEM_BYTES);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allow %zu B of dynamic shared memory: %s",
			 (size_t)SMEM_BYTES, cudaGetErrorString(e));
		return 1;
	}
	return 0;
}

static int fa_mma_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid((unsigned)((S + BLOCK_M - 1) / BLOCK_M), (unsigned)H, (unsigned)B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel5<<<grid, THREADS, SMEM_BYTES, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("fa_mma", "cuda", "attention_fwd", fa_mma_init, fa_mma_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N) " "
		      EV_PARAM(NUM_WARPS) " " EV_PARAM(STAGES))
