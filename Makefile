# mdsim - one entry point: make, make run, make test, make test-gpu, make bench,
# make deps. `make` alone only builds build/mdsim.
#
#   CUDA=0        build without the GPU backend even when nvcc is present
#   MARCH=...     -march for host code (default native; x86-64-v3 for portable)
#   SANITIZE=1    AddressSanitizer + UBSan build (in build-asan/)
#   TEST_SKIP=... what make test leaves out: test programs (test_x) and
#                 scripts (x_test.sh)
#   CUDA_ARCH=... nvcc -gencode flags

SHELL    := /bin/bash
NVCC     ?= $(shell command -v nvcc 2>/dev/null)
CUDA     ?= $(if $(NVCC),1,0)
MARCH    ?= native
SANITIZE ?= 0
BUILD    ?= $(if $(filter 1,$(SANITIZE)),build-asan,build)

DEB_PKGS := build-essential pkg-config libhdf5-dev libsdl2-dev libinih-dev check \
            python3-mdanalysis python3-h5py python3-matplotlib \
            libpng-dev zlib1g-dev xvfb xdotool imagemagick

PKGS     := inih hdf5 sdl2 libpng
CC       ?= gcc
CFLAGS   ?= -O3 -march=$(MARCH) -fno-math-errno
CFLAGS   += -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fopenmp -g
LDLIBS   := -lm -lpthread
ifeq ($(SANITIZE),1)
CFLAGS   := -O1 -g -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fopenmp \
            -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
CUDA     := 0
# The live-window tests load SDL2's system libraries (D-Bus, X11, crypto),
# some dlopen()ed and unloaded before exit: LeakSanitizer cannot tell their
# leaks from ours (no module name is left), so those tests run without leak
# detection; memory errors are still caught.
NOLEAK_TESTS := $(wildcard tests/viz*_test.sh)
endif

# pkg-config is only asked once the packages are there (make deps first)
PC_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PC_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

ENGINE_SRC := $(filter-out engine/main.c engine/gpu_none.c,$(wildcard engine/*.c)) \
              $(wildcard viz/*.c)
ENGINE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(ENGINE_SRC))
HEADERS    := $(wildcard engine/*.h kernels/*.h viz/*.h)

ifeq ($(CUDA),1)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 \
             -gencode arch=compute_90,code=compute_90
NVFLAGS   ?= -O3 -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-fopenmp -lineinfo
# NCU=1: the profiling build (GPU_SET_COND in kernels/gpu_common.cuh), whose
# step graphs Nsight Compute can profile kernel by kernel
ifeq ($(NCU),1)
NVFLAGS   += -DMDSIM_NCU
endif
CU_SRC    := $(wildcard kernels/*.cu)
GPU_OBJ   := $(patsubst %.cu,$(BUILD)/%.o,$(CU_SRC))
GPU_LIBS  := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
else
GPU_OBJ   := $(BUILD)/engine/gpu_none.o
GPU_LIBS  :=
endif

.PHONY: all deps run test test-gpu bench bench-scaling clean tests validate fuzz valgrind
all: $(BUILD)/mdsim

# --- packages -------------------------------------------------------------
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "make deps: installing$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "make deps: missing packages. Run as root:"; \
	    echo "  apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# --- build ----------------------------------------------------------------
$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PC_CFLAGS) -c $< -o $@

$(BUILD)/kernels/%.o: kernels/%.cu $(HEADERS) $(wildcard kernels/*.cuh)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

# the stamp makes a switch between CUDA=0 and CUDA=1 rebuild the archive
$(BUILD)/.cuda-$(CUDA):
	@mkdir -p $(BUILD) && rm -f $(BUILD)/.cuda-* && touch $@

$(BUILD)/libmdsim.a: $(ENGINE_OBJ) $(GPU_OBJ) $(BUILD)/.cuda-$(CUDA)
	rm -f $@ && ar rcs $@ $(ENGINE_OBJ) $(GPU_OBJ)

$(BUILD)/mdsim: $(BUILD)/engine/main.o $(BUILD)/libmdsim.a
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(PC_LIBS) $(GPU_LIBS) $(LDLIBS)

# --- run and tests --------------------------------------------------------
run: deps
	$(MAKE) all
	./$(BUILD)/mdsim configs/lj.ini

# Each tests/test_*.c (CPU) and tests/gpu_*.c (GPU; skips without a GPU) is
# its own Check program; tests/*_test.sh are end-to-end scripts.
TEST_SKIP ?=
TEST_BINS := $(filter-out $(addprefix $(BUILD)/tests/,$(TEST_SKIP)),\
             $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c tests/gpu_*.c)))
GPU_BINS  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/gpu_*.c))
TEST_SCRIPTS := $(filter-out $(addprefix tests/,$(TEST_SKIP)),$(wildcard tests/*_test.sh))

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(HEADERS) $(BUILD)/libmdsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PC_CFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) $< $(BUILD)/libmdsim.a -o $@ \
	  $(CHECK_LIBS) $(PC_LIBS) $(GPU_LIBS) $(LDLIBS)

# The fuzz harnesses (tests/fuzz/) built with a main that replays their
# kept corpus: every input the fuzzer found stays harmless.
FUZZ_REPLAY := $(BUILD)/tests/replay_config $(BUILD)/tests/replay_restart \
               $(BUILD)/tests/replay_xyz

$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(HEADERS) $(BUILD)/libmdsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PC_CFLAGS) $(LDFLAGS) -DREPLAY_DIR='"tests/fuzz/corpus_$*"' \
	  tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(BUILD)/libmdsim.a -o $@ \
	  $(PC_LIBS) $(GPU_LIBS) $(LDLIBS)

tests: $(BUILD)/mdsim $(TEST_BINS) $(FUZZ_REPLAY)

# Check's per-test time limits, scaled for the sanitized build (3 to 5
# times slower: test_mixture's unequal_masses reached its 120 s limit
# under ASan on 2 cores; the five tests of test_mixture took 133 s)
CK_SCALE := $(if $(filter 1,$(SANITIZE)),CK_TIMEOUT_MULTIPLIER=4)

test: deps
	$(MAKE) tests
	$(CK_SCALE) BUILD=$(BUILD) bash tests/run_all.sh $(TEST_BINS) $(FUZZ_REPLAY) \
	  $(filter-out $(NOLEAK_TESTS),$(TEST_SCRIPTS))
	$(if $(filter $(NOLEAK_TESTS),$(TEST_SCRIPTS)),ASAN_OPTIONS=detect_leaks=0 \
	  BUILD=$(BUILD) bash tests/run_all.sh $(filter $(NOLEAK_TESTS),$(TEST_SCRIPTS)))

# GPU suites only (on the GPU machine; they skip cleanly without a GPU):
# tests/gpu_*.c and tests/gpu_*_test.sh (the blow-up test)
test-gpu: $(BUILD)/mdsim $(GPU_BINS)
	BUILD=$(BUILD) bash tests/run_all.sh $(GPU_BINS) $(wildcard tests/gpu_*_test.sh)

# the published equation-of-state point (NIST SRSW LJ, T* 0.85, rho* 0.776)
validate: $(BUILD)/tests/test_nist_eos
	./$(BUILD)/tests/test_nist_eos

# steps/s from 4k to 64M particles on the GPU (bench/scaling.sh): the CSV,
# the log and the plot against gamdpy in $(BUILD)/
bench-scaling: $(BUILD)/mdsim
	bash bench/scaling.sh ./$(BUILD)/mdsim $(BUILD)

# every force strategy on bench_lj.ini (32,000 particles): table, CSV, chart
bench: $(BUILD)/mdsim
	./$(BUILD)/mdsim configs/bench_lj.ini --bench --steps 1000 --csv $(BUILD)/bench.csv
	-/usr/bin/python3 tools/plot_bench.py $(BUILD)/bench.csv -o $(BUILD)/bench.png

# --- fuzzing and valgrind (tests/fuzz/README.md, docs/reliability.md) -------
# make fuzz [FUZZ_TIME=seconds per harness]: libFuzzer (clang) on the config
# reader and the restart reader, then the corpus is minimised into
# tests/fuzz/corpus_*/. make valgrind: memcheck of short end-to-end runs.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 600
FUZZ_FLAGS := -g -O1 -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_SRC_config  := tests/fuzz/fuzz_config.c engine/config.c
FUZZ_SRC_restart := tests/fuzz/fuzz_restart.c engine/h5md.c engine/setup.c engine/xyz.c engine/config.c
FUZZ_SRC_xyz     := tests/fuzz/fuzz_xyz.c engine/xyz.c engine/setup.c engine/config.c

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c engine/config.c engine/h5md.c engine/setup.c engine/xyz.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PC_CFLAGS) $(FUZZ_SRC_$*) -o $@ $(PC_LIBS) -lm

fuzz: build-fuzz/fuzz_config build-fuzz/fuzz_restart build-fuzz/fuzz_xyz
	bash tests/fuzz/run.sh $(FUZZ_TIME) config restart xyz

# valgrind 3.19 knows no AVX-512: its own build for AVX2 CPUs, CPU only
valgrind:
	$(MAKE) BUILD=build-vg MARCH=x86-64-v3 CUDA=0 SANITIZE=0 build-vg/mdsim
	MDSIM=./build-vg/mdsim bash tests/valgrind_check.sh

clean:
	rm -rf build build-asan build-fuzz build-vg
