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
#
# Every target runs with -rss_limit_mb=512 -timeout=10: an input that makes
# it slow or greedy is a finding like a crash.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_TARGETS  = file pipe features ordered elf zstd compressed info
FUZZ_COMMON   = -g -O1 -fno-sanitize-recover=all -fno-omit-frame-pointer -D_GNU_SOURCE -I. -Itools
FUZZ_HDRS     = perfdata.h fuzz/decode_all.h fuzz/decode_feat.h fuzz/fuzz_main.h
FUZZ_EXTRA_elf = tools/pd_elf.c
# fuzz_info runs the info command's own printing over a session in memory
FUZZ_EXTRA_info = tools/info.c tools/bpf_info.c tools/pd_text.c tools/pd_tool.c tools/pd_file.c tools/pd_opts.c
FUZZ_DEPS_info  = $(FUZZ_EXTRA_info) tools/pd_info.h tools/pd_tool.h tools/pd_file.h tools/pd_opts.h tools/pd_text.h

FUZZ_BINS   = $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
REPLAY_BINS = $(patsubst %,build/fuzz/replay_%,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-replay fuzz-seeds

build/fuzz/fuzz_%: fuzz/fuzz_%.c $(FUZZ_HDRS) tools/pd_elf.c tools/pd_elf.h
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_COMMON) -fsanitize=fuzzer,address,undefined -DPD_FUZZ_LIBFUZZER $< $(FUZZ_EXTRA_$*) -o $@

build/fuzz/replay_%: fuzz/fuzz_%.c $(FUZZ_HDRS) tools/pd_elf.c tools/pd_elf.h
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_COMMON) -O0 -fsanitize=address,undefined $< $(FUZZ_EXTRA_$*) -o $@

build/fuzz/fuzz_info build/fuzz/replay_info: $(FUZZ_DEPS_info)

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@sh fuzz/run_fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: $(REPLAY_BINS)
	@sh fuzz/replay.sh $(FUZZ_TARGETS)

fuzz-seeds:
	python3 fuzz/make_seeds.py
