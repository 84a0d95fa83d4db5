# mk/fuzz.mk - included by the Makefile; the fuzzing targets.
#
# Fuzzing. Needs clang with libFuzzer.
#   make fuzz [FUZZ_SECONDS=60]  build every libFuzzer target into build/fuzz/ and
#                                run each for FUZZ_SECONDS with fuzz/perfdata.dict
#                                on a scratch copy of its seeds (fuzz/corpus/<target>);
#                                fails if any finds a crash, leak, UB or timeout
#                                (reproducers: build/fuzz/crash-<target>-*)
#   make fuzz-replay             build the targets without libFuzzer (ASan+UBSan) and
#                                run them over fuzz/corpus/* and tests/hostile/*;
#                                fast, ends with "N passed, N failed"
#   make fuzz-replay-i386        the same replay through an i386 build (gcc -m32,
#                                strict warnings; libc6-dev-i386 lib32gcc-12-dev).
#                                tests/cross/i386_runner.sh picks how it runs:
#                                natively, or where the kernel cannot run i386
#                                programs under qemu-i386 (qemu-user); with
#                                ASan+UBSan where ASan works there (under qemu
#                                without LeakSanitizer), else UBSan only. The
#                                first line says which. PD_I386_RUNNER=native,
#                                qemu or qemu-ubsan forces one. Fails when i386
#                                programs cannot run (`make test` skips it then)
#   make fuzz-seeds              regenerate fuzz/corpus/ (python3, gcc)
#
# Every target runs with -rss_limit_mb=512 -timeout=10: an input that makes
# it slow or greedy is a finding like a crash.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_TARGETS  = file pipe features ordered elf zstd compressed tools info stream tracing demangle dwarf unwind
FUZZ_COMMON   = -g -O1 -fno-sanitize-recover=all -fno-omit-frame-pointer -D_GNU_SOURCE -I. -Itools
FUZZ_HDRS     = perfdata.h fuzz/decode_all.h fuzz/decode_feat.h fuzz/fuzz_main.h fuzz/reader_walk.h
FUZZ_EXTRA_elf = tools/pd_elf.c
FUZZ_EXTRA_demangle = tools/pd_demangle.c
FUZZ_EXTRA_dwarf = tools/pd_dwarf.c tools/pd_inflate.c tools/pd_elf.c tools/pd_intern.c
FUZZ_EXTRA_unwind = tools/pd_unwind.c
FUZZ_EXTRA_tools = $(filter-out tools/perfdata.c,$(TOOLSRC))
# fuzz_info runs the info command's own printing over a session in memory
FUZZ_EXTRA_info = tools/info.c tools/bpf_info.c tools/pd_text.c tools/pd_tool.c tools/pd_file.c tools/pd_opts.c tools/pd_intern.c

# as tests/cross/cross.sh builds for i386 (SSE2 doubles; <asm/...> without gcc-multilib)
FUZZ_I386_CC   = gcc -m32 -msse2 -mfpmath=sse -isystem /usr/include/x86_64-linux-gnu
# every tool source, so targets linking more of them via FUZZ_EXTRA_<target> rebuild
FUZZ_I386_DEPS = $(FUZZ_HDRS) $(wildcard tools/*.c tools/*.h)

FUZZ_BINS   = $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
REPLAY_BINS = $(patsubst %,build/fuzz/replay_%,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-replay fuzz-replay-i386 fuzz-seeds

build/fuzz/fuzz_%: fuzz/fuzz_%.c $(FUZZ_HDRS) $(TOOLSRC) $(TOOLHDR)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_COMMON) -fsanitize=fuzzer,address,undefined -DPD_FUZZ_LIBFUZZER $< $(FUZZ_EXTRA_$*) -o $@

build/fuzz/replay_%: fuzz/fuzz_%.c $(FUZZ_HDRS) $(TOOLSRC) $(TOOLHDR)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_COMMON) -O0 -fsanitize=address,undefined $< $(FUZZ_EXTRA_$*) -o $@

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@sh fuzz/run_fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: $(REPLAY_BINS)
	@sh fuzz/replay.sh $(FUZZ_TARGETS)

# the two builds tests/cross/i386_runner.sh may ask for
build/fuzz/i386-asan/replay_%: fuzz/fuzz_%.c $(FUZZ_I386_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_I386_CC) $(WARN) $(FUZZ_COMMON) -O0 -fsanitize=address,undefined $< $(FUZZ_EXTRA_$*) -o $@

build/fuzz/i386-ubsan/replay_%: fuzz/fuzz_%.c $(FUZZ_I386_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_I386_CC) $(WARN) $(FUZZ_COMMON) -O0 -fsanitize=undefined $< $(FUZZ_EXTRA_$*) -o $@

fuzz-replay-i386:
	@r=$$(PD_I386_CC='$(FUZZ_I386_CC)' sh tests/cross/i386_runner.sh) || { echo "fuzz-replay-i386: cannot run i386 programs: $$r"; exit 1; }; \
	set -- $$r; mode=$$1; san=$$2; shift 2; \
	if [ $$san = asan ]; then s="ASan+UBSan"; else s="UBSan only"; fi; \
	if [ $$mode = native ]; then echo "i386 replay: native, $$s"; else echo "i386 replay: under qemu-i386, $$s ($$*)"; fi; \
	$(MAKE) --no-print-directory $(patsubst %,build/fuzz/i386-$$san/replay_%,$(FUZZ_TARGETS)) && \
	sh fuzz/replay.sh --bin build/fuzz/i386-$$san/replay_ --runner "$$*" $(FUZZ_TARGETS)

fuzz-seeds:
	python3 fuzz/make_seeds.py
