/*
 * wgmma_layout_sim.cu - checks, on the host and without a GPU, the layout
 * math of kernels/attention/fa_wgmma2.cu (fa_wgmma.cu's, with wider tiles): where the loads put Q, K and V in
 * shared memory, the wgmma matrix descriptors that read them, the register
 * fragments of the accumulators and of P, and the O staging of the
 * epilogue.
 *
 * It emulates, from the PTX ISA's text rather than from the kernel's
 * helpers:
 *   - TMA's CU_TENSOR_MAP_SWIZZLE_128B write of a box of 64 fp16 columns:
 *     element (r, c) at dst + r*128 + 2c, then the 16-byte chunk bits 4-6
 *     of the shared address XORed with its bits 7-9;
 *   - wgmma.mma_async reading A and B through a descriptor (9.7.15.5.1.2:
 *     the start address, LBO and SBO decoded from the 64-bit value, the
 *     canonical 128B-swizzle layouts, K-major ((8,m),(T,2k)):((8T,SBO),(1,T))
 *     and MN-major ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)) with T = 8 fp16,
 *     then Swizzle<3,4,3> on the byte address) or A from registers, and
 *     writing D into the m64nNk16 accumulator fragments (9.7.15.5.1.1.1);
 * and runs one block's first tile the way the kernel does, for every
 * (HEAD_DIM, BLOCK_N, NUM_WG) the kernel allows: S = Q K^T through the
 * kernel's q_addr/k_addr/make_desc, P from S's accumulators through
 * p_index, O = P V through v_addr/v_lbo, and O staged through the Q tile
 * with sw128_off/acc_row/acc_col and read back in 16-byte chunks.  Inputs
 * are small integers, so every product is exact: S and O must equal the
 * reference bit for bit.  It also checks that the cp.async loader's
 * sw128_off() is what the TMA emulation writes, that every tile starts on a
 * 1024-byte boundary (descriptor base offset 0), and counts bank
 * conflicts of the epilogue's 4-byte staging stores.
 *
 * What it cannot check: that the hardware does what the PTX ISA says; the
 * quick checker kernels/attention/tools/fa_wgmma_check.cu does that on an
 * H100.
 *
 * Build and run (make test-repo does, where nvcc exists):
 *   nvcc -gencode=arch=compute_90a,code=sm_90a -Ikernels -o wgmma_layout_sim tests/gpu/wgmma_layout_sim.cu
 *   ./wgmma_layout_sim      prints "ok ..." per configuration and exits 0, or names a mismatch
 */
#include "../../kernels/attention/fa_wgmma2.cu"

#include <stdlib.h>
#include <string.h>

#include <vector>

static int failures;

#define CHECK(cond, ...)                                    \
	do {                                                \
		if (!(cond)) {                              \
			if (failures++ < 20) {              \
				fprintf(stderr, "mismatch: "); \
				fprintf(stderr, __VA_ARGS__);  \
				fprintf(stderr, "\n");         \
			}                                   \
		}                                           \
	} while (0)

/* An emulated shared-memory window: 256 KB of fp16 values kept as floats (exact for small integers). */
struct smem_emu {
	std::vector<float> v;
	std::vector<int> written;
	smem_emu() : v(256 * 1024 / 2, NAN), written(256 * 1024 / 2, 0) {}
	void put(uint32_t byte_addr, float x)
	{
		CHECK(byte_addr % 2 == 0 && byte_addr < 256 * 1024, "address %u outside the window", byte_addr);
		v[byte_addr / 2] = x;
		written[byte_addr / 2]++;
	}
	float get(uint32_t byte_addr) const
	{
		CHECK(byte_addr % 2 == 0 && byte_addr < 256 * 1024, "read of %u outside the window", byte_addr);
		CHECK(written[byte_addr / 2] == 1, "read of shared byte %u, written %d times", byte_addr,
		      written[byte_addr / 2]);
		return v[byte_addr / 2];
	}
};

/* Swizzle<3,4,3> on a byte address: chunk bits 4-6 ^= bits 7-9. */
static uint32_t swz128(uint32_t a) { return a ^ (((a >> 7) & 7u) << 4); }

/* TMA, 3D tiled, SWIZZLE_128B: box of `rows` rows x 64 fp16 columns at dst. */
static void tma_box_emu(smem_emu &sm, uint32_t dst, int rows, const float *src, int ld, int col0)
{
	CHECK(dst % 1024 == 0, "TMA destination %u not 1024-aligned (the 128B swizzle pattern)", dst);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < 64; c++)
			sm.put(swz128(dst + (uint32_t)(r * 128 + c * 2)), src[r * ld + col0 + c]);
}

struct desc_fields {
	uint32_t start, lbo, sbo, base_offset, swizzle;
};
static desc_fields decode(uint64_t d)
{
	desc_fields f;
	f.start = (uint32_t)(d & 0x3FFF) << 4;
	f.lbo = (uint32_t)((d >> 16) & 0x3FFF) << 4;
	f.sbo = (uint32_t)((d >> 32) & 0x3FFF) << 4;
	f.base_offset = (uint32_t)((d >> 49) & 7);
	f.swizzle = (uint32_t)(d >> 62);
	return f;
}

/* Element (mn, k), k < 16, of a K-major 128B-swizzled operand (T = 8 fp16 per 16 bytes). */
static float read_kmajor(const smem_emu &sm, uint64_t d, int mn, int k)
{
	const desc_fields f = decode(d);
	CHECK(f.swizzle == 1 && f.base_offset == 0, "K-major descriptor: swizzle %u base offset %u", f.swizzle,
	      f.base_offset);
	/* ((8,m),(T,2k)):((8T,SBO),(1,T)) in elements: rows 128 B apart, 8-row groups SBO apart */
	const uint32_t a = f.start + (uint32_t)((mn % 8) * 128) + (uint32_t)(mn / 8) * f.sbo + (uint32_t)((k % 8) * 2) +
			   (uint32_t)((k / 8) * 16);
	return sm.get(swz128(a));
}

/* Element (k, n), k < 16, of an MN-major 128B-swizzled B operand (imm-trans-b = 1). */
static float read_mnmajor(const smem_emu &sm, uint64_t d, int k, int n)
{
	const desc_fields f = decode(d);
	CHECK(f.swizzle == 1 && f.base_offset == 0, "MN-major descriptor: swizzle %u base offset %u", f.swizzle,
	      f.base_offset);
	/* ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)): 64 n contiguous, n-panels LBO apart; k rows 128 B, 8-k groups SBO */
	const uint32_t a = f.start + (uint32_t)((n % 8) * 2) + (uint32_t)(((n / 8) % 8) * 16) + (uint32_t)(n / 64) * f.lbo +
			   (uint32_t)((k % 8) * 128) + (uint32_t)(k / 8) * f.sbo;
	return sm.get(swz128(a));
}

/* The m64nNk16 accumulator fragment (PTX ISA figure "WGMMA .m64nNk16 register
 * fragment layout for accumulator matrix D"), in CuTe's form: thread
 * (lane%4, lane/4, warp) : (2 cols, 1 row, 16 rows); value (i%2, (i/2)%2,
 * i/4) : (1 col, 8 rows, 8 cols). */
static void d_of(int t, int i, int *m, int *n)
{
	const int lane = t % 32, warp = t / 32;
	*m = (lane / 4) + 16 * warp + 8 * ((i / 2) % 2);
	*n = 2 * (lane % 4) + (i % 2) + 8 * (i / 4);
}
/* The A fragment from registers: register r's half h of thread t. */
static void a_of(int t, int r, int h, int *m, int *k)
{
	const int lane = t % 32, warp = t / 32;
	*m = (lane / 4) + 16 * warp + 8 * (r % 2);
	*k = 2 * (lane % 4) + h + 8 * (r / 2);
}

template <class C> static void run_config(void)
{
	constexpr int D = C::d, BN = C::bn, BM = C::bm;
	const int f0 = failures;
	/* the kernel's layout: every tile on a 1024-byte boundary of the aligned base */
	CHECK(C::off_q % 1024 == 0 && C::off_k % 1024 == 0 && C::off_v % 1024 == 0 && C::kv_bytes % 1024 == 0,
	      "tile offsets not 1024-aligned: q %u k %u v %u kv %u", C::off_q, C::off_k, C::off_v, C::kv_bytes);
	const uint32_t base = 2048; /* any 1024-aligned shared address */
	const uint32_t s_q = base + C::off_q, kb = base + C::off_k, vb = base + C::off_v;

	/* inputs: small integers, fp16-exact products and sums */
	std::vector<float> q(BM * D), k(BN * D), v(BN * D);
	unsigned st = 12345u + D * 7 + BN * 3 + BM;
	auto rnd = [&st]() { st = st * 1103515245u + 12345u; return (float)((int)((st >> 16) % 5) - 2); };
	for (float &x : q) x = rnd();
	for (float &x : k) x = rnd();
	for (float &x : v) x = rnd();

	smem_emu sm;
	for (int p = 0; p < D / 64; p++) {
		tma_box_emu(sm, s_q + p * BM * 128, BM, q.data(), D, p * 64);
		tma_box_emu(sm, kb + p * BN * 128, BN, k.data(), D, p * 64);
		tma_box_emu(sm, vb + p * BN * 128, BN, v.data(), D, p * 64);
	}
	/* the cp.async loader (STEP=1) writes where TMA does */
	for (int r = 0; r < BN; r++)
		for (int c = 0; c < D; c++)
			CHECK(sw128_off(r, c, BN) == swz128(kb + (c / 64) * BN * 128 + r * 128 + (c % 64) * 2) - kb,
			      "sw128_off(%d, %d, %d) = %u is not where TMA puts it", r, c, BN, sw128_off(r, c, BN));

	for (int wg = 0; wg < C::nwg; wg++) {
		/* S = Q K^T as issue_qk issues it */
		std::vector<double> s(64 * BN, 0.0);
		for (int kk = 0; kk < D / 16; kk++) {
			const uint64_t da = make_desc(q_addr<C>(s_q, wg, kk), KMAJOR_LBO, SW128_SBO);
			const uint64_t db = make_desc(k_addr<C>(kb, kk), KMAJOR_LBO, SW128_SBO);
			CHECK((decode(da).start & 0x380) == 0 && (decode(db).start & 0x380) == 0,
			      "k-step %d starts inside a swizzle row group (base offset would not be 0)", kk);
			for (int m = 0; m < 64; m++)
				for (int n = 0; n < BN; n++) {
					double acc = kk > 0 ? s[m * BN + n] : 0.0; /* scale-d = (kk > 0) */
					for (int kx = 0; kx < 16; kx++)
						acc += (double)read_kmajor(sm, da, m, kx) * read_kmajor(sm, db, n, kx);
					s[m * BN + n] = acc;
				}
		}
		for (int m = 0; m < 64; m++)
			for (int n = 0; n < BN; n++) {
				double ref = 0.0;
				for (int c = 0; c < D; c++)
					ref += (double)q[(wg * 64 + m) * D + c] * k[n * D + c];
				CHECK(s[m * BN + n] == ref, "D=%d BN=%d wg %d: S[%d][%d] = %g, want %g", D, BN, wg, m, n,
				      s[m * BN + n], ref);
			}

		/* S into the 128 threads' accumulators; the kernel's acc_row/acc_col agree */
		static float sreg[128][128];
		for (int t = 0; t < 128; t++)
			for (int i = 0; i < BN / 2; i++) {
				int m, n;
				d_of(t, i, &m, &n);
				sreg[t][i] = (float)s[m * BN + n];
				CHECK(acc_row(t / 32, t % 32, i) == m && acc_col(t % 32, i) == n,
				      "acc_row/acc_col(%d, %d) = (%d, %d), the fragment says (%d, %d)", t, i,
				      acc_row(t / 32, t % 32, i), acc_col(t % 32, i), m, n);
			}

		/* O = P V with P = S (no softmax: the layout is the point), as issue_pv issues it */
		std::vector<double> o(64 * D, 0.0);
		for (int kk = 0; kk < BN / 16; kk++) {
			const uint64_t dv = make_desc(v_addr<C>(vb, kk), v_lbo<C>(), SW128_SBO);
			CHECK((decode(dv).start & 0x380) == 0, "V k-step %d not on a swizzle row group", kk);
			/* A from registers: thread t's register r = (sreg[p_index], sreg[p_index+1]) */
			static float a[64][16];
			for (int t = 0; t < 128; t++)
				for (int r = 0; r < 4; r++)
					for (int h = 0; h < 2; h++) {
						int m, kx;
						a_of(t, r, h, &m, &kx);
						a[m][kx] = sreg[t][p_index(kk, r) + h];
					}
			for (int m = 0; m < 64; m++)
				for (int n = 0; n < D; n++) {
					double acc = o[m * D + n];
					for (int kx = 0; kx < 16; kx++)
						acc += (double)a[m][kx] * read_mnmajor(sm, dv, kx, n);
					o[m * D + n] = acc;
				}
		}
		for (int m = 0; m < 64; m++)
			for (int n = 0; n < D; n++) {
				double ref = 0.0;
				for (int key = 0; key < BN; key++)
					ref += s[m * BN + key] * v[key * D + n];
				CHECK(o[m * D + n] == ref, "D=%d BN=%d wg %d: O[%d][%d] = %g, want %g", D, BN, wg, m, n,
				      o[m * D + n], ref);
			}

		/* the epilogue: store_o's staging writes through the Q tile and its 16-byte reads */
		std::vector<float> stage(BM * D, NAN);
		std::vector<int> hits(BM * D * 2 / 4, 0);
		int worst = 0;
		for (int w = 0; w < 4; w++)
			for (int i = 0; i < D / 2; i += 2) {
				int words[32];
				for (int lane = 0; lane < 32; lane++) {
					const int t = 32 * w + lane;
					const uint32_t off =
						sw128_off(wg * 64 + acc_row(w, lane, i), acc_col(lane, i), BM);
					CHECK(off % 4 == 0 && off < (uint32_t)(BM * D * 2), "staging offset %u", off);
					hits[off / 4]++;
					int m, n;
					d_of(t, i, &m, &n);
					int m1, n1;
					d_of(t, i + 1, &m1, &n1);
					CHECK(m1 == m && n1 == n + 1, "accumulators %d, %d of thread %d are not a pair", i,
					      i + 1, t);
					stage[off / 2] = (float)o[m * D + n];
					stage[off / 2 + 1] = (float)o[m1 * D + n1];
					words[lane] = (int)(off / 4);
				}
				/* bank conflicts of this warp-wide 4-byte store */
				for (int b = 0; b < 32; b++) {
					int distinct = 0;
					for (int l = 0; l < 32; l++) {
						if (words[l] % 32 != b)
							continue;
						int seen = 0;
						for (int l2 = 0; l2 < l; l2++)
							seen |= words[l2] == words[l];
						distinct += !seen;
					}
					worst = distinct > worst ? distinct : worst;
				}
			}
		for (int r = wg * 64; r < wg * 64 + 64; r++)
			for (int c = 0; c < D; c += 2)
				CHECK(hits[sw128_off(r, c, BM) / 4] == 1, "staging word of (%d, %d) written %d times", r, c,
				      hits[sw128_off(r, c, BM) / 4]);
		for (int r = 0; r < 64; r++)
			for (int ch = 0; ch < D / 8; ch++) {
				const uint32_t off = sw128_off(wg * 64 + r, ch * 8, BM);
				CHECK(off % 16 == 0, "16-byte chunk (%d, %d) at %u is not aligned", r, ch, off);
				for (int e = 0; e < 8; e++)
					CHECK(stage[off / 2 + e] == (float)o[r * D + ch * 8 + e],
					      "read-back of O[%d][%d] gives %g, want %g", r, ch * 8 + e, stage[off / 2 + e],
					      o[r * D + ch * 8 + e]);
			}
		CHECK(worst <= 1, "the O staging stores have %d-way bank conflicts", worst);
	}
	printf("%s D=%d BLOCK_N=%d NUM_WG=%d: S, P, O and the O staging match the PTX ISA's layouts\n",
	       failures == f0 ? "ok" : "FAILED", D, BN, C::nwg);
}

int main(void)
{
	run_config<fa_cfg<2, 64, 64, 1, 2>>();
	run_config<fa_cfg<2, 64, 128, 2, 2>>();
	run_config<fa_cfg<2, 64, 128, 3, 2>>();
	run_config<fa_cfg<2, 128, 64, 1, 2>>();
	run_config<fa_cfg<2, 128, 128, 2, 2>>();
	run_config<fa_cfg<2, 128, 128, 3, 2>>();
	/* the widths BLOCK_N may also take from STEP=4 on */
	run_config<fa_cfg<5, 64, 96, 2, 2>>();
	run_config<fa_cfg<5, 64, 192, 2, 2>>();
	run_config<fa_cfg<5, 128, 80, 2, 2>>();
	run_config<fa_cfg<5, 128, 144, 2, 2>>();
	run_config<fa_cfg<5, 128, 176, 2, 2>>();
	run_config<fa_cfg<5, 128, 192, 2, 2>>();
	if (failures) {
		fprintf(stderr, "wgmma_layout_sim: %d mismatches\n", failures);
		return 1;
	}
	printf("wgmma_layout_sim: all configurations match\n");
	return 0;
}
