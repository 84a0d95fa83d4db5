# mk/cross.mk - included by the Makefile; the cross-architecture targets.
# Toolchains: `sh tests/cross/install.sh` (Debian 12, root).
#   make test-cross   unit tests on s390x and mips (qemu-user) and i386 (-m32)
#   make test-m0      examples/baremetal on a Cortex-M0 (qemu-system-arm microbit)
#                     plus the ARMv6-M `llvm-nm -u` freestanding gate
#   make test-matrix  gcc/clang x C99..C2x, C++11/C++20 x -O0/-O2/-Os, strict warnings
#   make figures      tools/figures.sh (code size, stack, hosts)

.PHONY: test-cross test-m0 test-matrix figures m0-sample-data

test-cross:
	@sh tests/cross/cross.sh

test-m0: build/perfdata
	@sh tests/cross/m0.sh

test-matrix:
	@sh tests/cross/matrix.sh

figures:
	@sh tools/figures.sh

# Regenerates the committed examples/baremetal/sample_data.h.
m0-sample-data:
	python3 examples/baremetal/gen_sample_data.py tests/data/two-events.data > examples/baremetal/sample_data.h
