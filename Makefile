# evident - reproducible experiment pipeline for GPU kernel research.
#
# Entry points (README.md has the long form):
#   make                 build bin/evident (and lib/libevident_cuda.so where nvcc exists)
#   make exp/NAME        run experiments/NAME.yaml into store/ (STORE=artifacts: the study's)
#   make test            unit tests (cmocka), CLI tests, then both again under ASan+UBSan
#   make deps            install the Debian packages the build needs (or print the line)
#   make paper | audit | export | verify | dist | bench-stats
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
NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))

BUILD ?= build
SAN ?=
ifeq ($(SAN),1)
BUILD := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
	$(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -Isrc -MMD -MP
LDLIBS = $(PKG_LIBS) -ldl -lm -lpthread
LDFLAGS += $(SANFLAGS) -Wl,-rpath,'$$ORIGIN/../lib'

SRCS := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
EVIDENT := $(if $(SAN),$(BUILD)/bin/evident,bin/evident)

.PHONY: all deps deps-check test test-repo test-unit test-cli clean exp/% paper audit export verify dist bench-stats check-kernels
.DEFAULT_GOAL := all
all: deps-check $(EVIDENT)

deps:
	@scripts/deps.sh install
deps-check:
	@scripts/deps.sh check

$(BUILD)/obj/%.o: src/%.c | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libevident.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(EVIDENT): $(BUILD)/obj/cli/main.o $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
	$(EVIDENT) verify --store $(or $(STORE),$(STUDY_STORE))

# --- tests ---------------------------------------------------------------
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libevident.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libevident.a $(LDLIBS) -lcmocka

test-unit: all $(UNIT_BINS)
	@scripts/run-unit-tests.sh $(UNIT_BINS)

# Under ASan, let fatal signals reach the process: the fault fixtures crash
# on purpose, and the runner must see SIGSEGV/SIGABRT, not ASan's exit 1.
# A crash of evident itself still fails its test.
SAN_ENV := $(if $(SAN),ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0:allow_user_segv_handler=1)

test-cli: all
	@$(SAN_ENV) EVIDENT=$(abspath $(EVIDENT)) tests/cli/run.sh

# Checks of the committed repository itself: the store verifies, PAPER.md
# regenerates from it without a diff, every claim in it is supported, and
# every CUDA kernel compiles for sm_80 and sm_90 (where nvcc exists; the
# GPU tests themselves skip without a GPU and say why).
test-repo: all
	$(EVIDENT) verify --quiet --store $(STUDY_STORE)
	$(EVIDENT) paper --check PAPER.md
	$(EVIDENT) audit --strict -q PAPER.md
	@if [ -n "$$EVIDENT_QUICKSTART_INNER" ]; then echo "check-kernels: skipped inside t0040 (the outer make test compiles them)"; \
	elif [ -n "$(NVCC)" ]; then $(MAKE) --no-print-directory check-kernels; \
	else echo "check-kernels: skipped, no nvcc on this machine"; fi

# make test = repository checks, the suites, then the suites under ASan+UBSan.
# Inside t0040 (the Quick start twice in a clone: EVIDENT_QUICKSTART_INNER)
# the sanitized pass, check-kernels and the timed or racing CLI tests
# (tests/cli/lib.sh, outer_only) are left to the outer make test,
# which runs the same code on the same tree.
test: deps-check
	$(MAKE) --no-print-directory test-repo
	$(MAKE) --no-print-directory test-unit test-cli
	@if [ -n "$$EVIDENT_QUICKSTART_INNER" ]; then echo "test: the ASan+UBSan pass is skipped inside t0040 (the outer make test runs it)"; \
	else $(MAKE) --no-print-directory SAN=1 test-unit test-cli; fi

clean:
	rm -rf build build-san bin lib dist

-include mk/*.mk
-include $(OBJS:.o=.d) $(BUILD)/obj/cli/main.d
