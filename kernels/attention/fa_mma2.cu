/*
 * fa_mma2.cu - fa_mma.cu with the keys split across the warps of a block,
 * attention_fwd: the short-S rung.
 *
 * One idea over fa_mma: at short S a warp of fa_mma walks every K/V tile in
 * series (8 tiles at S=512) with 2-3 warps per scheduler to hide the
 * latency of that chain, and Nsight Compute saw 12% achieved occupancy.
 * Here a block has KV_SPLIT groups of BLOCK_M/16 warps; warp (g, w) owns
 * query rows [16w, 16w+16) and, of every block-wide K/V tile of
 * KV_SPLIT*BLOCK_N keys, the slice [g*BLOCK_N, (g+1)*BLOCK_N).  Each group
 * runs fa_mma's loop on its slices (the same fragment math, cp.async ring,
 * online softmax in registers), so each warp's chain is KV_SPLIT times
 * shorter and there are KV_SPLIT times as many warps for the same rows,
 * sharing one copy of Q and of each K/V tile.  At the end the groups g > 0
 * leave their unnormalised O, running max m and sum l in shared memory
 * (the K/V ring, no longer needed) in register order, so each thread of
 * group 0 reads back exactly the elements it holds and merges them:
 *   m = max(m_0, m_g), O = O_0 exp2(m_0 - m) + O_g exp2(m_g - m), likewise l,
 * then normalises and stores as fa_mma does.
 * A slice can lie wholly past S (short S, the last tile): its scores are
 * all -inf, so the running max may stay -inf; the exponent base is then 0
 * (exp2(-inf - 0) = 0, never exp2(-inf + inf) = NaN) and the group's state
 * stays O = 0, l = 0, m = -inf, which the merge weighs by exp2(-inf) = 0.
 * Group 0's first slice holds key 0, so its max, and the merged one, is
 * finite.
 *
 * Shared memory (dynamic; init raises the limit):
 *   BLOCK_M*(D+8)*2 for Q, then the larger of the K/V ring,
 *   2*STAGES*KV_SPLIT*BLOCK_N*(D+8)*2, and the merge area that reuses it,
 *   (KV_SPLIT-1)*BLOCK_M*(D+8)*4; e.g. BLOCK_M=64, BLOCK_N=32, KV_SPLIT=2
 *   at D=64: 46,080 B.
 *
 * Tensors, tails and launch contract: as fa_mma.cu (any S >= 1; Q/K/V/O
 * fp16 [B, H, S, D], 16-byte aligned; D = HEAD_DIM; scale > 0; pointers
 * read on every launch).
 *
 * Seen (tests/gpu/kcheck.cu --cold, H100, 2026-11-23): correct at every shape
 * and input distribution tried, but no faster than fa_mma at B4 H8 S512
 * D64 (15.36 us at BLOCK_M=128 KV_SPLIT=2 against fa_mma's 15.01 us) and
 * slower at long S: Nsight Compute saw achieved occupancy double (12%
 * -> 23%) and the kernel time stay at 13.6-14.1 us, so per-warp latency
 * is not what bounds fa_mma there.  Kept as the recorded negative result.
 *
 * Versions in this file:
 *   attention_fwd_kernel6  fa_mma with the keys of each tile split over
 *                          KV_SPLIT warp groups and a final merge
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params; invalid combinations
 * are static_asserts):
 *   HEAD_DIM    D compiled for: 32, 64 or 128 (default 64)
 *   BLOCK_M     query rows per block, a multiple of 16 (default 64)
 *   BLOCK_N     keys per warp per tile, a multiple of 16 (default 32)
 *   KV_SPLIT    warp groups splitting each tile's keys, 1..8 (default 2)
 *   NUM_WARPS   warps per block: BLOCK_M/16 * KV_SPLIT, at most 16 (default 8)
 *   STAGES      block-wide K/V tiles in the cp.async ring, 2..4 (default 2)
 *   MIN_BLOCKS  blocks per SM asked of the register allocator (the second
 *               argument of __launch_bounds__), 1..4 (default 1)
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
#ifndef BLOCK_M
#define BLOCK_M 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 32
#endif
#ifndef KV_SPLIT
#define KV_SPLIT 2
#endif
#ifndef NUM_WARPS
#define NUM_WARPS 8
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(BLOCK_M >= 16 && BLOCK_M % 16 == 0, "BLOCK_M must be a positive multiple of 16");
static_assert(KV_SPLIT >= 1 && KV_SPLIT <= 8, "KV_SPLIT must be in [1, 8]");
static_assert(NUM_WARPS == BLOCK_M / 16 * KV_SPLIT,
	      "NUM_WARPS must be BLOCK_M/16 * KV_SPLIT (a warp per 16 rows per key group)");
static_assert(NUM_WARPS <= 16, "NUM_WARPS must be at most 16 (512 threads)");
static_assert(BLOCK_N >= 16 && BLOCK_N <= 256 && BLOCK_N % 16 == 0,
	      "BLOCK_N must be a multiple of 16 in [16, 256] (the second MMA takes 16 keys at a time)");
static_assert(STAGES >= 2 && STAGES <= 4, "STAGES must be 2, 3 or 4 (cp.async ring of K/V tiles)");
static_assert(MIN_BLOCKS >= 1 && MIN_BLOCKS <= 4, "MIN_BLOCKS must be in [1, 4]");

#define THREADS (NUM_WARPS * 32)
#define ROW_WARPS (BLOCK_M / 16)          /* warps per key group */
#define TILE_N (KV_SPLIT * BLOCK_N)       /* keys per block-wide K/V tile */
#define LDS (HEAD_DIM + 8)                /* shared-memory row stride, halves */
#define CPR (HEAD_DIM / 8)                /* 16-byte chunks per row */
#define Q_BYTES (BLOCK_M * LDS * 2)
#define KV_BYTES (TILE_N * LDS * 2)       /* one K or one V tile */
#define RING_BYTES (2 * (size_t)STAGES * KV_BYTES)
#define XCH_VEC (HEAD_DIM / 8 + 1)        /* float4s per lane in the merge area */
#define XCH_BYTES ((size_t)(KV_SPLIT - 1) * ROW_WARPS * 32 * XCH_VEC * 16)
#define SMEM_BYTES ((size_t)Q_BYTES + (RING_BYTES > XCH_BYTES ? RING_BYTES : XCH_BYTES))
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
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
attention_fwd_kernel6(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o, int H, int S,
		      float scale_log2)
{
	extern __shared__ __align__(128) unsigned char smem[];
	const uint32_t s_q = (uint32_t)__cvta_generic_to_shared(smem);
	const uint32_t s_k = s_q + Q_BYTES, s_v = s_k + STAGES * KV_BYTES;

	const int tid = threadIdx.x, lane = tid % 32;
	const int warp = tid / 32 % ROW_WARPS; /* row group: rows 16*warp.. of the block */
	const int grp = tid / 32 / ROW_WARPS;  /* key group: slice grp of every tile */
	const int m0 = blockIdx.x * BLOCK_M;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;
	const __half *k = d_k + head, *v = d_v + head;
	const int n_tiles = (S + TILE_N - 1) / TILE_N;

	/* prologue: Q and tiles 0..STAGES-2, one commit group per tile (Q in the first) */
	load_rows<BLOCK_M>(s_q, d_q + head, m0, S, tid);
#pragma unroll
	for (int t = 0; t < STAGES - 1; t++) {
		if (t < n_tiles) {
			load_rows<TILE_N>(s_k + t * KV_BYTES, k, t * TILE_N, S, tid);
			load_rows<TILE_N>(s_v + t * KV_BYTES, v, t * TILE_N, S, tid);
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
				load_rows<TILE_N>(s_k + buf * KV_BYTES, k, jn * TILE_N, S, tid);
				load_rows<TILE_N>(s_v + buf * KV_BYTES, v, jn * TILE_N, S, tid);
			}
			cp_async_commit(); /* possibly empty: keeps the group count uniform */
		}
		/* this warp's slice: keys key0 .. key0+BLOCK_N-1 */
		const int key0 = j * TILE_N + grp * BLOCK_N;
		const uint32_t slice = (uint32_t)(grp * BLOCK_N * LDS * 2);
		const uint32_t kb = s_k + (j % STAGES) * KV_BYTES + slice;
		const uint32_t vb = s_v + (j % STAGES) * KV_BYTES + slice;

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
		if (key0 + BLOCK_N > S) {
#pragma unroll
			for (int i = 0; i < NT_S; i++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					if (key0 + 8 * i + mma_acc_col(lane, e) >= S)
						s[i][e] = -INFINITY;
		}

		/*
		 * online softmax: row r of this thread is groupID + 8r; a slice
		 * wholly past S leaves the max at -inf, then the base is 0
		 */
		float alpha[2], m_scaled[2];
#pragma unroll
		for (int r = 0; r < 2; r++) {
			float mx = -INFINITY;
#pragma unroll
			for (int i = 0; i < NT_S; i++)
				mx = fmaxf(mx, fmaxf(s[i][2 * r], s[i][2 * r + 1]));
			mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
			mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
			const float m_new = fmaxf(m_run[r], mx * scale_log2);
			const float base = m_new == -INFINITY ? 0.0f : m_new;
			alpha[r] = ex2(m_run[r] - base); /* 0 while m_run is -inf */
			m_run[r] = m_new;
			m_scaled[r] = -base;
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

#pragma unroll
	for (int r = 0; r < 2; r++) { /* the row sums over the quad */
		l_run[r] += __shfl_xor_sync(0xffffffffu, l_run[r], 1);
		l_run[r] += __shfl_xor_sync(0xffffffffu, l_run[r], 2);
	}
#if KV_SPLIT > 1
	/* merge: groups > 0 leave (O, m, l) in the K/V ring in register order */
	__syncthreads(); /* every warp is done with the ring */
	float4 *xch = (float4 *)(smem + Q_BYTES);
	if (grp > 0) {
		float4 *mine = xch + (size_t)((grp - 1) * ROW_WARPS + warp) * XCH_VEC * 32 + lane;
#pragma unroll
		for (int i = 0; i < NT_O; i++)
			mine[i * 32] = make_float4(o[i][0], o[i][1], o[i][2], o[i][3]);
		mine[NT_O * 32] = make_float4(m_run[0], m_run[1], l_run[0], l_run[1]);
	}
	__syncthreads();
	if (grp > 0)
		return;
#pragma unroll
	for (int x = 0; x < KV_SPLIT - 1; x++) {
		const float4 *theirs = xch + (size_t)(x * ROW_WARPS + warp) * XCH_VEC * 32 + lane;
		const float4 ml = theirs[NT_O * 32];
		const float m_x[2] = {ml.x, ml.y}, l_x[2] = {ml.z, ml.w};
		float a_me[2], a_x[2];
#pragma unroll
		for (int r = 0; r < 2; r++) {
			const float m = fmaxf(m_run[r], m_x[r]); /* finite: group 0 saw key 0 */
			a_me[r] = ex2(m_run[r] - m);
			a_x[r] = ex2(m_x[r] - m); /* 0 for a group that saw no key */
			l_run[r] = l_run[r] * a_me[r] + l_x[r] * a_x[r];
			m_run[r] = m;
		}
#pragma unroll
		for (int i = 0; i < NT_O; i++) {
			const float4 t = theirs[i * 32];
			o[i][0] = o[i][0] * a_me[0] + t.x * a_x[0];
			o[i][1] = o[i][1] * a_me[0] + t.y * a_x[0];
			o[i][2] = o[i][2] * a_me[1] + t.z * a_x[1];
			o[i][3] = o[i][3] * a_me[1] + t.w * a_x[1];
		}
	}
#endif

	/* O / l through this warp's own Q rows in shared memory, then 16-byte stores */
	float inv[2];
#pragma unroll
	for (int r = 0; r < 2; r++)
		inv[r] = 1.0f / l_run[r]; /* l >= 1: the row max contributes exp2(0) */
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
static int fa_mma2_init(struct ev_launch *l, char *err, size_t errlen)
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
	if (B < 1 || H < 1 || S < 1 || B > 65535 || H > 65535 || S > INT32_MAX - TILE_N) {
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
	e = cudaFuncSetAttribute(attention_fwd_kernel6, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)SMEM_BYTES);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allow %zu B of dynamic shared memory: %s",
			 (size_t)SMEM_BYTES, cudaGetErrorString(e));
		return 1;
	}
	return 0;
}

static int fa_mma2_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid((unsigned)((S + BLOCK_M - 1) / BLOCK_M), (unsigned)H, (unsigned)B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel6<<<grid, THREADS, SMEM_BYTES, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("fa_mma2", "cuda", "attention_fwd", fa_mma2_init, fa_mma2_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N) " "
		      EV_PARAM(KV_SPLIT) " " EV_PARAM(NUM_WARPS) " " EV_PARAM(STAGES) " "
		      EV_PARAM(MIN_BLOCKS))
