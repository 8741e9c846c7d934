# cuda.mk - the CUDA harness, the kernels compile check, and dist.
#
# lib/libevident_cuda.so (build-san/lib/ under SAN=1) is built with nvcc
# when nvcc exists (NVCC, CUDA_HOME come from the Makefile) and then `all`
# builds it too.  Kernel objects and the harness share one libcudart
# (-cudart shared), so the harness's stream is the kernel's stream.  The
# rpath to $(CUDA_HOME)/lib64 lets the worker find libcudart and cuBLAS on
# hosts whose loader does not know the toolkit's directory.  CUPTI (the
# kernel clock) is compiled against its headers only and dlopen()ed at run
# time (libcupti.so.N from the loader's path, this rpath, CUDA_HOME/lib64 or
# extras/CUPTI/lib64), so a host without it still runs, on events alone.
#
#   make check-kernels   compile every .cu under kernels/, problems/ (the
#                        GPU references) and tests/fixtures/cuda/ for
#                        sm_80 and sm_90 with
#                        -Xptxas -v into build/kcheck/, fail on any compile
#                        error, print registers/smem/spills per function
#   make dist            dist/evident/: bin/evident, lib/libevident_cuda.so
#                        and the shared libraries a GPU host may lack
#                        (scripts/dist.sh)

ifeq ($(SAN),1)
CUDA_LIB_DIR := build-san/lib
else
CUDA_LIB_DIR := lib
endif
HARNESS := $(CUDA_LIB_DIR)/libevident_cuda.so
HARNESS_ARCHS := -gencode=arch=compute_80,code=sm_80 \
	-gencode=arch=compute_90,code=[sm_90,compute_90]
NVCC_HOST_FLAGS := -Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra,-Werror,-Wno-unused-parameter

.PHONY: harness
ifneq ($(NVCC),)
all: $(HARNESS)
harness: $(HARNESS)
# Each .cu compiled on its own (through ccache, as the C sources: a clone's
# build takes them from its cache), then linked.  For nvcc ccache hashes
# the directory unless told not to (CCACHE_NOHASHDIR): there is no -g, so
# no directory in the objects.
HARNESS_HDRS := src/backends/cuda/seal.h src/backends/seal_move.h src/backends/cuda/evident_cuda.h src/backends/scramble.h src/backends/sigseal.h \
	kernels/evident_kernel.h
$(CUDA_LIB_DIR)/obj/%.o: src/backends/cuda/%.cu $(HARNESS_HDRS)
	@mkdir -p $(dir $@)
	$(if $(CCACHE),CCACHE_NOHASHDIR=1 $(CCACHE)) $(NVCC) -O3 -std=c++17 $(NVCC_HOST_FLAGS) $(HARNESS_ARCHS) \
		-I$(CUDA_HOME)/extras/CUPTI/include -c -o $@ $<
$(HARNESS): $(CUDA_LIB_DIR)/obj/harness.o $(CUDA_LIB_DIR)/obj/seal.o
	@mkdir -p $(dir $@)
	$(NVCC) -shared -cudart shared $(HARNESS_ARCHS) \
		-Xlinker -rpath -Xlinker $(CUDA_HOME)/lib64 -Xlinker -z,relro,-z,now -o $@ $^ \
		-L$(CUDA_HOME)/lib64/stubs -lcuda -ldl -lpthread
else
harness:
	@echo "cuda.mk: nvcc not found (set NVCC or CUDA_HOME); the CUDA harness is not built"
endif

# --- check-kernels -------------------------------------------------------
# What it costs (a fresh tree, as CI's: 52 units, 28 nvcc calls, one a
# file for all its archs, scripts/check-kernels.sh says why): 184 s of
# CPU on the project's 2-CPU machine (2026-11-29; 245 s as 52 calls);
# with the host side at -O0 (the device code is the same) 199 s against
# 211 s at -O3 the same afternoon beside a make test (load 10 to 15).
# Half of it is one file, kernels/attention/tools/fa_wgmma_check.cu
# (sm_90a only, 90 to 106 s): it instantiates 35 configurations of
# fa_wgmma3.cu's kernels, each compiled by cicc (64 s) and ptxas (19 s),
# and nothing else compiles them; the rest is about 3 s a file.  Every
# arch keeps its own cicc and ptxas pass: the sm_80 and sm_90 code differ
# (the registers of 23 of the 32 kernels compiled for both differ in the
# table), so neither stands for the other.
KCHECK_SRCS := $(shell find kernels problems tests/fixtures/cuda -name '*.cu' 2>/dev/null | sort)
# the command, also run by make test-repo
CHECK_KERNELS = env NVCC=$(NVCC) scripts/check-kernels.sh build/kcheck $(KCHECK_SRCS)
check-kernels:
ifeq ($(NVCC),)
	@echo "check-kernels: nvcc not found (set NVCC or CUDA_HOME)" >&2; exit 6
else
	@$(CHECK_KERNELS)
endif

# --- dist ------------------------------------------------------------------
dist: all
	@scripts/dist.sh dist/evident $(EVIDENT) $(if $(NVCC),$(HARNESS))
