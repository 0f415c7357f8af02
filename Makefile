# Thin wrapper around CMake: the README's commands live here.
#   make        build everything into build/ (binaries in build/bin/)
#   make demo   instrument and simulate the Jacobi example, print the report
#   make check  run every test (lit + GoogleTest)
#   make fuzz   run the fuzzers for FUZZ_SECONDS seconds in all (default 60)
BUILD_DIR ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60

.PHONY: all deps configure build demo check fuzz clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: | deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@cmake --build $(BUILD_DIR) --target demo

check: build
	@cmake --build $(BUILD_DIR) --target check

fuzz: build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) cmake --build $(BUILD_DIR) --target fuzz

clean:
	rm -rf $(BUILD_DIR)
