# evident - reproducible experiment pipeline for GPU kernel research.
#
# Entry points (README.md has the long form):
#   make                 build bin/evident (and lib/libevident_cuda.so where nvcc exists)
#   make exp/NAME        run experiments/NAME.yaml into store/ (STORE=artifacts: the study's)
#   make test            repository checks, unit tests (cmocka) and CLI tests, plain
#                        and under ASan+UBSan, at once (scripts/run-tests.sh): each
#                        CLI test in one pass (CLI_BOTH=1: as before, both passes)
#   make deps            install the Debian packages the build needs (or print the line)
#   make paper | audit | export | verify | dist | bench-stats | bench-aa
#
# Layout of this file: variables, the runner, tests, then per-area fragments
# in mk/*.mk (cuda.mk: the CUDA harness, kernels check and dist; stats.mk:
# statistics benchmark; paper.mk: paper, audit, export).

SHELL := /bin/bash
CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
PKGS := libgit2 gsl jansson yaml-0.1 libcrypto libseccomp
# := (once a make, where ?= alone reran the shell at each of its uses)
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
endif
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))

BUILD ?= build
SAN ?=
ifeq ($(SAN),1)
BUILD := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# -O1, ASan's own advice: -O2's inlined memcmp hid an overread that -O1's
# call shows (src/report/audit_number.c's space_len, test_audit), and the
# sanitized sources (src/ and the unit tests) compile in 86 s of CPU at
# -O1 against 130 s at -O2 (no ccache, as on a fresh CI machine; the
# project's 2-CPU machine, 2026-11-29) while its tests take about the same
# CPU (the unit tests 36 s against 34 s).  The plain tree stays -O2.
CFLAGS ?= -O1 -g
# Linked as a position-dependent executable (-no-pie): the instrumented
# runner has 133,799 R_X86_64_RELATIVE relocations as a PIE (ASan's
# descriptor of every global), which the loader applied at each of its
# thousands of starts in make test (about 900 copy-on-write page faults,
# 15 ms of CPU a start on the project's VM); linked at a fixed address it
# has none.  What ASan and UBSan check is the same either way.
# The sanitizer runtimes linked in (-static-libasan -static-libubsan): a
# box of copies (src/base/sandbox.c push_copy) holds each library its
# program loads, which bubblewrap copies 8 KiB a read and write as the box
# starts, and the shared runtimes bring libasan (8.2 MB), libubsan (2.7 MB)
# and the libstdc++ it needs (2.2 MB): a sanitized worker's box copied
# 24 MB, 12.5 MB now (the worker grows by 1.5 MB).  Measured on the
# project's 2-CPU VM, 2026-12-04: bubblewrap with the 24 MB of copies 57 ms
# of CPU a box more than with none (50 boxes, 2.84 s against 0.38 s); CLI
# test t0194 (213 worker boxes) 33.1 and 37.1 s of CPU with the shared
# runtimes, 29.3 and 32.3 s linked in, alternating; a sanitized runner's
# start 50 ms against 58 (--version, 40 runs).  No instrumented shared
# object is loaded by either (kernels, problems and the CUDA harness are
# built without the sanitizers), so none needs the runtimes' symbols.
SAN_LDFLAGS := -no-pie -static-libasan -static-libubsan
# tests/san/san_prescan.c: LeakSanitizer's scan at exit, pre-mapped
# (linked into the sanitized executables only; the file says why)
SAN_OBJS := $(BUILD)/san/san_prescan.o
endif

# ccache (scripts/deps.sh installs it; CCACHE= builds without): a compile
# whose source, headers and flags it has seen takes the object from its
# cache (~/.cache/ccache), so t0040's fresh clone of this tree and a build
# after make clean cost seconds, not a minute of CPU.  ccache checks every
# header's content (or reruns the preprocessor), so a clone that lacks a
# file still fails to build.  -fdebug-prefix-map writes the tree's
# directory as "." into the debug information, so the objects, and the
# cache's key, do not depend on where the tree is.
# (looked up once a make, at the first compile: deps-check installs it
# first; ?= alone ran a shell for each compile)
ifeq ($(origin CCACHE),undefined)
CCACHE = $(eval CCACHE := $$(shell command -v ccache 2>/dev/null))$(CCACHE)
endif
# pkg-config runs once a make, at the first compile or link (after
# deps-check has installed what was missing, so not when the Makefile is
# read): each variable sets itself to its value on its first expansion.
# Plain `=` ran it at every compile and link (80 runs, about 0.9 s of
# CPU, in a build of the unit tests alone: a process costs ~10 ms here).
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $$(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $$(shell pkg-config --libs $$(PKGS) 2>/dev/null))$(PKG_LIBS)
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
	$(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -Isrc -MMD -MP -fdebug-prefix-map=$(CURDIR)=.
LDLIBS = $(PKG_LIBS) -ldl -lm -lpthread
# The linker: gold, else lld, where $(CC) can run one (FUSE_LD= for its
# default, GNU ld).  Linking a unit test binary against libevident.a took
# 0.28 s of CPU with GNU ld, 0.12 s with gold and 0.17 s with lld, and
# make test links 90 (41 unit binaries, plain and sanitized, and the two
# runners, each time libevident.a changes; t0040's fresh clone every time):
# make test-build's links took 13.5 s of CPU with GNU ld, 6.8 s with gold;
# SAN=1's 16.5 s and 8.2 s (2026-11-29, the project's 2-CPU VM).  Looked
# up once a make, at the first link.
ifeq ($(origin FUSE_LD),undefined)
FUSE_LD = $(eval FUSE_LD := $$(shell for l in gold lld; do $$(CC) -fuse-ld=$$$$l -Wl,--version >/dev/null 2>&1 && \
	{ echo -fuse-ld=$$$$l; break; }; done))$(FUSE_LD)
endif
LDFLAGS += $(SANFLAGS) $(SAN_LDFLAGS) -Wl,-rpath,'$$ORIGIN/../lib' $(FUSE_LD)

SRCS := $(filter-out src/cli/main.c src/cli/worker_main.c,$(wildcard src/*/*.c))
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
EVIDENT := $(if $(SAN),$(BUILD)/bin/evident,bin/evident)
# the lean executable of a job's worker and checker (src/cli/worker_main.c),
# beside the runner, which execs it in their stead (run/run.c, worker_exe)
EVIDENT_WORKER := $(dir $(EVIDENT))evident-worker

.PHONY: all deps deps-check san-cover test test-build test-repo test-unit test-cli clean exp/% paper audit export verify dist bench-stats check-kernels
.DEFAULT_GOAL := all
all: deps-check $(EVIDENT) $(EVIDENT_WORKER)

deps:
	@scripts/deps.sh install
deps-check:
	@scripts/deps.sh check

$(BUILD)/obj/%.o: src/%.c | deps-check
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(ALL_CFLAGS) -c -o $@ $<

# The dist's bubblewrap this runner accepts, by SHA-256, compiled in
# (scripts/bwrap-known.sh: the Debian package's, as scripts/dist.sh patches
# it); the script runs at every make (FORCE, about 0.1 s) and the header is
# replaced only when its text changes: a prerequisite list of /usr/bin/bwrap
# and patchelf is read when make starts, so on a fresh machine, where
# deps-check installs both during the same make, the header kept the empty
# hash and `make dist` then refused the dist's bwrap (2026-12-07).  The
# temporary file is named by the shell's pid: make test runs makes side
# by side in one tree, and each remakes it.
$(BUILD)/gen/bwrap_known.h: scripts/bwrap-known.sh FORCE | deps-check
	@mkdir -p $(dir $@)
	@t=$@.$$$$.tmp; scripts/bwrap-known.sh > $$t && { cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; }
$(BUILD)/obj/base/sandbox_tool.o: $(BUILD)/gen/bwrap_known.h
$(BUILD)/obj/base/sandbox_tool.o: ALL_CFLAGS += -I$(BUILD)/gen

# The commit the runner is built from, compiled in (scripts/runner-commit.sh
# says why: every record names its runner, red team 279): the script runs
# at every make (FORCE; git rev-parse and a git status of every file the
# build reads: src/, Makefile, mk/, the headers src/ includes and what the
# last make's dependency files name, red team 282 row 5; about 30 ms) and the header is replaced only when its text
# changes, so a make with nothing new recompiles nothing; a new commit
# recompiles src/run/runner_build.c alone and relinks evident (the worker
# never reaches it: its bytes stay the same from commit to commit).  Its
# temporary file is the shell's own ($$$$): make test's streams run their
# makes at once, and a shared name was moved away under the next (t0040).
$(BUILD)/gen/runner_commit.h: FORCE
	@mkdir -p $(dir $@)
	@t=$@.$$$$.tmp; scripts/runner-commit.sh $(BUILD) > $$t && { cmp -s $$t $@ && rm -f $$t || mv $$t $@; }
$(BUILD)/obj/run/runner_build.o: $(BUILD)/gen/runner_commit.h
$(BUILD)/obj/run/runner_build.o: ALL_CFLAGS += -I$(BUILD)/gen
.PHONY: FORCE
FORCE:

$(BUILD)/libevident.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(EVIDENT): $(BUILD)/obj/cli/main.o $(SAN_OBJS) $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same archive, the same libraries named: the linker takes from
# libevident.a only the objects __worker and __check reach, and
# --as-needed records as NEEDED only the libraries those objects call
# (`ldd bin/evident-worker`: no libgit2, GSL, libyaml).  Its relocations
# are all made at load and then read-only (-z now, full RELRO): a kernel
# that runs in its process (a host kernel, a trust: host CUDA kernel)
# cannot redirect the worker's calls by writing a GOT entry (issue 22).
$(EVIDENT_WORKER): $(BUILD)/obj/cli/worker_main.o $(SAN_OBJS) $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -Wl,--as-needed -Wl,-z,relro,-z,now -o $@ $^ $(LDLIBS)

# --- experiments --------------------------------------------------------
# make exp/NAME runs experiments/NAME.yaml into your own store, store/
# (git-ignored), or into STORE=DIR: the study's committed store is
# artifacts/ (make exp/iter1 STORE=artifacts).  EVIDENT_FLAGS passes options.
STUDY_STORE := artifacts
STORE ?=
exp/%: all
	$(EVIDENT) run $(if $(STORE),--store $(STORE)) $(EVIDENT_FLAGS) experiments/$*.yaml

# verify checks the study's committed store unless STORE says otherwise.
verify: all
	$(EVIDENT) verify --history --store $(or $(STORE),$(STUDY_STORE))

# --- tests ---------------------------------------------------------------
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# compiled, then linked: ccache keeps compiles only (and the objects are
# kept, not removed as intermediates)
.SECONDARY: $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/obj/%.o)
$(BUILD)/tests/obj/%.o: tests/unit/%.c | deps-check
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/tests/%: $(BUILD)/tests/obj/%.o $(SAN_OBJS) $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(SAN_OBJS) $(BUILD)/libevident.a $(LDLIBS) -lcmocka

$(BUILD)/san/%.o: tests/san/%.c | deps-check
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(ALL_CFLAGS) -c -o $@ $<

# test_nvml_fork loads a stand-in NVML (tests/unit/fake_nvml.c) built beside it
$(BUILD)/tests/libfake_nvml.so: tests/unit/fake_nvml.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -fPIC -shared -Wall -Wextra -Werror -o $@ $<
$(BUILD)/tests/test_nvml_fork: $(BUILD)/tests/libfake_nvml.so

# host-only microbenchmarks (tests/bench), built on request: make build/bench/NAME
$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libevident.a | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libevident.a $(LDLIBS)

# Inside t0040's clone (README's Quick start, twice: EVIDENT_QUICKSTART_INNER)
# make test is a smoke run: the runner and every unit binary are built, the
# repository checks run (less check-kernels and layout-sims), and of the suites only these.
SMOKE_UNIT := test_options test_record test_spec
SMOKE_CLI := t0001 t0002 t0003
INNER := $(if $(EVIDENT_QUICKSTART_INNER),1)
# Round 2 of t0040 (EVIDENT_QUICKSTART_INNER=2) skips verify, paper and
# audit as well: round 1 ran them on the same committed tree (the clone is
# clean after it) and the demo's second batch goes to store/, which none
# of them reads (verify --store artifacts; PAPER.md names artifacts/).
AGAIN := $(filter 2,$(EVIDENT_QUICKSTART_INNER))
# Round 1 skips them too where the outer make test checks this very tree
# (EVIDENT_QUICKSTART_CHECKED=1: t0040 sets it when the repository it
# cloned has nothing uncommitted, so the clone holds the outer tree's
# files; the outer make test's repo stream verifies the store and t6013
# audits and regenerates PAPER.md).
CHECKED := $(or $(AGAIN),$(EVIDENT_QUICKSTART_CHECKED))
# In make test (scripts/run-tests.sh sets REPO_CLI_CHECKS=1) the audit and
# paper checks are left to CLI test t6013, which runs the same commands
# (evident audit --strict PAPER.md, evident paper --check PAPER.md) from
# the repository root, under ASan+UBSan in the sanitized pass: make test
# ran them twice (the plain audit alone 6.8 s of CPU, 2026-12-01).
# Where the tree is checked so (CHECKED) the smoke run's unit tests leave
# out test_record as well: its test_index_views_match parses every record
# of artifacts/ (5,123 now; 2.6 s of CPU a run, the other two smoke
# binaries 0.02 s each), the clone's records are the outer tree's, and the
# outer make test runs test_record on them, plain and sanitized.  It is
# still built (t0040 checks every unit binary is).
ifneq ($(CHECKED),)
SMOKE_UNIT := $(filter-out test_record,$(SMOKE_UNIT))
endif

# Everything the unit and CLI tests run, built (make test builds it for the
# plain tree before any test starts, and with SAN=1 in the stream that runs
# the sanitized tests, beside the plain ones).
test-build: all $(UNIT_BINS)

test-unit: all $(UNIT_BINS)
	@scripts/run-unit-tests.sh $(if $(INNER),$(SMOKE_UNIT:%=$(BUILD)/tests/%),$(UNIT_BINS))

# Under ASan, let fatal signals reach the process: the fault fixtures crash
# on purpose, and the runner must see SIGSEGV/SIGABRT, not ASan's exit 1.
# A crash of evident itself still fails its test.
SAN_ENV := $(if $(SAN),ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0:allow_user_segv_handler=1)

test-cli: all
	@$(SAN_ENV) EVIDENT=$(abspath $(EVIDENT)) tests/cli/run.sh $(if $(INNER),$(SMOKE_CLI))

# Checks of the committed repository itself: the store verifies, PAPER.md
# regenerates from it without a diff, every claim in it is supported,
# every CUDA kernel compiles for sm_80 and sm_90 (sm_90a where it says so)
# and the tensor-core kernels' layout simulators agree with the PTX ISA
# (scripts/layout-sims.sh; both where nvcc exists; the GPU tests
# themselves skip without a GPU and say why).  Each line is one
# check, counted by scripts/run-check.sh; every check runs, and the last
# line prints "repo: N passed, N failed, N skipped" and fails if one did.
REPO_CHECK = scripts/run-check.sh $(BUILD)/repo-checks
test-repo: all
	@rm -f $(BUILD)/repo-checks
ifneq ($(CHECKED),)
	@$(REPO_CHECK) --skip verify "t0040: $(if $(AGAIN),round 1,the outer make test) checked this tree"
	@$(REPO_CHECK) --skip paper "t0040: $(if $(AGAIN),round 1,the outer make test) checked this tree"
	@$(REPO_CHECK) --skip audit "t0040: $(if $(AGAIN),round 1,the outer make test) checked this tree"
else
	@$(REPO_CHECK) verify $(EVIDENT) verify --quiet --history --store $(STUDY_STORE)
ifneq ($(REPO_CLI_CHECKS),)
	@$(REPO_CHECK) --skip paper "CLI test t6013 runs paper --check PAPER.md"
	@$(REPO_CHECK) --skip audit "CLI test t6013 runs audit --strict PAPER.md"
else
	@$(REPO_CHECK) paper $(EVIDENT) paper --check PAPER.md
	@$(REPO_CHECK) audit $(EVIDENT) audit --strict -q PAPER.md
endif
endif
ifneq ($(INNER),)
	@$(REPO_CHECK) --skip check-kernels "inside t0040's clone: the outer make test compiles them"
	@$(REPO_CHECK) --skip layout-sims "inside t0040's clone: the outer make test runs them"
else ifneq ($(NVCC),)
	@$(REPO_CHECK) check-kernels $(CHECK_KERNELS)
	@$(REPO_CHECK) layout-sims env NVCC=$(NVCC) scripts/layout-sims.sh build/layout-sims
else
	@$(REPO_CHECK) --skip check-kernels "no nvcc on this machine"
	@$(REPO_CHECK) --skip layout-sims "no nvcc on this machine"
endif
	@$(REPO_CHECK) --total

# make test = the repository checks, the unit and CLI tests, and the unit
# and CLI tests built with ASan+UBSan, run at once as five streams by
# scripts/run-tests.sh once the runner and the unit tests are built, and
# ending with one line over them all: "test: N passed, N failed, N skipped".
# Each CLI test runs in one pass (CLI_ONCE, tests/cli/run.sh): those of
# tests/cli/san-skip.txt and those that need the plain build in the plain
# pass, the others sanitized; CLI_BOTH=1 make test runs every CLI test in
# the plain pass and the others sanitized too, as before.
# Inside t0040 (README's Quick start, twice, in a clone:
# EVIDENT_QUICKSTART_INNER) it is the smoke run SMOKE_UNIT and SMOKE_CLI,
# without the sanitized pass, check-kernels and layout-sims: the outer make test runs
# everything on the same code.
test: deps-check
	@MAKE='$(MAKE)' scripts/run-tests.sh

# make san-cover: remeasure which CLI tests the sanitized pass runs: every
# candidate CLI test and the unit tests under a gcov build (build/san-cover,
# scripts/cli-coverage.sh), then scripts/san-cover.py's set cover rewrites
# tests/cli/san-skip.txt and writes its evidence file in data/host-evidence/
# (the costs are the last make test's build/test-times-*).  About 25 minutes
# of the project's 2 CPUs; rerun after changes to src/ or the tests.
SAN_COVER_DIR ?= build/san-cover
san-cover: all
	scripts/cli-coverage.sh $(SAN_COVER_DIR)
	scripts/san-cover.py --write data/host-evidence/san-cover-$$(date -u +%Y%m%d)-$$(git rev-parse --short=8 HEAD).txt $(SAN_COVER_DIR)

clean:
	rm -rf build build-san bin lib dist

-include mk/*.mk
-include $(OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(BUILD)/obj/cli/main.d $(BUILD)/obj/cli/worker_main.d $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/obj/%.d)
