/*
 * mma_layout_sim.cu - checks the fragment index math of
 * kernels/attention/fa_mma.cu on the host, without a GPU.
 *
 * fa_mma's thread -> element mapping lives in its host-callable helpers
 * (mma_acc_row/col, p_tile/p_elem, ldm_{q,k,v}_{row,col}).  This program
 * includes the kernel file, emulates ldmatrix.x4 (with and without .trans)
 * and mma.sync.m16n8k16.row.col as the PTX ISA's tables define them
 * ("Matrix fragments for mma.m16n8k16 with floating point type",
 * "Warp-level matrix load instruction: ldmatrix"), and runs every warp of
 * one block through one K/V tile the way the kernel does: Q fragments from
 * the Q tile, S = Q K^T, P taken from S's accumulators as A fragments,
 * O = P V.  Inputs are small integers, so every product is exact and S and
 * O must equal the reference bit for bit at the (row, column) the kernel's
 * helpers say each accumulator element holds.  It also counts shared-memory
 * bank conflicts of the ldmatrix row addresses (8 rows of 16 bytes per
 * phase) and of the O staging stores with the kernel's padded row stride.
 *
 * Build and run (any -D tunables of the kernel may be added; fa_mma2.cu,
 * which shares the helpers, with -DSIM_KERNEL='"../../kernels/attention/fa_mma2.cu"'):
 *   nvcc -arch=sm_80 -Ikernels -o mma_layout_sim tests/gpu/mma_layout_sim.cu
 *   ./mma_layout_sim        prints "ok ..." and exits 0, or names a mismatch
 */
#ifdef SIM_KERNEL /* e.g. -DSIM_KERNEL='"../../kernels/attention/fa_mma2.cu"' */
#include SIM_KERNEL
#else
#include "../../kernels/attention/fa_mma.cu"
#endif

#include <stdlib.h>
#include <string.h>

/* A register of the emulated warp: two 16-bit elements, kept as floats. */
struct reg2 {
	float lo, hi;
};

static float q_t[BLOCK_M][LDS], k_t[BLOCK_N][LDS], v_t[BLOCK_N][LDS];
static int failures;

/* ldmatrix.x4 on a row-major tile: lane L supplies the address (row[L], col[L]). */
static void emu_ldmatrix_x4(float (*tile)[LDS], const int row[32], const int col[32], int trans,
			    reg2 out[32][4])
{
	for (int lane = 0; lane < 32; lane++)
		for (int m = 0; m < 4; m++) {
			/* matrix m's 8 rows come from lanes 8m..8m+7 */
			float e[2];
			for (int h = 0; h < 2; h++) {
				int rr, cc;
				if (!trans) { /* lane holds row lane/4, columns 2*(lane%4)+h */
					rr = lane / 4;
					cc = 2 * (lane % 4) + h;
				} else { /* transposed: row 2*(lane%4)+h, column lane/4 */
					rr = 2 * (lane % 4) + h;
					cc = lane / 4;
				}
				e[h] = tile[row[8 * m + rr]][col[8 * m + rr] + cc];
			}
			out[lane][m].lo = e[0];
			out[lane][m].hi = e[1];
		}
}

/* mma.m16n8k16 row.col: D = A B + C, fragments distributed per the PTX tables. */
static void emu_mma(float d[32][4], reg2 a[32][4], reg2 b0[32], reg2 b1[32])
{
	float A[16][16], B[16][8], C[16][8];
	for (int lane = 0; lane < 32; lane++) {
		const int g = lane >> 2, t = lane % 4;
		for (int i = 0; i < 8; i++) { /* a_i: register i/2, half i%2 */
			const int row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
			const int col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
			const reg2 r = a[lane][i / 2];
			A[row][col] = i % 2 ? r.hi : r.lo;
		}
		for (int i = 0; i < 4; i++) { /* b_i */
			const int row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
			const reg2 r = i < 2 ? b0[lane] : b1[lane];
			B[row][g] = i % 2 ? r.hi : r.lo;
		}
		for (int i = 0; i < 4; i++) /* c_i */
			C[g + (i >= 2 ? 8 : 0)][2 * t + (i & 1)] = d[lane][i];
	}
	for (int lane = 0; lane < 32; lane++) {
		const int g = lane >> 2, t = lane % 4;
		for (int i = 0; i < 4; i++) {
			const int row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
			float acc = C[row][col];
			for (int kk = 0; kk < 16; kk++)
				acc += A[row][kk] * B[kk][col];
			d[lane][i] = acc;
		}
	}
}

/* Bank conflicts of one ldmatrix: each 8-address phase should touch 8 distinct 16-byte groups. */
static int ldm_conflicts(const int row[32], const int col[32])
{
	int bad = 0;
	for (int m = 0; m < 4; m++) {
		int seen[8] = {0};
		for (int r = 0; r < 8; r++) {
			const int byte = (row[8 * m + r] * LDS + col[8 * m + r]) * 2;
			if (byte % 16) {
				printf("misaligned ldmatrix row address (byte %d)\n", byte);
				failures++;
			}
			seen[(byte % 128) / 16]++;
		}
		for (int i = 0; i < 8; i++)
			if (seen[i] > 1)
				bad += seen[i] - 1;
	}
	return bad;
}

static void expect(float got, double want, const char *what, int w, int lane, int i, int e)
{
	if (got != (float)want && failures++ < 10)
		printf("MISMATCH %s: warp %d lane %d tile %d elem %d: got %g want %g\n", what, w, lane, i,
		       e, got, want);
}

int main(void)
{
	srand(12345);
	for (int r = 0; r < BLOCK_M; r++)
		for (int c = 0; c < LDS; c++)
			q_t[r][c] = c < HEAD_DIM ? (float)(rand() % 5 - 2) : 1e9f; /* pad: poison */
	for (int r = 0; r < BLOCK_N; r++)
		for (int c = 0; c < LDS; c++) {
			k_t[r][c] = c < HEAD_DIM ? (float)(rand() % 5 - 2) : 1e9f;
			v_t[r][c] = c < HEAD_DIM ? (float)(rand() % 5 - 2) : 1e9f;
		}
	int conflicts = 0, row[32], col[32];
	static reg2 qf[KS_D][32][4], b[32][4];
	static float s[NT_S][32][4], o[NT_O][32][4];

	for (int w = 0; w < BLOCK_M / 16; w++) { /* every row group */
		/* Q fragments */
		for (int kk = 0; kk < KS_D; kk++) {
			for (int lane = 0; lane < 32; lane++) {
				row[lane] = w * 16 + ldm_q_row(lane);
				col[lane] = kk * 16 + ldm_q_col(lane);
			}
			conflicts += ldm_conflicts(row, col);
			emu_ldmatrix_x4(q_t, row, col, 0, qf[kk]);
		}
		/* S = Q K^T */
		memset(s, 0, sizeof(s));
		for (int kk = 0; kk < KS_D; kk++)
			for (int nn = 0; nn < BLOCK_N / 16; nn++) {
				for (int lane = 0; lane < 32; lane++) {
					row[lane] = nn * 16 + ldm_k_row(lane);
					col[lane] = kk * 16 + ldm_k_col(lane);
				}
				conflicts += ldm_conflicts(row, col);
				emu_ldmatrix_x4(k_t, row, col, 0, b);
				reg2 b0[32], b1[32], b2[32], b3[32];
				for (int lane = 0; lane < 32; lane++)
					b0[lane] = b[lane][0], b1[lane] = b[lane][1], b2[lane] = b[lane][2],
					b3[lane] = b[lane][3];
				emu_mma(s[2 * nn], qf[kk], b0, b1);
				emu_mma(s[2 * nn + 1], qf[kk], b2, b3);
			}
		static double sref[16][BLOCK_N];
		for (int r = 0; r < 16; r++)
			for (int n = 0; n < BLOCK_N; n++) {
				double acc = 0;
				for (int d = 0; d < HEAD_DIM; d++)
					acc += (double)q_t[w * 16 + r][d] * k_t[n][d];
				sref[r][n] = acc;
			}
		for (int i = 0; i < NT_S; i++)
			for (int lane = 0; lane < 32; lane++)
				for (int e = 0; e < 4; e++)
					expect(s[i][lane][e], sref[mma_acc_row(lane, e)][8 * i + mma_acc_col(lane, e)],
					       "S", w, lane, i, e);
		/* O = P V with P = S (exact: |S| <= 4*HEAD_DIM fits fp16 integers) */
		memset(o, 0, sizeof(o));
		for (int kk = 0; kk < KS_N; kk++) {
			reg2 a[32][4];
			for (int lane = 0; lane < 32; lane++)
				for (int r = 0; r < 4; r++) {
					a[lane][r].lo = s[p_tile(kk, r)][lane][p_elem(r)];
					a[lane][r].hi = s[p_tile(kk, r)][lane][p_elem(r) + 1];
				}
			for (int dd = 0; dd < HEAD_DIM / 16; dd++) {
				for (int lane = 0; lane < 32; lane++) {
					row[lane] = kk * 16 + ldm_v_row(lane);
					col[lane] = dd * 16 + ldm_v_col(lane);
				}
				conflicts += ldm_conflicts(row, col);
				emu_ldmatrix_x4(v_t, row, col, 1, b);
				reg2 b0[32], b1[32], b2[32], b3[32];
				for (int lane = 0; lane < 32; lane++)
					b0[lane] = b[lane][0], b1[lane] = b[lane][1], b2[lane] = b[lane][2],
					b3[lane] = b[lane][3];
				emu_mma(o[2 * dd], a, b0, b1);
				emu_mma(o[2 * dd + 1], a, b2, b3);
			}
		}
		for (int i = 0; i < NT_O; i++)
			for (int lane = 0; lane < 32; lane++)
				for (int e = 0; e < 4; e++) {
					const int r = mma_acc_row(lane, e), c = 8 * i + mma_acc_col(lane, e);
					double acc = 0;
					for (int n = 0; n < BLOCK_N; n++)
						acc += sref[r][n] * v_t[n][c];
					expect(o[i][lane][e], acc, "O", w, lane, i, e);
				}
	}
	/* O staging stores: lane writes 4 bytes at (acc row, 8i + acc col) of its warp's rows */
	int st_conflicts = 0;
	for (int i = 0; i < NT_O; i++)
		for (int r = 0; r < 2; r++) {
			int banks[32] = {0};
			for (int lane = 0; lane < 32; lane++) {
				const int byte = (mma_acc_row(lane, 2 * r) * LDS + 8 * i + mma_acc_col(lane, 2 * r)) * 2;
				banks[(byte / 4) % 32]++;
			}
			for (int k2 = 0; k2 < 32; k2++)
				if (banks[k2] > 1)
					st_conflicts += banks[k2] - 1;
		}
	if (failures) {
		printf("FAILED: %d mismatches (HEAD_DIM=%d BLOCK_M=%d BLOCK_N=%d)\n", failures, HEAD_DIM,
		       BLOCK_M, BLOCK_N);
		return 1;
	}
	printf("ok: S and O exact for %d row warps, HEAD_DIM=%d BLOCK_M=%d BLOCK_N=%d; "
	       "ldmatrix bank conflicts %d, O staging store conflicts %d\n",
	       BLOCK_M / 16, HEAD_DIM, BLOCK_M, BLOCK_N, conflicts, st_conflicts);
	return conflicts || st_conflicts ? 1 : 0;
}
