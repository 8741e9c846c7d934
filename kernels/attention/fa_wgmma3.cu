/*
 * fa_wgmma3.cu - FlashAttention-3's structure for this ABI, attention_fwd on
 * Hopper (sm_90a): the rung after fa_mma.cu, built up in steps so that each
 * step is its own variant and the ladder can say which step gave what.
 *
 * fa_wgmma.cu holds steps 1 to 4 and fa_wgmma2.cu step 5 and PERSIST as
 * they were recorded on the H100 and the H200 (PAPER.md section 3): every
 * record names its kernel file's hash, and a changed file makes every
 * claim on those records stale, so both stay as they are.  This file is
 * fa_wgmma2.cu with two more knobs, OSTORE and SMX (below), aimed at the
 * 1.8% that step 5 with PERSIST=1 (wg5p) still lost to cuDNN at B4 H16
 * S4096 D128 on the H200 (840.93 against 825.87 us).  With both knobs 0
 * (the default) every kernel is fa_wgmma2.cu's own: the same template
 * types, and the same PTX, compared for steps 1, 3p, 4 (BLOCK_N=176), 5
 * and 5p (2026-11-29, nvcc 13.0).
 *
 * Why these knobs (Nsight Compute, data/gpu-evidence/h200x2-wg5-20261128.txt,
 * step 5 against cuDNN at S4096 D128): the same registers and occupancy;
 * tensor-pipe activity 73.5% against 75.7%; stalls per issued instruction
 * "wait" (a fixed-latency dependency) 1.46 against cuDNN's 0.88, "barrier"
 * (ours: waiting for the turn) 1.04 against 1.44.  So cuDNN's warp groups
 * reach their turn and wait there more, ours arrive late, held by chains
 * of dependent instructions between two turns: the row max and the row
 * sum (2 chains of BLOCK_N/4 dependent FMNMX and FADD a thread), and O's
 * rescale after P V completes.  SMX shortens that path.  cuDNN's kernel
 * runs one CTA per SM with 230,400 B of shared memory, 7 tiles of 32 KB +
 * 1 KB: Q and 3 K/V stages at BLOCK_N=128, or the like; wg5p holds Q, 2
 * stages and its O staging tile (198,656 B), and a third stage does not
 * fit beside that tile.  OSTORE=1 drops the tile, so STAGES=3 (more room
 * for the K/V loads' L2 latency: "more L2 traffic" than cuDNN, 38.6%
 * against 30.1% of L2 throughput) or FA3's BLOCK_N=176 fits with PERSIST=1.
 * Not done here: TMA multicast of K/V to a cluster of 2 CTAs (it halves
 * the L2 reads, but L2 is not what is saturated - 39% - and it ties two
 * CTAs' schedules together), tile order (DRAM throughput is 6%: the K/V
 * already come from L2).
 *
 * The ideas over fa_mma (mma.sync, one warp per 16 query rows):
 *   STEP=1  wgmma.mma_async (PTX, sm_90a): one warp group (4 warps, 128
 *           threads) per 64 query rows; S = Q K^T with Q and K read by the
 *           tensor cores straight from shared memory through matrix
 *           descriptors; O += P V with P in registers (the S accumulators,
 *           rounded to fp16, are exactly wgmma's A fragments) and V from
 *           shared memory read N-major (imm-trans-b = 1); S, P, O and the
 *           softmax state in registers.  Q, K, V reach shared memory by
 *           cp.async (every thread, 16 bytes each) into the 128-byte
 *           swizzled layout the descriptors name; a ring of STAGES K/V tiles,
 *           one __syncthreads per tile (as fa_mma).
 *   STEP=2  + TMA: Q, K and V tiles come by cp.async.bulk.tensor through
 *           CUtensorMaps (made on the host by cuTensorMapEncodeTiled, found
 *           with cudaGetDriverEntryPointByVersion, passed as
 *           __grid_constant__ parameters), the hardware writing the same
 *           swizzled layout; each stage's arrival is an mbarrier with an
 *           expected byte count; thread 0 issues the loads; a stage is
 *           refilled after the __syncthreads that ends its use.
 *   STEP=3  + warp specialisation: one more warp group, the producer,
 *           whose one thread issues every TMA load and waits on "empty"
 *           mbarriers that the consumer warps arrive on when their wgmma
 *           reading a K or V tile has completed; no block-wide barrier in
 *           the main loop; setmaxnreg moves registers from the producer
 *           (24 or 32) to the consumers (240 or 160) when NUM_WG >= 2.
 *   STEP=4  + the softmax of tile j overlapped with the tensor cores: each
 *           iteration issues S(j) = Q K(j)^T and O += P(j-1) V(j-1) as two
 *           wgmma groups, waits for the first only, computes the softmax
 *           of S(j) while P V runs, then waits for it, rescales O and
 *           converts P(j) (FA3's intra-warpgroup overlap).
 *   STEP=5  + the warp groups take turns at the tensor cores (FA3's inter-
 *           warpgroup "ping-pong", Shah et al. 2024, section 3.1): in
 *           iteration j a consumer warp group issues its two wgmma groups
 *           only in its turn (a named barrier, bar.sync), then hands the
 *           turn to the next warp group (bar.arrive) and computes its
 *           softmax while the next one's S(j) and P V run; the round is
 *           warp group 0, 1, .., NUM_WG-1 (NUM_WG >= 2).  Without turns
 *           the warp groups, fed by the same K/V stages, tend to issue
 *           together and then all compute their softmax together, with
 *           only their P V left on the tensor cores to hide it; with
 *           turns one warp group's exp2s (the MUFU's 16 a clock per SM:
 *           about half the tensor cores' time per tile at D=128) run
 *           beside another's matrix multiplies.  Every instruction of
 *           step 4 is kept, in the same order within each warp group:
 *           only when a warp group issues changes.
 *   OSTORE=1 (fa_wgmma3.cu; any step) O / l is stored from the accumulator
 *           registers straight to global memory (store_o_regs: a quad of
 *           lanes writes 16 contiguous bytes of a row) instead of through
 *           a shared-memory tile; the same values, bit for bit.  With
 *           PERSIST=1 the O staging tile is gone: 164,944 B at D=128
 *           BLOCK_N=128 STAGES=2, room for STAGES=3 (230,512 B) or
 *           BLOCK_N=176 (214,096 B).
 *   SMX=1   (fa_wgmma3.cu; any step) the row max and the row sum of the
 *           online softmax each in 4 independent chains a row, joined by
 *           a tree: a dependency chain of BLOCK_N/16 + 2 where it was
 *           BLOCK_N/4 (at BLOCK_N=128: 10 against 32).  The max is the
 *           same; the sum is added in another order (not bit for bit with
 *           SMX=0; well inside the tolerance).
 *   SMX=2   (STEP >= 4) SMX=1, and FA3's place for O's rescale: O *=
 *           alpha(j-1) between issuing S(j) and P(j-1) V(j-1), while S(j)
 *           runs, rather than O *= alpha(j) after P(j-1) V(j-1) has
 *           completed, between the softmax and the next turn; O =
 *           O alpha + P V instead of (O + P V) alpha (another rounding).
 *   PERSIST=1 (a knob from STEP=3 on; 0, the default, compiles every
 *           step to exactly the code it had before the knob: the PTX of
 *           STEP=4 and 5 at D=64 and 128 was compared): persistent CTAs,
 *           attention_fwd_kernel8, as cuDNN's kernel at B4 H16 S4096 D128
 *           on the H200 is (grid 132, one wave; ours was 2048 CTAs, 15.5
 *           waves).  launch() starts min(SMs x CTAs per SM, tiles) CTAs
 *           (cudaDevAttrMultiProcessorCount and the occupancy, asked at
 *           every launch: host calls, so a sealed replay keeps the grid
 *           the planner captured, right on the same GPU model); CTA b
 *           takes tiles b, b + gridDim.x, ... with the query tile fastest,
 *           then the head, then the batch (the CTAs running at once share
 *           a few heads' K/V in L2).  The producer runs on into the next
 *           tile: its Q as soon as every consumer warp's last Q K^T of
 *           this tile has completed (a "Q empty" mbarrier), its K/V as the
 *           ring frees stages (the ring's count runs on across tiles), so
 *           both are in flight while the consumers finish the last P V
 *           and store O, which goes through its own staging tile (BLOCK_M
 *           x D fp16 more shared memory: 198,656 B at D=128, BLOCK_N=128;
 *           BLOCK_N=176 no longer fits at D=128).  Per tile the consumers
 *           run the non-persistent kernel's instructions in its order, so
 *           the output is bit for bit the same (fa_wgmma_check compares).
 * Every step keeps the same numerics: fp32 scores and accumulators, online
 * softmax in fp32 with exp2 (scores scaled by scale*log2(e), the running
 * max per row), P rounded to fp16 for P V, O divided by the row sum and
 * rounded to fp16 at the end (step 5's output is bit for bit step 4's).
 *
 * Shared-memory layout (the contract between the loads and the
 * descriptors; PTX ISA 9.7.15.5.1.2 "Shared Memory Matrix Layout", canonical
 * layouts with 128B swizzling).  A tile of R rows x D fp16 columns is
 * stored as D/64 panels of R rows x 128 bytes; in a panel, row r's 16-byte
 * chunk c (columns 8c..8c+7) sits at r*128 + ((c ^ (r % 8)) * 16).  Every
 * tile and panel starts on a 1024-byte boundary, so the pattern starts at
 * the boundary the descriptor's base offset 0 assumes, and
 * CU_TENSOR_MAP_SWIZZLE_128B with a box of 64 columns writes exactly this
 * (the swizzle is a function of the address bits: chunk bits 4-6 XOR row
 * bits 7-9).  sw128_off() below is the one formula.
 *   Q K^T, A = Q (K-major): rows 64*wg.. of the Q tile; k-step kk (16
 *     columns) starts at panel kk/4, byte (kk%4)*32 of the row; SBO = 1024
 *     (8 rows of 128 bytes), LBO unused for swizzled K-major (1).
 *   Q K^T, B = K tile (K-major, N = BLOCK_N keys): the same, SBO = 1024.
 *   P V,   B = V tile (N-major: N = D contiguous, K = keys): k-step kk (16
 *     keys) starts at row 16kk (byte 2048kk); SBO = 1024 (the next 8 keys),
 *     LBO = BLOCK_N*128 (the next 64 columns of D, i.e. the next panel).
 * Register fragments (PTX ISA 9.7.15.5.1.1.1, wgmma .m64nNk16): warp w of
 * the warp group holds rows 16w..16w+15; accumulator element i of lane L is
 * at row 16w + L/4 + 8*((i/2)%2), column 8*(i/4) + 2*(L%4) + i%2; A
 * register r (0..3) holds rows 16w + L/4 + 8*(r%2), columns 2*(L%4) + 8*(r/2)
 * and +1, so P's A registers for keys 16kk..16kk+15 are the accumulator
 * pairs (8kk + 2r, 8kk + 2r + 1).  acc_row(), acc_col() and p_index() hold
 * that math; tests/gpu/wgmma_layout_sim.cu checks it, and the descriptors,
 * on the host against an emulation of the PTX ISA's canonical layouts.
 *
 * Tails: any S >= 1.  Rows past S (in the last Q tile, the last K/V tile)
 * are zero-filled (cp.async src-size 0; TMA's out-of-bounds fill), keys
 * past S get score -inf before the row max, and query rows past S are not
 * stored.  Every tile has at least one real key, so the running max is
 * finite after the first tile and exp2(m_old - m_new) is 0, never NaN.
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D], 16-byte aligned
 * (cp.async, TMA and the O stores move 16 bytes), D = HEAD_DIM, scale > 0;
 * the device must be compute capability 9.0 (the code is sm_90a only).
 * init refuses anything else with a one-line reason.  The pointers are read
 * from the launch every time: the tensor maps are encoded in launch(), on
 * the host (a few microseconds of CPU, no GPU work), so a launch with
 * moved tensors is right.  A sealed replay (evident's trust: sealed)
 * patches every 8-byte word of the parameters that points into a tensor;
 * the tensor maps are right under it only if the driver keeps the global
 * address as a plain word in the 128-byte map, which the checker
 * kernels/attention/tools/fa_wgmma_check.cu tells on the GPU ("tensor map"
 * line); otherwise steps 2-5 must run as trust: host.
 *
 * Shared memory (dynamic; init raises the limit): 1024 bytes of alignment
 * slack + BLOCK_M*D*2 (Q) + 2*STAGES*BLOCK_N*D*2 (K, V) + 8 per mbarrier,
 * e.g. NUM_WG=2 BLOCK_N=128 STAGES=2: 83,016 B at D=64, 164,936 B at D=128
 * (this line said 82,992 and 164,912 before 2026-11-28: 3 mbarriers too
 * few); BLOCK_N=176 at D=128: 214,088 B.  Named barriers: 1..NUM_WG, store_o's
 * (one per consumer warp group); 4..3+NUM_WG, the turns of STEP=5.
 *
 * Checked without a GPU first (nvcc 13.0, -gencode arch=compute_90a,code=
 * sm_90a, 2026-11-25): the PTX of every step holds the wgmma.mma_async,
 * and steps 2-4 the cp.async.bulk.tensor and mbarrier instructions; ptxas
 * reports no spills and no wgmma serialisation at NUM_WG=2 BLOCK_N=128
 * STAGES=2 (registers at D=64 / D=128: STEP=1 164 / 216, STEP=2 127 / 157,
 * STEP=3 and 4 168 at the entry, the launch bound that setmaxnreg
 * redistributes); NUM_WG=3 at D=128 spills in STEP=4 (160 registers for
 * S, P and O).  The SASS was not inspected (no cuobjdump on the build
 * machine).  tests/gpu/wgmma_layout_sim.cu checks the layouts and
 * tests/gpu/wgmma_pipeline_sim.cu model-checks the mbarrier pipeline
 * (tiles, stages, warp groups, every step).  Steps 1-4 then ran right on
 * an H100 (kernels/attention/tools/fa_wgmma_check.cu, data/gpu-evidence/
 * fa_wgmma_check-2026-11-25.txt) and in evident's batches (PAPER.md
 * section 3).  Step 5 and the wider tiles (2026-11-28, without a GPU):
 * ptxas reports 168 registers at the entry, no stack frame, no spills and
 * no wgmma serialisation for STEP=5 at D=64 and D=128 (BLOCK_N=128) and
 * for STEP=4 and 5 at D=128 with BLOCK_N=160, 176, 192; the pipeline
 * model-check covers the turns, the layout sim the wider tiles; none of
 * it has yet run on a GPU: "fa_wgmma_check 4 5 n176" is the first thing
 * to run.  PERSIST=1 (2026-11-28, without a GPU): ptxas reports 168
 * registers at the entry, no stack frame, no spills, no wgmma
 * serialisation for STEP=3, 4, 5 at D=64 and D=128 (BLOCK_N=128); the
 * pipeline model-check covers 1..4 query tiles per CTA; "fa_wgmma_check 5
 * 5p" is the first thing to run on a GPU.
 *
 * Versions in this file:
 *   attention_fwd_kernel6  STEP=1: wgmma, cp.async loads
 *   attention_fwd_kernel7  STEP=2..5: wgmma, TMA loads, mbarrier pipeline
 *                          (STEP=3: + producer warp group; STEP=4: + overlap;
 *                          STEP=5: + turns)
 *   attention_fwd_kernel8  STEP=3..5 with PERSIST=1: kernel7's, by persistent CTAs
 * (OSTORE and SMX are compile-time branches inside these; fa_cfg_opt
 * carries them, and only when one is not 0.)
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params; invalid combinations
 * are static_asserts):
 *   STEP      1..5, the rung (default 2)
 *   HEAD_DIM  D compiled for: 64 or 128 (default 64)
 *   BLOCK_N   keys per K/V tile: 64 or 128 (default 128); from STEP=4 on
 *             also 80..192 in steps of 16 (FA3 takes 176 at D=128: fewer
 *             rounds of the online softmax, larger wgmma per turn), while
 *             the shared memory holds it (BLOCK_N=192 at D=128 is the most:
 *             230,472 B) and the registers do (S is BLOCK_N/2 floats a
 *             thread)
 *   NUM_WG    consumer warp groups, 1..3 (STEP=5: 2..3); BLOCK_M = 64*NUM_WG
 *             (default 2)
 *   STAGES    K/V tiles in the ring, 2..4 (default 2)
 *   PERSIST   0 or 1 (default 0): 1 = persistent CTAs, from STEP=3 on
 *             (the shared memory must hold the O staging tile as well,
 *             unless OSTORE=1)
 *   OSTORE    0 or 1 (default 0): 1 = O from registers, no staging tile
 *   SMX       0, 1 or 2 (default 0): the softmax's dependency chains (1),
 *             and O's rescale beside Q K^T (2, STEP >= 4)
 *
 * Checked without a GPU (2026-11-29, nvcc 13.0, -Xptxas -v, D=128,
 * STEP=5 PERSIST=1): 168 registers at the entry, no stack frame, no
 * spills, no wgmma serialisation warning, for OSTORE=1 STAGES=3, OSTORE=1
 * BLOCK_N=176, SMX=2, and OSTORE=1 STAGES=3 SMX=2 (the PTX: 32 st.global
 * and no st.shared of O with OSTORE=1; with SMX=2 the 64 multiplies of O
 * between the two wgmma groups' commits, before a second wgmma.fence).
 * No cuobjdump on the build machine: the SASS was not read.  Nothing of
 * OSTORE or SMX has run on a GPU yet: "fa_wgmma_check 5p 6" is the first
 * thing to run (tools/fa_wgmma_check.cu).
 */
// evident: arch sm_90a
#include <cuda.h>         /* CUtensorMap and its enums: types only, no -lcuda */
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "../evident_kernel.h"

#ifndef STEP
#define STEP 2
#endif
#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 128
#endif
#ifndef NUM_WG
#define NUM_WG 2
#endif
#ifndef STAGES
#define STAGES 2
#endif

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "fa_wgmma3.cu needs sm_90a (wgmma, setmaxnreg): compile with -gencode arch=compute_90a,code=sm_90a"
#endif

/*
 * The compile-time configuration of one variant.  The kernels and their
 * host functions are templates over it, so that the quick checker
 * (tools/fa_wgmma_check.cu) can build every step into one program; the
 * evident entry point at the end instantiates the one the macros name.
 */
template <int STEP_, int D_, int BN_, int NWG_, int ST_> struct fa_cfg {
	static constexpr int step = STEP_, d = D_, bn = BN_, nwg = NWG_, stages = ST_;
	static constexpr int bm = 64 * NWG_;                 /* query rows per block */
	static constexpr bool tma = STEP_ >= 2;              /* TMA loads, mbarriers */
	static constexpr bool ws = STEP_ >= 3;               /* producer warp group */
	static constexpr bool overlap = STEP_ >= 4;          /* softmax beside P V */
	static constexpr bool pingpong = STEP_ >= 5;         /* warp groups take turns at the tensor cores */
	static constexpr bool persist = false;               /* fa_cfg_persist<> below: persistent CTAs */
	static constexpr int ostore = 0;                     /* fa_cfg_opt<> below: O from registers (1) */
	static constexpr int smx = 0;                        /* fa_cfg_opt<> below: the softmax's form (1, 2) */
	static constexpr int threads = (NWG_ + (ws ? 1 : 0)) * 128;
	/* setmaxnreg: producer 24/32, consumers 240/160 (<= 65536 per SM in all) */
	static constexpr bool regs_moved = ws && NWG_ >= 2;
	static constexpr int producer_regs = NWG_ >= 3 ? 32 : 24;
	static constexpr int consumer_regs = NWG_ >= 3 ? 160 : 240;
	static constexpr uint32_t q_bytes = (uint32_t)bm * D_ * 2;
	static constexpr uint32_t kv_bytes = (uint32_t)BN_ * D_ * 2; /* one K or one V tile */
	static constexpr uint32_t off_q = 0, off_k = q_bytes, off_v = off_k + ST_ * kv_bytes;
	static constexpr uint32_t off_bar = off_v + ST_ * kv_bytes;
	static constexpr int n_bars = 1 + 4 * ST_; /* Q; full K, full V, empty K, empty V per stage */
	static constexpr size_t smem_bytes = 1024 + (size_t)off_bar + 8 * (size_t)n_bars;

	static_assert(STEP_ >= 1 && STEP_ <= 5, "STEP must be 1, 2, 3, 4 or 5");
	static_assert(!pingpong || NWG_ >= 2, "STEP=5 (ping-pong) needs NUM_WG >= 2: the warp groups take turns");
	static_assert(D_ == 64 || D_ == 128, "HEAD_DIM must be 64 or 128 (one or two 128-byte panels)");
	static_assert(BN_ == 64 || BN_ == 128 || (STEP_ >= 4 && BN_ % 16 == 0 && BN_ >= 80 && BN_ <= 192),
		      "BLOCK_N must be 64 or 128 (wgmma n of Q K^T); from STEP=4 on also 80..192 in steps of 16");
	static_assert(NWG_ >= 1 && NWG_ <= 3, "NUM_WG must be 1, 2 or 3 (BLOCK_M = 64, 128 or 192)");
	static_assert(ST_ >= 2 && ST_ <= 4, "STAGES must be 2, 3 or 4");
	static_assert(smem_bytes <= 232448, "tiles need more than sm_90's 227 KB of shared memory per block");
};

/*
 * The knobs of this file (OSTORE, SMX; the header says what each does) on
 * top of a configuration.  A separate type, used only when a knob is not
 * 0, so that the default build's kernels are fa_wgmma2.cu's own types and
 * compile to its PTX, names included.
 */
template <class C, int OSTORE_, int SMX_> struct fa_cfg_opt : C {
	static constexpr int ostore = OSTORE_, smx = SMX_;
	static_assert(OSTORE_ == 0 || OSTORE_ == 1, "OSTORE must be 0 (O through shared memory) or 1 (from registers)");
	static_assert(SMX_ >= 0 && SMX_ <= 2, "SMX must be 0, 1 or 2");
	static_assert(SMX_ < 2 || C::overlap, "SMX=2 (O rescaled beside Q K^T) needs STEP >= 4 (the overlap)");
};

/*
 * PERSIST=1 (STEP >= 3): the same configuration run by persistent CTAs
 * (attention_fwd_kernel8).  Two things are added to the shared memory: a
 * "Q empty" mbarrier after the others (4*NUM_WG arrivals: the consumer
 * warps' release of the Q tile once their last Q K^T has completed) and,
 * with OSTORE=0, an O staging tile of BLOCK_M x D fp16 (store_o writes
 * there, not over Q, so the next tile's Q can land while this tile's O is
 * stored).  OSTORE=1 stores O from registers and needs no staging tile:
 * that is what lets STAGES=3 (BLOCK_N=128) or BLOCK_N=176 fit at D=128.
 */
template <class C> struct fa_cfg_persist : C {
	typedef C base;
	static constexpr bool persist = true;
	static constexpr uint32_t off_q_empty = C::off_bar + 8u * C::n_bars;
	static constexpr uint32_t off_o = (off_q_empty + 8u + 1023u) & ~1023u;
	static constexpr size_t smem_bytes =
		C::ostore ? 1024 + (size_t)off_q_empty + 8u : 1024 + (size_t)off_o + C::q_bytes;
	static_assert(C::ws, "PERSIST=1 needs STEP >= 3 (a producer warp group)");
	static_assert(smem_bytes <= 232448, "PERSIST=1 adds an O staging tile: more than sm_90's 227 KB of shared memory "
					    "(OSTORE=1 stores O from registers, without it)");
};

/* ---- layout math, host-callable (tests/gpu/wgmma_layout_sim.cu) -------- */

/*
 * Byte offset of element (row, col) in a tile of `rows` rows x D fp16
 * columns stored as 64-column panels with the 128-byte swizzle (the
 * layout TMA's CU_TENSOR_MAP_SWIZZLE_128B writes for a box of 64 columns,
 * given a 1024-byte-aligned tile).
 */
__host__ __device__ constexpr uint32_t sw128_off(int row, int col, int rows)
{
	return (uint32_t)((col / 64) * rows * 128 + row * 128 + ((((col % 64) / 8) ^ (row % 8)) << 4) +
			  (col % 8) * 2);
}

/*
 * A wgmma shared-memory matrix descriptor (PTX ISA 9.7.15.5.1.2.2): start
 * address, leading and stride byte offsets, each (x & 0x3FFFF) >> 4 in 14
 * bits at bits 0, 16, 32; base offset 0 (bits 49-51); swizzle mode 1 =
 * 128-byte (bits 62-63).
 */
__host__ __device__ constexpr uint64_t make_desc(uint32_t addr, uint32_t lbo_bytes, uint32_t sbo_bytes)
{
	return (uint64_t)((addr & 0x3FFFFu) >> 4) | ((uint64_t)((lbo_bytes & 0x3FFFFu) >> 4) << 16) |
	       ((uint64_t)((sbo_bytes & 0x3FFFFu) >> 4) << 32) | (1ull << 62);
}

#define SW128_SBO 1024u /* 8 rows of 128 bytes: the next 8 rows (K-major) or keys (V) */
#define KMAJOR_LBO 16u  /* unused by swizzled K-major layouts; "assumed 1" (encoded) */

/* Q K^T's A operand: warp group wg's 64 rows of the Q tile, k-step kk. */
template <class C> __host__ __device__ constexpr uint32_t q_addr(uint32_t s_q, int wg, int kk)
{
	return s_q + (uint32_t)((kk / 4) * C::bm * 128 + wg * 64 * 128 + (kk % 4) * 32);
}
/* Q K^T's B operand: the K tile at kb, k-step kk. */
template <class C> __host__ __device__ constexpr uint32_t k_addr(uint32_t kb, int kk)
{
	return kb + (uint32_t)((kk / 4) * C::bn * 128 + (kk % 4) * 32);
}
/* P V's B operand: the V tile at vb, keys 16kk..16kk+15. */
template <class C> __host__ __device__ constexpr uint32_t v_addr(uint32_t vb, int kk)
{
	return vb + (uint32_t)(kk * 16 * 128);
}
template <class C> __host__ __device__ constexpr uint32_t v_lbo() { return (uint32_t)C::bn * 128; }

/* Accumulator element i of lane (warp w of its warp group): row and column. */
__host__ __device__ constexpr int acc_row(int w, int lane, int i) { return 16 * w + lane / 4 + 8 * ((i / 2) % 2); }
__host__ __device__ constexpr int acc_col(int lane, int i) { return 8 * (i / 4) + 2 * (lane % 4) + i % 2; }
/* P's A register r of k-step kk packs S accumulators p_index(kk, r) and +1. */
__host__ __device__ constexpr int p_index(int kk, int r) { return 8 * kk + 2 * r; }

/*
 * The K/V ring (tests/gpu/wgmma_pipeline_sim.cu model-checks it): tile t
 * lives in stage t % STAGES and is that stage's (t / STAGES)-th fill, so
 * its "full" barrier completes the phase of parity (t / STAGES) & 1; the
 * producer refills a stage when the phase of parity ((t / STAGES) & 1) ^ 1
 * of its "empty" barrier has completed (for t < STAGES, the phase before
 * the first: a fresh barrier passes that wait at once).
 */
template <class C> __host__ __device__ constexpr int stage_of(int t) { return t % C::stages; }
template <class C> __host__ __device__ constexpr uint32_t parity_of(int t) { return (uint32_t)(t / C::stages) & 1u; }

/*
 * The ping-pong (STEP=5; tests/gpu/wgmma_pipeline_sim.cu model-checks it
 * with the ring): in iteration j = 1..n_tiles-1 a consumer warp group
 * issues its two wgmma groups, S(j) and P(j-1) V(j-1), only in its turn,
 * and the turns go round warp group 0, 1, .., NUM_WG-1, 0, 1, ...  The
 * turn of warp group wg is named barrier sched_bar(wg) of 256 threads:
 * wg's 128 threads bar.sync on it, and the warp group before wg in the
 * round bar.arrive on it (128 threads, no wait) once it has issued its
 * own.  Warp group 0's first turn is given by the last warp group before
 * the loop; the last warp group gives none after its last turn (no one
 * would take it): every barrier's arrivals then match its syncs, and none
 * is left half-complete when the block exits.  The turns order only the
 * issue; each warp group still waits for its own tiles' mbarriers.
 */
template <class C> __host__ __device__ constexpr int sched_bar(int wg) { return 4 + wg; } /* 1..3: store_o's */
template <class C> __host__ __device__ constexpr int sched_next(int wg) { return (wg + 1) % C::nwg; }
/* Whether warp group wg gives the next turn after its turn of iteration j. */
template <class C> __host__ __device__ constexpr bool sched_gives(int wg, int j, int n_tiles)
{
	return !(wg == C::nwg - 1 && j == n_tiles - 1);
}
#define SCHED_THREADS 256 /* a turn's barrier: the warp group taking it and the one giving it */

/* ---- device primitives --------------------------------------------------- */

/*
 * The PTX wrappers.  wgmma and the TMA load are asm volatile with a memory
 * clobber: they read shared memory the compiler cannot see them read.  The
 * accumulators are "+f" operands, so the compiler takes them as written
 * when the wgmma is issued; fence_regs() after wgmma.wait_group makes it
 * take them as written there too, so that no read of an accumulator (or
 * write of an A register) is moved above the wait (CUTLASS's
 * warpgroup_fence_operand does the same).
 */
__device__ __forceinline__ void wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait(void)
{
	asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void fence_regs(float (&r)[N])
{
#pragma unroll
	for (int i = 0; i < N; i++)
		asm volatile("" : "+f"(r[i])::"memory");
}
template <int N> __device__ __forceinline__ void fence_regs(uint32_t (&r)[N][4])
{
#pragma unroll
	for (int i = 0; i < N; i++)
#pragma unroll
		for (int j = 0; j < 4; j++)
			asm volatile("" : "+r"(r[i][j])::"memory");
}

/* d (+)= A B, m64n64k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n64(float (&d)[32], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
		     "%32, %33, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d += A B, m64n64k16, A from registers (4 x f16x2), B from shared memory
 * read N-major (imm-trans-b = 1), fp32 d. */
__device__ __forceinline__ void wgmma_rs_n64(float (&d)[32], const uint32_t (&a)[4], uint64_t desc_b)
{
	asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
		     "{%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b)
		     : "memory");
}

/* d (+)= A B, m64n128k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n128(float (&d)[64], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
		     "%64, %65, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d += A B, m64n128k16, A from registers (4 x f16x2), B from shared memory
 * read N-major (imm-trans-b = 1), fp32 d. */
__device__ __forceinline__ void wgmma_rs_n128(float (&d)[64], const uint32_t (&a)[4], uint64_t desc_b)
{
	asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
		     "{%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b)
		     : "memory");
}


/*
 * The other widths of Q K^T that BLOCK_N may take from STEP=4 on (a
 * multiple of 16 from 80 to 192; P V's k-steps are 16 keys): the same
 * instruction at n = BLOCK_N, S's BLOCK_N/2 accumulators per thread.
 */
/* d (+)= A B, m64n80k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n80(float (&d)[40], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n80k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39}, "
		     "%40, %41, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n96k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n96(float (&d)[48], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}, "
		     "%48, %49, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n112k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n112(float (&d)[56], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n112k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55}, "
		     "%56, %57, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n144k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n144(float (&d)[72], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n144k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71}, "
		     "%72, %73, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n160k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n160(float (&d)[80], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n160k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79}, "
		     "%80, %81, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n176k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n176(float (&d)[88], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87}, "
		     "%88, %89, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		       "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

/* d (+)= A B, m64n192k16, A and B from shared memory (descriptors), fp32 d. */
__device__ __forceinline__ void wgmma_ss_n192(float (&d)[96], uint64_t desc_a, uint64_t desc_b, uint32_t accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, "
		     "%96, %97, p, 1, 1, 0, 0;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		       "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		       "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
		     : "l"(desc_a), "l"(desc_b), "r"(accumulate)
		     : "memory");
}

template <int N> __device__ __forceinline__ void wgmma_ss(float (&d)[N / 2], uint64_t da, uint64_t db, bool accumulate)
{
	const uint32_t acc = accumulate ? 1u : 0u;
	if constexpr (N == 64)
		wgmma_ss_n64(d, da, db, acc);
	else if constexpr (N == 128)
		wgmma_ss_n128(d, da, db, acc);
	else if constexpr (N == 80)
		wgmma_ss_n80(d, da, db, acc);
	else if constexpr (N == 96)
		wgmma_ss_n96(d, da, db, acc);
	else if constexpr (N == 112)
		wgmma_ss_n112(d, da, db, acc);
	else if constexpr (N == 144)
		wgmma_ss_n144(d, da, db, acc);
	else if constexpr (N == 160)
		wgmma_ss_n160(d, da, db, acc);
	else if constexpr (N == 176)
		wgmma_ss_n176(d, da, db, acc);
	else if constexpr (N == 192)
		wgmma_ss_n192(d, da, db, acc);
	else
		static_assert(N == 64, "no wgmma wrapper for this BLOCK_N");
}

template <int N> __device__ __forceinline__ void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t db)
{
	if constexpr (N == 64)
		wgmma_rs_n64(d, a, db);
	else
		wgmma_rs_n128(d, a, db);
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

/* 16 bytes global -> shared through L2 only; src-size 0 writes zeros. */
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src, bool ok)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(ok ? 16 : 0)
		     : "memory");
}
__device__ __forceinline__ void cp_async_commit(void) { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_async_wait(void)
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* This thread's generic-proxy writes to shared memory, visible to the async proxy (wgmma, TMA). */
__device__ __forceinline__ void fence_proxy_async_smem(void)
{
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* bar.sync on barrier id (1..15; 0 is __syncthreads) for n threads. */
__device__ __forceinline__ void named_barrier_sync(int id, int n)
{
	asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}
/* bar.arrive: counts this warp's threads towards barrier id's n, without waiting. */
__device__ __forceinline__ void named_barrier_arrive(int id, int n)
{
	asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory");
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
/* The initialised mbarriers, visible to the other threads and to the async proxy (TMA). */
__device__ __forceinline__ void fence_mbar_init(void)
{
	asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
/* Until the phase of parity `parity` has completed (acquire, CTA scope). */
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\n"
			     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
			     "selp.u32 %0, 1, 0, p;\n}\n"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
	} while (!done);
}

/* TMA: the box at coordinates (c0, c1, c2) of the map into shared memory at
 * dst, completing on bar with the box's bytes. */
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *tm, int c0, int c1, int c2, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
		     "l"((uint64_t)tm), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
		     : "memory");
}
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap *tm)
{
	asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)tm) : "memory");
}

template <int N> __device__ __forceinline__ void setmaxnreg_inc(void)
{
	asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N> __device__ __forceinline__ void setmaxnreg_dec(void)
{
	asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}

/* ---- the consumer's pieces, shared by every step ------------------------- */

/* S = Q K^T for warp group wg: D/16 wgmma k-steps, issued, not waited for. */
template <class C>
__device__ __forceinline__ void issue_qk(float (&s)[C::bn / 2], uint32_t s_q, int wg, uint32_t kb)
{
#pragma unroll
	for (int kk = 0; kk < C::d / 16; kk++)
		wgmma_ss<C::bn>(s, make_desc(q_addr<C>(s_q, wg, kk), KMAJOR_LBO, SW128_SBO),
				make_desc(k_addr<C>(kb, kk), KMAJOR_LBO, SW128_SBO), kk > 0);
}

/* O += P V: BLOCK_N/16 wgmma k-steps, issued, not waited for. */
template <class C>
__device__ __forceinline__ void issue_pv(float (&o)[C::d / 2], const uint32_t (&p)[C::bn / 16][4], uint32_t vb)
{
#pragma unroll
	for (int kk = 0; kk < C::bn / 16; kk++)
		wgmma_rs<C::d>(o, p[kk], make_desc(v_addr<C>(vb, kk), v_lbo<C>(), SW128_SBO));
}

#define SMX_CHAINS 4 /* SMX >= 1: independent max and sum chains per row (the trees below spell out 4) */

/*
 * Online softmax of one tile of scores, in place: s becomes exp2(s*scale_log2
 * - m) with the new running max m per row; alpha = exp2(m_old - m_new) is
 * the factor O must be scaled by; l = l*alpha + the tile's row sums (this
 * thread's columns only; the quad's partial sums are added at the end).
 * Keys at or past S (only in the last tile) are -inf first.
 */
template <class C>
__device__ __forceinline__ void online_softmax(float (&s)[C::bn / 2], float (&m_run)[2], float (&l_run)[2],
					       float (&alpha)[2], int key0, int S, float scale_log2, int lane)
{
	if (key0 + C::bn > S) {
#pragma unroll
		for (int i = 0; i < C::bn / 2; i++)
			if (key0 + acc_col(lane, i) >= S)
				s[i] = -INFINITY;
	}
	float mx[2] = {-INFINITY, -INFINITY};
	if constexpr (C::smx >= 1) {
		/* SMX >= 1: SMX_CHAINS independent maxima per row (element i of
		 * row r goes to chain (i / 4) % SMX_CHAINS), then a tree: the
		 * same max (fmax is exact in any order), a dependency chain of
		 * BLOCK_N/16 + 2 instead of BLOCK_N/4 */
		float mc[2][SMX_CHAINS];
#pragma unroll
		for (int r = 0; r < 2; r++)
#pragma unroll
			for (int k = 0; k < SMX_CHAINS; k++)
				mc[r][k] = -INFINITY;
#pragma unroll
		for (int i = 0; i < C::bn / 2; i++)
			mc[(i >> 1) & 1][(i >> 2) % SMX_CHAINS] = fmaxf(mc[(i >> 1) & 1][(i >> 2) % SMX_CHAINS], s[i]);
#pragma unroll
		for (int r = 0; r < 2; r++)
			mx[r] = fmaxf(fmaxf(mc[r][0], mc[r][1]), fmaxf(mc[r][2], mc[r][3]));
	} else {
#pragma unroll
		for (int i = 0; i < C::bn / 2; i++)
			mx[(i >> 1) & 1] = fmaxf(mx[(i >> 1) & 1], s[i]);
	}
	float neg_m[2];
#pragma unroll
	for (int r = 0; r < 2; r++) {
		mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
		mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
		const float m_new = fmaxf(m_run[r], mx[r] * scale_log2); /* finite */
		alpha[r] = ex2(m_run[r] - m_new);                         /* 0 on the first tile */
		m_run[r] = m_new;
		neg_m[r] = -m_new;
	}
	float rs[2] = {0.0f, 0.0f};
	if constexpr (C::smx >= 1) {
		/* SMX >= 1: the row sum in SMX_CHAINS partial sums, added as a
		 * tree (another rounding order than SMX=0's: not bit for bit) */
		float sc[2][SMX_CHAINS];
#pragma unroll
		for (int r = 0; r < 2; r++)
#pragma unroll
			for (int k = 0; k < SMX_CHAINS; k++)
				sc[r][k] = 0.0f;
#pragma unroll
		for (int i = 0; i < C::bn / 2; i++) {
			s[i] = ex2(fmaf(s[i], scale_log2, neg_m[(i >> 1) & 1]));
			sc[(i >> 1) & 1][(i >> 2) % SMX_CHAINS] += s[i];
		}
#pragma unroll
		for (int r = 0; r < 2; r++)
			rs[r] = (sc[r][0] + sc[r][1]) + (sc[r][2] + sc[r][3]);
	} else {
#pragma unroll
		for (int i = 0; i < C::bn / 2; i++) {
			s[i] = ex2(fmaf(s[i], scale_log2, neg_m[(i >> 1) & 1]));
			rs[(i >> 1) & 1] += s[i];
		}
	}
#pragma unroll
	for (int r = 0; r < 2; r++)
		l_run[r] = l_run[r] * alpha[r] + rs[r];
}

template <class C> __device__ __forceinline__ void convert_p(const float (&s)[C::bn / 2], uint32_t (&p)[C::bn / 16][4])
{
#pragma unroll
	for (int kk = 0; kk < C::bn / 16; kk++)
#pragma unroll
		for (int r = 0; r < 4; r++)
			p[kk][r] = pack_half2(s[p_index(kk, r)], s[p_index(kk, r) + 1]);
}

template <class C> __device__ __forceinline__ void rescale_o(float (&o)[C::d / 2], const float (&alpha)[2])
{
#pragma unroll
	for (int i = 0; i < C::d / 2; i++)
		o[i] *= alpha[(i >> 1) & 1];
}

/*
 * SMX=2 (FA3's order): O *= alpha(j-1) between issuing S(j) and O += P(j-1)
 * V(j-1), while S(j) runs on the tensor cores, instead of after P(j-1) V(j-1)
 * has completed, where it stood between the softmax and this warp group's
 * next turn.  The fence before pins the multiplies below the issue of S(j)
 * (it names O as written there); the wgmma.fence after is the PTX ISA's
 * rule for registers written before a wgmma that reads them.  The math:
 * O = O alpha(j-1) + P(j-1) V(j-1) rather than (O + P(j-1) V(j-1))
 * alpha(j), both in the scale of the running max m(j-1) when P V is added.
 */
template <class C> __device__ __forceinline__ void rescale_o_beside(float (&o)[C::d / 2], const float (&alpha)[2])
{
	fence_regs(o);
	rescale_o<C>(o, alpha);
	wgmma_fence();
}

/*
 * O / l, rounded to fp16, through warp group wg's rows of the Q tile in
 * shared memory (same swizzled layout: conflict-free 4-byte writes), then
 * 16-byte stores of the rows below S.  q_tile is the generic address of the
 * Q tile.  Every wgmma of the warp group has been waited for; the named
 * barrier makes sure no warp of it still needs Q when another overwrites it.
 */
template <class C>
__device__ __forceinline__ void store_o(float (&o)[C::d / 2], const float (&l_run)[2], unsigned char *q_tile,
					__half *__restrict__ out, int m0, int wg, int S)
{
	const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
	float inv[2];
#pragma unroll
	for (int r = 0; r < 2; r++) {
		float l = l_run[r];
		l += __shfl_xor_sync(0xffffffffu, l, 1);
		l += __shfl_xor_sync(0xffffffffu, l, 2);
		inv[r] = 1.0f / l; /* l >= 1: the row max contributes exp2(0) */
	}
	named_barrier_sync(1 + wg, 128);
#pragma unroll
	for (int i = 0; i < C::d / 2; i += 2) {
		const int r = (i >> 1) & 1;
		*(uint32_t *)(q_tile + sw128_off(wg * 64 + acc_row(warp, lane, i), acc_col(lane, i), C::bm)) =
			pack_half2(o[i] * inv[r], o[i + 1] * inv[r]);
	}
	__syncwarp();
	constexpr int CPR = C::d / 8; /* 16-byte chunks per row */
#pragma unroll
	for (int it = 0; it < 16 * CPR / 32; it++) {
		const int idx = lane + 32 * it, rr = idx / CPR, c = idx % CPR;
		const int row = wg * 64 + 16 * warp + rr, grow = m0 + row;
		if (grow < S)
			*(uint4 *)(out + (size_t)grow * C::d + c * 8) = *(const uint4 *)(q_tile + sw128_off(row, c * 8, C::bm));
	}
}

/*
 * OSTORE=1: O / l, rounded to fp16 as store_o rounds it (the same values,
 * bit for bit), stored from the accumulator registers straight to global
 * memory: per row and 8-column block a lane writes 4 bytes, a quad 16
 * contiguous bytes (half a 32-byte sector; O is 1.5% of the kernel's
 * bytes at S4096 D128, K/V reads the rest).  No shared memory, no barrier:
 * the rows below S only.
 */
template <class C>
__device__ __forceinline__ void store_o_regs(const float (&o)[C::d / 2], const float (&l_run)[2],
					     __half *__restrict__ out, int m0, int wg, int S)
{
	const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
#pragma unroll
	for (int r = 0; r < 2; r++) {
		float l = l_run[r];
		l += __shfl_xor_sync(0xffffffffu, l, 1);
		l += __shfl_xor_sync(0xffffffffu, l, 2);
		const float inv = 1.0f / l; /* l >= 1: the row max contributes exp2(0) */
		const int grow = m0 + wg * 64 + acc_row(warp, lane, 2 * r);
		if (grow < S) {
			__half *const row = out + (size_t)grow * C::d;
#pragma unroll
			for (int c8 = 0; c8 < C::d / 8; c8++) {
				const int i = 4 * c8 + 2 * r; /* acc_row(.., i) is this row, acc_col(lane, i) */
				*(uint32_t *)(row + acc_col(lane, i)) = pack_half2(o[i] * inv, o[i + 1] * inv);
			}
		}
	}
}

/* ---- STEP=1: wgmma with cp.async loads ----------------------------------- */

/*
 * Issues the cp.async copy of rows [row0, row0+NROWS) of a [S][D] matrix
 * into the swizzled tile at dst; rows at or past S are zero-filled (src-size
 * 0, the source clamped to row 0).  The caller commits the group.
 */
template <class C, int NROWS>
__device__ __forceinline__ void load_rows_sw(uint32_t dst, const __half *__restrict__ src, int row0, int S, int tid)
{
	constexpr int CPR = C::d / 8, N = NROWS * CPR, ITERS = (N + C::threads - 1) / C::threads;
#pragma unroll
	for (int it = 0; it < ITERS; it++) {
		const int i = tid + it * C::threads;
		if (N % C::threads != 0 && i >= N)
			break;
		const int r = i / CPR, c = i % CPR;
		const bool ok = row0 + r < S;
		cp_async_16(dst + sw128_off(r, c * 8, NROWS), src + (size_t)(ok ? row0 + r : 0) * C::d + c * 8, ok);
	}
}

/* grid: (ceil(S / BLOCK_M), H, B); block: 128*NUM_WG; dynamic smem: smem_bytes. */
template <class C>
__global__ void __launch_bounds__(C::threads, 1)
attention_fwd_kernel6(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o, int H, int S, float scale_log2)
{
	extern __shared__ unsigned char smem_raw[];
	const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem_raw);
	const uint32_t base = (raw + 1023u) & ~1023u;
	unsigned char *const gbase = smem_raw + (base - raw);
	const uint32_t s_q = base + C::off_q, s_k = base + C::off_k, s_v = base + C::off_v;

	const int tid = threadIdx.x, wg = tid / 128, lane = tid % 32;
	const int m0 = blockIdx.x * C::bm;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * C::d;
	const __half *k = d_k + head, *v = d_v + head;
	const int n_tiles = (S + C::bn - 1) / C::bn;

	/* prologue: Q and tiles 0..STAGES-2, one commit group per tile (Q in the first) */
	load_rows_sw<C, C::bm>(s_q, d_q + head, m0, S, tid);
#pragma unroll
	for (int t = 0; t < C::stages - 1; t++) {
		if (t < n_tiles) {
			load_rows_sw<C, C::bn>(s_k + t * C::kv_bytes, k, t * C::bn, S, tid);
			load_rows_sw<C, C::bn>(s_v + t * C::kv_bytes, v, t * C::bn, S, tid);
		}
		cp_async_commit();
	}

	float o[C::d / 2];
#pragma unroll
	for (int i = 0; i < C::d / 2; i++)
		o[i] = 0.0f;
	float m_run[2] = {-INFINITY, -INFINITY}, l_run[2] = {0.0f, 0.0f}, alpha[2];

	for (int j = 0; j < n_tiles; j++) {
		/* tile j landed for this thread, then for the async proxy (wgmma
		 * reads what cp.async wrote through the generic proxy), then for
		 * every thread; and every warp is done with tile j-1 */
		cp_async_wait<C::stages - 2>();
		fence_proxy_async_smem();
		__syncthreads();
		{
			const int jn = j + C::stages - 1, buf = jn % C::stages;
			if (jn < n_tiles) {
				load_rows_sw<C, C::bn>(s_k + buf * C::kv_bytes, k, jn * C::bn, S, tid);
				load_rows_sw<C, C::bn>(s_v + buf * C::kv_bytes, v, jn * C::bn, S, tid);
			}
			cp_async_commit(); /* possibly empty: keeps the group count uniform */
		}
		const uint32_t kb = s_k + (j % C::stages) * C::kv_bytes, vb = s_v + (j % C::stages) * C::kv_bytes;

		float s[C::bn / 2];
		wgmma_fence();
		issue_qk<C>(s, s_q, wg, kb);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(s);

		online_softmax<C>(s, m_run, l_run, alpha, j * C::bn, S, scale_log2, lane);
		uint32_t p[C::bn / 16][4];
		convert_p<C>(s, p);
		rescale_o<C>(o, alpha);

		wgmma_fence();
		issue_pv<C>(o, p, vb);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(o);
		fence_regs(p);
	}
	cp_async_wait<0>(); /* only empty groups can be left; drain them anyway */
	if constexpr (C::ostore)
		store_o_regs<C>(o, l_run, d_o + head, m0, wg, S);
	else
		store_o<C>(o, l_run, gbase + C::off_q, d_o + head, m0, wg, S);
}

/* ---- STEP=2..5: TMA, mbarriers, (3) a producer warp group, (4) overlap, (5) turns */

/* mbarrier addresses: Q, then per stage full K, full V, empty K, empty V. */
template <class C> struct fa_bars {
	uint32_t b;
	__device__ uint32_t q() const { return b; }
	__device__ uint32_t full_k(int s) const { return b + 8u * (1 + s); }
	__device__ uint32_t full_v(int s) const { return b + 8u * (1 + C::stages + s); }
	__device__ uint32_t empty_k(int s) const { return b + 8u * (1 + 2 * C::stages + s); }
	__device__ uint32_t empty_v(int s) const { return b + 8u * (1 + 3 * C::stages + s); }
};

/* The Q tile: one box of BLOCK_M rows x 64 columns per panel. */
template <class C>
__device__ __forceinline__ void tma_q(const CUtensorMap *tm, uint32_t s_q, uint32_t bar, int m0, int bh)
{
	mbar_arrive_expect_tx(bar, C::q_bytes);
#pragma unroll
	for (int p = 0; p < C::d / 64; p++)
		tma_load_3d(s_q + p * C::bm * 128, tm, p * 64, m0, bh, bar);
}

/* Key tile t of K or V into the tile at dst: one box of BLOCK_N rows per panel. */
template <class C>
__device__ __forceinline__ void tma_kv(const CUtensorMap *tm, uint32_t dst, uint32_t bar, int t, int bh)
{
	mbar_arrive_expect_tx(bar, C::kv_bytes);
#pragma unroll
	for (int p = 0; p < C::d / 64; p++)
		tma_load_3d(dst + p * C::bn * 128, tm, p * 64, t * C::bn, bh, bar);
}

/*
 * grid: (ceil(S / BLOCK_M), H, B); block: 128*NUM_WG (+128 for the producer
 * from STEP=3); dynamic smem: smem_bytes.  The tensor maps describe Q, K, V
 * as [B*H][S][D] (innermost first: D, S, B*H), boxes of 64 columns x
 * BLOCK_M (Q) or BLOCK_N (K, V) rows, 128-byte swizzle, zero fill.
 */
template <class C>
__global__ void __launch_bounds__(C::threads, 1)
attention_fwd_kernel7(const __grid_constant__ CUtensorMap tm_q, const __grid_constant__ CUtensorMap tm_k,
		      const __grid_constant__ CUtensorMap tm_v, __half *__restrict__ d_o, int H, int S,
		      float scale_log2)
{
	extern __shared__ unsigned char smem_raw[];
	const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem_raw);
	const uint32_t base = (raw + 1023u) & ~1023u;
	unsigned char *const gbase = smem_raw + (base - raw);
	const uint32_t s_q = base + C::off_q, s_k = base + C::off_k, s_v = base + C::off_v;
	const fa_bars<C> bars{base + C::off_bar};

	const int tid = threadIdx.x, lane = tid % 32;
	const int m0 = blockIdx.x * C::bm, bh = blockIdx.z * H + blockIdx.y;
	const int n_tiles = (S + C::bn - 1) / C::bn;

	if (tid == 0) {
		mbar_init(bars.q(), 1);
		for (int s = 0; s < C::stages; s++) {
			mbar_init(bars.full_k(s), 1);
			mbar_init(bars.full_v(s), 1);
			mbar_init(bars.empty_k(s), 4 * C::nwg); /* one arrival per consumer warp */
			mbar_init(bars.empty_v(s), 4 * C::nwg);
		}
		fence_mbar_init();
	}
	__syncthreads();

	int wg;
	if constexpr (C::ws) {
		if (tid < 128) {
			/* the producer warp group: one thread issues every load */
			if constexpr (C::regs_moved)
				setmaxnreg_dec<C::producer_regs>();
			if (tid == 0) {
				prefetch_tensormap(&tm_q);
				prefetch_tensormap(&tm_k);
				prefetch_tensormap(&tm_v);
				tma_q<C>(&tm_q, s_q, bars.q(), m0, bh);
				for (int t = 0; t < n_tiles; t++) {
					const int s = stage_of<C>(t);
					const uint32_t ph = parity_of<C>(t);
					/* the consumers' release of the tile STAGES before (parity ph^1
					 * passes at once on a fresh barrier: its preceding phase) */
					mbar_wait(bars.empty_k(s), ph ^ 1u);
					tma_kv<C>(&tm_k, s_k + s * C::kv_bytes, bars.full_k(s), t, bh);
					mbar_wait(bars.empty_v(s), ph ^ 1u);
					tma_kv<C>(&tm_v, s_v + s * C::kv_bytes, bars.full_v(s), t, bh);
				}
			}
			return;
		}
		if constexpr (C::regs_moved)
			setmaxnreg_inc<C::consumer_regs>();
		wg = tid / 128 - 1;
	} else {
		wg = tid / 128;
		if (tid == 0) {
			tma_q<C>(&tm_q, s_q, bars.q(), m0, bh);
			for (int t = 0; t < C::stages - 1 && t < n_tiles; t++) {
				tma_kv<C>(&tm_k, s_k + t * C::kv_bytes, bars.full_k(t), t, bh);
				tma_kv<C>(&tm_v, s_v + t * C::kv_bytes, bars.full_v(t), t, bh);
			}
		}
	}

	float o[C::d / 2];
#pragma unroll
	for (int i = 0; i < C::d / 2; i++)
		o[i] = 0.0f;
	float m_run[2] = {-INFINITY, -INFINITY}, l_run[2] = {0.0f, 0.0f}, alpha[2];
	float s[C::bn / 2];
	uint32_t p[C::bn / 16][4];
	mbar_wait(bars.q(), 0);
	if constexpr (C::pingpong)
		if (wg == C::nwg - 1 && n_tiles > 1)
			named_barrier_arrive(sched_bar<C>(0), SCHED_THREADS); /* warp group 0's first turn */

	if constexpr (!C::overlap) {
		for (int j = 0; j < n_tiles; j++) {
			const int st = stage_of<C>(j);
			const uint32_t ph = parity_of<C>(j);
			if constexpr (!C::ws) {
				/* every warp is done with tile j-1: refill its stage with j+STAGES-1 */
				__syncthreads();
				const int jn = j + C::stages - 1;
				if (tid == 0 && jn < n_tiles) {
					const int sn = stage_of<C>(jn);
					tma_kv<C>(&tm_k, s_k + sn * C::kv_bytes, bars.full_k(sn), jn, bh);
					tma_kv<C>(&tm_v, s_v + sn * C::kv_bytes, bars.full_v(sn), jn, bh);
				}
			}
			mbar_wait(bars.full_k(st), ph);
			wgmma_fence();
			issue_qk<C>(s, s_q, wg, s_k + st * C::kv_bytes);
			wgmma_commit();
			wgmma_wait<0>();
			fence_regs(s);
			if constexpr (C::ws)
				if (lane == 0)
					mbar_arrive(bars.empty_k(st));

			online_softmax<C>(s, m_run, l_run, alpha, j * C::bn, S, scale_log2, lane);
			convert_p<C>(s, p);
			rescale_o<C>(o, alpha);

			mbar_wait(bars.full_v(st), ph);
			wgmma_fence();
			issue_pv<C>(o, p, s_v + st * C::kv_bytes);
			wgmma_commit();
			wgmma_wait<0>();
			fence_regs(o);
			fence_regs(p);
			if constexpr (C::ws)
				if (lane == 0)
					mbar_arrive(bars.empty_v(st));
		}
	} else {
		/* tile 0: S(0), its softmax and P(0) */
		mbar_wait(bars.full_k(0), 0);
		wgmma_fence();
		issue_qk<C>(s, s_q, wg, s_k);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(s);
		if (lane == 0)
			mbar_arrive(bars.empty_k(0));
		online_softmax<C>(s, m_run, l_run, alpha, 0, S, scale_log2, lane); /* O = 0: alpha unused */
		convert_p<C>(s, p);

		for (int j = 1; j < n_tiles; j++) {
			const int st = stage_of<C>(j), sp = stage_of<C>(j - 1);
			const uint32_t ph = parity_of<C>(j), php = parity_of<C>(j - 1);
			mbar_wait(bars.full_k(st), ph);
			mbar_wait(bars.full_v(sp), php);
			if constexpr (C::pingpong)
				named_barrier_sync(sched_bar<C>(wg), SCHED_THREADS); /* this warp group's turn */
			wgmma_fence();
			issue_qk<C>(s, s_q, wg, s_k + st * C::kv_bytes); /* group 1: S(j) */
			wgmma_commit();
			if constexpr (C::smx >= 2)
				rescale_o_beside<C>(o, alpha); /* SMX=2: O *= alpha(j-1) while S(j) runs */
			issue_pv<C>(o, p, s_v + sp * C::kv_bytes); /* group 2: O += P(j-1) V(j-1) */
			wgmma_commit();
			if constexpr (C::pingpong)
				if (sched_gives<C>(wg, j, n_tiles)) /* the next warp group's turn */
					named_barrier_arrive(sched_bar<C>(sched_next<C>(wg)), SCHED_THREADS);
			wgmma_wait<1>(); /* S(j) is done; P V may still run */
			fence_regs(s);
			if (lane == 0)
				mbar_arrive(bars.empty_k(st));
			online_softmax<C>(s, m_run, l_run, alpha, j * C::bn, S, scale_log2, lane);
			wgmma_wait<0>(); /* P(j-1) V(j-1) is done: O and P may be touched */
			fence_regs(o);
			fence_regs(p);
			if (lane == 0)
				mbar_arrive(bars.empty_v(sp));
			if constexpr (C::smx < 2)
				rescale_o<C>(o, alpha);
			convert_p<C>(s, p);
		}
		const int sl = stage_of<C>(n_tiles - 1);
		mbar_wait(bars.full_v(sl), parity_of<C>(n_tiles - 1));
		if constexpr (C::smx >= 2)
			rescale_o<C>(o, alpha); /* SMX=2: alpha(n_tiles-1), before the last P V */
		wgmma_fence();
		issue_pv<C>(o, p, s_v + sl * C::kv_bytes);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(o);
		fence_regs(p);
		if (lane == 0)
			mbar_arrive(bars.empty_v(sl));
	}
	if constexpr (C::ostore)
		store_o_regs<C>(o, l_run, d_o + (size_t)bh * S * C::d, m0, wg, S);
	else
		store_o<C>(o, l_run, gbase + C::off_q, d_o + (size_t)bh * S * C::d, m0, wg, S);
}

/*
 * PERSIST=1: attention_fwd_kernel7's work done by persistent CTAs.
 * grid: min(SMs x CTAs per SM, tiles), 1-D; a CTA takes tiles blockIdx.x,
 * blockIdx.x + gridDim.x, ... of the ceil(S/BLOCK_M) * H * B tiles, the
 * query tile fastest, then the head, then the batch (the CTAs running at
 * once hold a few heads' K/V in L2 between them, as the 3-D grid's order
 * did).  Per tile the consumers run kernel7's instructions in kernel7's
 * order (the same numerics, bit for bit), the state (O, the row max and
 * sum) reset at each tile.  Across tiles:
 *   the K/V ring continues: the c-th tile of this CTA reads K/V tiles
 *     g0 + j, g0 = c * n_tiles, through stage_of / parity_of of that global
 *     count, so the producer runs ahead into the next tile's K/V while the
 *     consumers finish this one;
 *   Q: the c-th fill of Q completes the Q barrier's phase c (parity c & 1);
 *     the producer refills Q after the "Q empty" phase c-1 has completed,
 *     i.e. every consumer warp's last Q K^T of tile c-1 is done;
 *   O is staged in its own tile, so the store never touches Q;
 *   the turns (STEP=5) are kernel7's per tile: each tile's arrivals match
 *     its syncs, and the last warp group's first give of tile c+1 comes
 *     after warp group 0's last turn of tile c (it follows its own last
 *     turn of tile c, which that one's turn gave).
 */
template <class C>
__global__ void __launch_bounds__(C::threads, 1)
attention_fwd_kernel8(const __grid_constant__ CUtensorMap tm_q, const __grid_constant__ CUtensorMap tm_k,
		      const __grid_constant__ CUtensorMap tm_v, __half *__restrict__ d_o, int H, int S,
		      int n_work, float scale_log2)
{
	extern __shared__ unsigned char smem_raw[];
	const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem_raw);
	const uint32_t base = (raw + 1023u) & ~1023u;
	unsigned char *const gbase = smem_raw + (base - raw);
	const uint32_t s_q = base + C::off_q, s_k = base + C::off_k, s_v = base + C::off_v;
	const fa_bars<C> bars{base + C::off_bar};
	const uint32_t q_empty = base + C::off_q_empty;

	const int tid = threadIdx.x, lane = tid % 32;
	const int n_tiles = (S + C::bn - 1) / C::bn;
	const int n_m = (S + C::bm - 1) / C::bm;
	(void)H;

	if (tid == 0) {
		mbar_init(bars.q(), 1);
		for (int s = 0; s < C::stages; s++) {
			mbar_init(bars.full_k(s), 1);
			mbar_init(bars.full_v(s), 1);
			mbar_init(bars.empty_k(s), 4 * C::nwg); /* one arrival per consumer warp */
			mbar_init(bars.empty_v(s), 4 * C::nwg);
		}
		mbar_init(q_empty, 4 * C::nwg);
		fence_mbar_init();
	}
	__syncthreads();

	if (tid < 128) {
		/* the producer warp group: one thread issues every load */
		if constexpr (C::regs_moved)
			setmaxnreg_dec<C::producer_regs>();
		if (tid == 0) {
			prefetch_tensormap(&tm_q);
			prefetch_tensormap(&tm_k);
			prefetch_tensormap(&tm_v);
			int g = 0; /* K/V tiles loaded so far by this CTA */
			uint32_t c = 0;
			for (int w = blockIdx.x; w < n_work; w += gridDim.x, c++) {
				const int m0 = (w % n_m) * C::bm, bh = w / n_m;
				/* the consumers' release of the previous tile's Q (parity 1 on a
				 * fresh barrier passes at once: the phase before the first) */
				mbar_wait(q_empty, (c & 1u) ^ 1u);
				tma_q<C>(&tm_q, s_q, bars.q(), m0, bh);
				for (int t = 0; t < n_tiles; t++, g++) {
					const int s = stage_of<C>(g);
					const uint32_t ph = parity_of<C>(g);
					mbar_wait(bars.empty_k(s), ph ^ 1u);
					tma_kv<C>(&tm_k, s_k + s * C::kv_bytes, bars.full_k(s), t, bh);
					mbar_wait(bars.empty_v(s), ph ^ 1u);
					tma_kv<C>(&tm_v, s_v + s * C::kv_bytes, bars.full_v(s), t, bh);
				}
			}
		}
		return;
	}
	if constexpr (C::regs_moved)
		setmaxnreg_inc<C::consumer_regs>();
	const int wg = tid / 128 - 1;

	int g0 = 0; /* this tile's first K/V tile in the CTA's count */
	uint32_t c = 0;
	for (int w = blockIdx.x; w < n_work; w += gridDim.x, c++, g0 += n_tiles) {
		const int m0 = (w % n_m) * C::bm, bh = w / n_m;
		float o[C::d / 2];
#pragma unroll
		for (int i = 0; i < C::d / 2; i++)
			o[i] = 0.0f;
		float m_run[2] = {-INFINITY, -INFINITY}, l_run[2] = {0.0f, 0.0f}, alpha[2];
		float s[C::bn / 2];
		uint32_t p[C::bn / 16][4];
		mbar_wait(bars.q(), c & 1u);
		if constexpr (C::pingpong)
			if (wg == C::nwg - 1 && n_tiles > 1)
				named_barrier_arrive(sched_bar<C>(0), SCHED_THREADS); /* warp group 0's first turn */

		if constexpr (!C::overlap) {
			for (int j = 0; j < n_tiles; j++) {
				const int st = stage_of<C>(g0 + j);
				const uint32_t ph = parity_of<C>(g0 + j);
				mbar_wait(bars.full_k(st), ph);
				wgmma_fence();
				issue_qk<C>(s, s_q, wg, s_k + st * C::kv_bytes);
				wgmma_commit();
				wgmma_wait<0>();
				fence_regs(s);
				if (lane == 0) {
					mbar_arrive(bars.empty_k(st));
					if (j == n_tiles - 1)
						mbar_arrive(q_empty); /* this warp's last read of Q */
				}

				online_softmax<C>(s, m_run, l_run, alpha, j * C::bn, S, scale_log2, lane);
				convert_p<C>(s, p);
				rescale_o<C>(o, alpha);

				mbar_wait(bars.full_v(st), ph);
				wgmma_fence();
				issue_pv<C>(o, p, s_v + st * C::kv_bytes);
				wgmma_commit();
				wgmma_wait<0>();
				fence_regs(o);
				fence_regs(p);
				if (lane == 0)
					mbar_arrive(bars.empty_v(st));
			}
		} else {
			/* tile 0: S(0), its softmax and P(0) */
			const int s0 = stage_of<C>(g0);
			mbar_wait(bars.full_k(s0), parity_of<C>(g0));
			wgmma_fence();
			issue_qk<C>(s, s_q, wg, s_k + s0 * C::kv_bytes);
			wgmma_commit();
			wgmma_wait<0>();
			fence_regs(s);
			if (lane == 0) {
				mbar_arrive(bars.empty_k(s0));
				if (n_tiles == 1)
					mbar_arrive(q_empty); /* this warp's last read of Q */
			}
			online_softmax<C>(s, m_run, l_run, alpha, 0, S, scale_log2, lane); /* O = 0: alpha unused */
			convert_p<C>(s, p);

			for (int j = 1; j < n_tiles; j++) {
				const int st = stage_of<C>(g0 + j), sp = stage_of<C>(g0 + j - 1);
				const uint32_t ph = parity_of<C>(g0 + j), php = parity_of<C>(g0 + j - 1);
				mbar_wait(bars.full_k(st), ph);
				mbar_wait(bars.full_v(sp), php);
				if constexpr (C::pingpong)
					named_barrier_sync(sched_bar<C>(wg), SCHED_THREADS); /* this warp group's turn */
				wgmma_fence();
				issue_qk<C>(s, s_q, wg, s_k + st * C::kv_bytes); /* group 1: S(j) */
				wgmma_commit();
				if constexpr (C::smx >= 2)
					rescale_o_beside<C>(o, alpha); /* SMX=2: O *= alpha(j-1) while S(j) runs */
				issue_pv<C>(o, p, s_v + sp * C::kv_bytes); /* group 2: O += P(j-1) V(j-1) */
				wgmma_commit();
				if constexpr (C::pingpong)
					if (sched_gives<C>(wg, j, n_tiles)) /* the next warp group's turn */
						named_barrier_arrive(sched_bar<C>(sched_next<C>(wg)), SCHED_THREADS);
				wgmma_wait<1>(); /* S(j) is done; P V may still run */
				fence_regs(s);
				if (lane == 0) {
					mbar_arrive(bars.empty_k(st));
					if (j == n_tiles - 1)
						mbar_arrive(q_empty); /* this warp's last read of Q */
				}
				online_softmax<C>(s, m_run, l_run, alpha, j * C::bn, S, scale_log2, lane);
				wgmma_wait<0>(); /* P(j-1) V(j-1) is done: O and P may be touched */
				fence_regs(o);
				fence_regs(p);
				if (lane == 0)
					mbar_arrive(bars.empty_v(sp));
				if constexpr (C::smx < 2)
					rescale_o<C>(o, alpha);
				convert_p<C>(s, p);
			}
			const int sl = stage_of<C>(g0 + n_tiles - 1);
			mbar_wait(bars.full_v(sl), parity_of<C>(g0 + n_tiles - 1));
			if constexpr (C::smx >= 2)
				rescale_o<C>(o, alpha); /* SMX=2: alpha(n_tiles-1), before the last P V */
			wgmma_fence();
			issue_pv<C>(o, p, s_v + sl * C::kv_bytes);
			wgmma_commit();
			wgmma_wait<0>();
			fence_regs(o);
			fence_regs(p);
			if (lane == 0)
				mbar_arrive(bars.empty_v(sl));
		}
		/* O through its own staging tile (each warp writes and reads back only
		 * its own 16 rows there, so tile c+1's store cannot race tile c's) */
		if constexpr (C::ostore)
			store_o_regs<C>(o, l_run, d_o + (size_t)bh * S * C::d, m0, wg, S);
		else
			store_o<C>(o, l_run, gbase + C::off_o, d_o + (size_t)bh * S * C::d, m0, wg, S);
	}
}

/* ---- host side ------------------------------------------------------------- */

/* cuTensorMapEncodeTiled from the driver, found once by init (no -lcuda). */
static PFN_cuTensorMapEncodeTiled_v12000 fa_wgmma_encode_fn;

/*
 * The tensor map of one of Q, K, V: [B*H][S][D] fp16, innermost first,
 * boxes of 64 columns x box_rows rows x 1 head, 128-byte swizzle (the
 * layout sw128_off() spells), out-of-bounds rows filled with zeros.
 * Returns the CUresult (0 = CUDA_SUCCESS).
 */
static inline int fa_wgmma_tensor_map(CUtensorMap *m, const void *ptr, long long BH, long long S, int D, int box_rows)
{
	if (!fa_wgmma_encode_fn)
		return (int)CUDA_ERROR_NOT_INITIALIZED;
	const cuuint64_t dims[3] = {(cuuint64_t)D, (cuuint64_t)S, (cuuint64_t)BH};
	const cuuint64_t strides[2] = {(cuuint64_t)D * 2, (cuuint64_t)S * (cuuint64_t)D * 2}; /* bytes, dims 1 and 2 */
	const cuuint32_t box[3] = {64, (cuuint32_t)box_rows, 1};
	const cuuint32_t estrides[3] = {1, 1, 1};
	return (int)fa_wgmma_encode_fn(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, (void *)ptr, dims, strides, box, estrides,
				       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
				       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <class C> static const void *fa_wgmma_kernel_fn(void)
{
	if constexpr (C::persist)
		return (const void *)attention_fwd_kernel8<C>;
	else if constexpr (C::tma)
		return (const void *)attention_fwd_kernel7<C>;
	else
		return (const void *)attention_fwd_kernel6<C>;
}

/*
 * Checks the launch, the device and the shared-memory budget, raises the
 * dynamic shared-memory limit and (STEP >= 2) finds cuTensorMapEncodeTiled
 * and encodes the maps once, so that a shape TMA cannot take is refused
 * here with the driver's reason rather than at the first launch.
 */
template <class C> static int fa_wgmma_init_t(struct ev_launch *l, char *err, size_t errlen)
{
	if (l->n_inputs != 3 || l->n_outputs != 1) {
		snprintf(err, errlen, "attention_fwd needs 3 inputs and 1 output, got %d and %d", l->n_inputs,
			 l->n_outputs);
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
			snprintf(err, errlen, "tensor %d is not 16-byte aligned (cp.async, TMA and the O stores move 16 bytes)", i);
			return 1;
		}
	}
	const long long B = t0->dims[0], H = t0->dims[1], S = t0->dims[2], D = t0->dims[3];
	if (D != C::d) {
		snprintf(err, errlen, "compiled for HEAD_DIM=%d, got D=%lld (rebuild with -DHEAD_DIM=%lld)", C::d, D, D);
		return 1;
	}
	if (B < 1 || H < 1 || S < 1 || B > 65535 || H > 65535 || S > INT32_MAX - C::bm) {
		snprintf(err, errlen, "shape B=%lld H=%lld S=%lld out of range for the grid", B, H, S);
		return 1;
	}
	if (C::persist && (S + C::bm - 1) / C::bm * H * B > INT32_MAX) {
		snprintf(err, errlen, "shape B=%lld H=%lld S=%lld has more than 2^31-1 tiles (PERSIST=1 counts them in an int)",
			 B, H, S);
		return 1;
	}
	if (!(l->scale > 0.0 && l->scale < 1e30)) {
		snprintf(err, errlen, "scale=%g must be positive and finite (the row max is taken before scaling)", l->scale);
		return 1;
	}
	int dev = 0, major = 0, minor = 0, optin = 0;
	cudaError_t e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot query the device: %s", cudaGetErrorString(e));
		return 1;
	}
	if (major != 9 || minor != 0) {
		snprintf(err, errlen, "fa_wgmma is sm_90a code (wgmma, TMA, setmaxnreg); this device is sm_%d%d", major, minor);
		return 1;
	}
	if (C::smem_bytes > (size_t)optin) {
		snprintf(err, errlen, "tiles need %zu B of shared memory, the device allows %d B per block",
			 (size_t)C::smem_bytes, optin);
		return 1;
	}
	e = cudaFuncSetAttribute(fa_wgmma_kernel_fn<C>(), cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)C::smem_bytes);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allow %zu B of dynamic shared memory: %s", (size_t)C::smem_bytes,
			 cudaGetErrorString(e));
		return 1;
	}
	if constexpr (C::tma) {
		if (!fa_wgmma_encode_fn) {
			void *fn = NULL;
			cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
			e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
			if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !fn) {
				snprintf(err, errlen, "the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or later): %s",
					 e != cudaSuccess ? cudaGetErrorString(e) : "symbol not found");
				return 1;
			}
			fa_wgmma_encode_fn = (PFN_cuTensorMapEncodeTiled_v12000)fn;
		}
		CUtensorMap m;
		for (int i = 0; i < 3; i++) {
			const int r = fa_wgmma_tensor_map(&m, l->inputs[i].data, B * H, S, C::d, i == 0 ? C::bm : C::bn);
			if (r != 0) {
				snprintf(err, errlen, "cuTensorMapEncodeTiled refused tensor %d (CUresult %d): "
					 "S*D*2 bytes per head must fit its limits", i, r);
				return 1;
			}
		}
	}
	return 0;
}

template <class C> static int fa_wgmma_launch_t(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid((unsigned)((S + C::bm - 1) / C::bm), (unsigned)H, (unsigned)B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	const cudaStream_t st = (cudaStream_t)l->stream;
	if constexpr (C::tma) {
		CUtensorMap tq, tk, tv;
		if (fa_wgmma_tensor_map(&tq, l->inputs[0].data, (long long)B * H, S, C::d, C::bm) ||
		    fa_wgmma_tensor_map(&tk, l->inputs[1].data, (long long)B * H, S, C::d, C::bn) ||
		    fa_wgmma_tensor_map(&tv, l->inputs[2].data, (long long)B * H, S, C::d, C::bn))
			return (int)cudaErrorInvalidValue;
		if constexpr (C::persist) {
			/* one CTA per tile up to what the GPU runs at once: asked at every
			 * launch (host calls only: a sealed replay keeps the planner's grid) */
			const int n_work = (S + C::bm - 1) / C::bm * H * B;
			int dev = 0, sms = 0, per_sm = 0;
			cudaError_t e = cudaGetDevice(&dev);
			if (e == cudaSuccess)
				e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
			if (e == cudaSuccess)
				e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, attention_fwd_kernel8<C>, C::threads,
										  C::smem_bytes);
			if (e != cudaSuccess)
				return (int)e;
			if (per_sm < 1)
				return (int)cudaErrorInvalidConfiguration;
			const long long ctas = (long long)sms * per_sm;
			const unsigned g1 = (unsigned)(ctas < n_work ? ctas : n_work);
			attention_fwd_kernel8<C><<<g1, C::threads, C::smem_bytes, st>>>(
				tq, tk, tv, (__half *)l->outputs[0].data, H, S, n_work, scale_log2);
		} else {
			attention_fwd_kernel7<C><<<grid, C::threads, C::smem_bytes, st>>>(
				tq, tk, tv, (__half *)l->outputs[0].data, H, S, scale_log2);
		}
	} else {
		attention_fwd_kernel6<C><<<grid, C::threads, C::smem_bytes, st>>>(
			(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
			(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	}
	return (int)cudaGetLastError();
}

/* ---- the evident entry point: the variant the macros name ------------------ */

#ifndef PERSIST
#define PERSIST 0
#endif
#if PERSIST != 0 && PERSIST != 1
#error "PERSIST must be 0 or 1"
#endif
#ifndef OSTORE
#define OSTORE 0
#endif
#ifndef SMX
#define SMX 0
#endif
#if OSTORE == 0 && SMX == 0 /* fa_wgmma2.cu's types: its kernels, its PTX */
typedef fa_cfg<STEP, HEAD_DIM, BLOCK_N, NUM_WG, STAGES> fa_wgmma_cfg0;
#else /* fa_cfg_opt's static_asserts: the knobs' values, SMX=2 needs STEP >= 4 */
typedef fa_cfg_opt<fa_cfg<STEP, HEAD_DIM, BLOCK_N, NUM_WG, STAGES>, OSTORE, SMX> fa_wgmma_cfg0;
#endif
#if PERSIST /* fa_cfg_persist's static_asserts: STEP >= 3, the shared memory */
typedef fa_cfg_persist<fa_wgmma_cfg0> fa_wgmma_cfg;
#else
typedef fa_wgmma_cfg0 fa_wgmma_cfg;
#endif

static int fa_wgmma_init(struct ev_launch *l, char *err, size_t errlen)
{
	return fa_wgmma_init_t<fa_wgmma_cfg>(l, err, errlen);
}

static int fa_wgmma_launch(struct ev_launch *l) { return fa_wgmma_launch_t<fa_wgmma_cfg>(l); }

EVIDENT_DEFINE_KERNEL("fa_wgmma3", "cuda", "attention_fwd", fa_wgmma_init, fa_wgmma_launch, NULL,
		      EV_PARAM(STEP) " " EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_N) " " EV_PARAM(NUM_WG) " "
		      EV_PARAM(STAGES) " " EV_PARAM(PERSIST) " " EV_PARAM(OSTORE) " " EV_PARAM(SMX))
