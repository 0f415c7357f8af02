# Thin wrapper around CMake: the README's commands live here.
#   make        build everything into build/ (binaries in build/bin/)
#   make demo   instrument and simulate the Jacobi example, print the report
#   make check  run every test (lit + GoogleTest), then again in the sanitizer build
#   make check-fast  only build/ and its tests
#   make check-sanitize  build into build-sanitize/ with ASan + UBSan and run every test
#   make fuzz   run the fuzzers for FUZZ_SECONDS seconds in all (default 60)
BUILD_DIR ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
SANITIZE_BUILD_DIR ?= build-sanitize

.PHONY: all deps configure build demo check check-fast check-sanitize fuzz clean

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

check: check-fast check-sanitize

check-fast: build
	@cmake --build $(BUILD_DIR) --target check

$(SANITIZE_BUILD_DIR)/build.ninja: | deps
	@cmake -S . -B $(SANITIZE_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DORRERY_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null

check-sanitize: deps $(SANITIZE_BUILD_DIR)/build.ninja
	@cmake --build $(SANITIZE_BUILD_DIR) -j $(JOBS)
	@cmake --build $(SANITIZE_BUILD_DIR) --target check

fuzz: build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) cmake --build $(BUILD_DIR) --target fuzz

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR)
