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
#   make fuzz-seeds              regenerate fuzz/corpus/ (python3, gcc)

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_TARGETS  = file pipe features ordered elf zstd compressed tools
FUZZ_COMMON   = -g -O1 -fno-sanitize-recover=all -fno-omit-frame-pointer -D_GNU_SOURCE -I. -Itools
FUZZ_HDRS     = perfdata.h fuzz/decode_all.h fuzz/decode_feat.h fuzz/fuzz_main.h
FUZZ_EXTRA_elf = tools/pd_elf.c
FUZZ_EXTRA_tools = $(filter-out tools/perfdata.c,$(TOOLSRC))

FUZZ_BINS   = $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
REPLAY_BINS = $(patsubst %,build/fuzz/replay_%,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-replay fuzz-seeds

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

fuzz-seeds:
	python3 fuzz/make_seeds.py
