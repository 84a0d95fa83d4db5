# perfdata: `make` builds build/perfdata; `make test` runs every test;
# `make demo` runs the tool on a profile shipped in tests/data.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c99 -Wall -Wextra -Wpedantic -Werror
TOOLSRC  = tools/perfdata.c tools/pd_tool.c tools/dump.c tools/pd_file.c tools/info.c tools/bpf_info.c tools/report.c tools/collapse.c tools/flamegraph.c tools/script.c tools/pd_tpfmt.c tools/stat.c tools/pd_state.c tools/pd_sym.c tools/pd_elf.c tools/pd_opts.c tools/pd_filter.c tools/pd_intern.c tools/report_branch.c tools/pd_text.c tools/pd_demangle.c tools/pd_dwarf.c tools/pd_inflate.c tools/pd_unwind.c tools/convert.c tools/convert_swap.c
TOOLHDR  = perfdata.h tools/pd_tool.h tools/pd_file.h tools/pd_regs.h tools/pd_state.h tools/pd_sym.h tools/pd_elf.h tools/pd_opts.h tools/pd_filter.h tools/pd_intern.h tools/report_branch.h tools/pd_text.h tools/pd_info.h tools/pd_demangle.h tools/pd_dwarf.h tools/pd_inflate.h tools/pd_unwind.h
SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all test demo asan clean

all: build/perfdata

build/perfdata: $(TOOLSRC) $(TOOLHDR)
	@mkdir -p build
	$(CC) $(WARN) -D_GNU_SOURCE $(CFLAGS) -pthread -I. -Itools $(TOOLSRC) -o $@

build/asan/perfdata: $(TOOLSRC) $(TOOLHDR)
	@mkdir -p build/asan
	$(CC) $(WARN) -D_GNU_SOURCE -O1 -g $(SAN) -pthread -I. -Itools $(TOOLSRC) -o $@

asan: build/asan/perfdata

test: build/perfdata build/asan/perfdata
	@sh tests/run.sh

demo: build/perfdata
	@echo '$$ build/perfdata report --symdir tests/data tests/data/plain.data'
	@build/perfdata report --symdir tests/data tests/data/plain.data
	@echo '$$ build/perfdata collapse --symdir tests/data tests/data/callchain-fp.data'
	@build/perfdata collapse --symdir tests/data tests/data/callchain-fp.data
	@echo '$$ build/perfdata flamegraph --symdir tests/data tests/data/callchain-fp.data > build/demo.svg   # open it in a browser'
	@build/perfdata flamegraph --symdir tests/data tests/data/callchain-fp.data > build/demo.svg
	@echo
	@echo '$$ build/perfdata script --kallsyms build/tp-kallsyms tests/data/tp-many-g.data | head -16   # kernel symbols of the recording machine'
	@xz -dc tests/data/tp-kallsyms.xz > build/tp-kallsyms
	@build/perfdata script --kallsyms build/tp-kallsyms tests/data/tp-many-g.data | head -16
	@echo
	@echo '$$ build/perfdata info tests/data/callchain-fp.data | head -20'
	@build/perfdata info tests/data/callchain-fp.data | head -20
	@echo
	@echo '$$ build/perfdata dump tests/data/callchain-fp.data | head -24'
	@build/perfdata dump tests/data/callchain-fp.data | head -24

clean:
	rm -rf build

# Fuzzing and cross-architecture targets live in mk/
-include mk/fuzz.mk
-include mk/cross.mk

# Static analysis (cppcheck, clang-tidy, gcc -fanalyzer) and valgrind
# memcheck over the tools; both are also steps of `make test`.
.PHONY: analyze valgrind
analyze:
	@sh tests/analyze.sh
valgrind: build/perfdata
	@sh tests/valgrind.sh build/perfdata

.PHONY: bench
bench: build/perfdata
	python3 bench/bench.py

# docs/reference.md, the API reference, is generated from perfdata.h;
# `make test` fails when it is not current.
.PHONY: reference
reference:
	python3 tests/api_reference.py --write docs/reference.md
