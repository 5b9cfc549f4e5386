# pnsim - Petri-net simulation of a GPU kernel on one streaming multiprocessor.
#
#   make example        install missing Debian packages, build, run the bundled example
#   make check          install missing Debian packages, build, run the tests (< 1 min)
#   make check-full     the longer statistical suites
#   make bench          benchmarks (wall time, steps/s, firings/s)
#   make docs           rewrite the outputs README.md and doc/ show as real
#   make golden         rewrite the golden files; a change needs its line in tests/golden/CHANGES
#   make SANITIZE=address,undefined check     the same under ASan/UBSan
#   make valgrind       unit tests and CLI cases under valgrind memcheck
#   make fuzz FUZZ_SECONDS=N   build the libFuzzer targets (clang) and run each N s
#   make install PREFIX=/usr/local DESTDIR=    pnsim, its device profiles, pnsim(1)
#   make uninstall PREFIX=/usr/local DESTDIR=  removes exactly what install put
#
# build/pnsim reads the profiles of this tree (models/devices); the installed
# pnsim reads $(PREFIX)/share/pnsim/devices: install relinks the built objects
# with models/device/pn_device.c compiled for that folder ($(BUILD)/install/).
#
# Internal invariants (no negative marking, conserved scheduler tokens) are
# assert()s, kept in every build unless CFLAGS has -DNDEBUG (make bench sets it).

# ---- user settings ---------------------------------------------------------
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
OPT      ?= -O2 -g
SANITIZE ?=
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

# ---- derived ---------------------------------------------------------------
PKGS    := yaml-0.1 igraph libmatheval gsl libxml-2.0
TESTPKG := cmocka
ifeq ($(SANITIZE),)
BUILD   ?= build
SANFLAGS :=
else
BUILD   ?= build/san
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
DATADIR ?= $(CURDIR)/models/devices

WARN     := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
# Each folder sees only the headers of the layers at or below it
# (pnet < sim < models < calib, study < cli), so a forbidden include fails.
# models/ is a row of wings, each seeing itself and the wings before it in
# MODEL_WINGS (common < occupancy < paper < program < pipelined < device < sass),
# with the config layer (models/config) last, above every wing: a new wing
# joins by one word in MODEL_WINGS, before config.
MODEL_WINGS := common occupancy paper program pipelined device sass config
INC_pnet   := -Ipnet
INC_sim    := $(INC_pnet) -Isim
_inc       := $(INC_sim)
$(foreach w,$(MODEL_WINGS),$(eval _inc += -Imodels/$(w))$(eval INC_models_$(w) := $(_inc)))
INC_models := $(INC_models_config)
INC_calib  := $(INC_models) -Icalib
INC_study  := $(INC_models) -Istudy
INC_cli    := $(INC_models) -Icalib -Istudy -Icli
INC_tests  := $(INC_cli) -Itests
# models/<wing>/x.c takes INC_models_<wing>; any other folder INC_<top folder>
INCLUDES    = $(or $(INC_$(subst /,_,$(patsubst %/,%,$(dir $<)))),$(INC_$(firstword $(subst /, ,$<))))
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lm -lpthread
TEST_CFLAGS = $(shell pkg-config --cflags $(TESTPKG))
TEST_LIBS   = $(shell pkg-config --libs $(TESTPKG))
ALL_CFLAGS = $(WARN) $(OPT) $(SANFLAGS) -D_POSIX_C_SOURCE=200809L $(INCLUDES) \
             -DPN_VERSION=\"$(VERSION)\" -DPN_DEVICE_DIR_DEFAULT=\"$(DATADIR)\" \
             $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

LIB_SRC  := $(wildcard pnet/*.c) $(wildcard sim/*.c) $(foreach w,$(MODEL_WINGS),$(wildcard models/$(w)/*.c)) \
            $(wildcard calib/*.c) $(wildcard study/*.c)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
BENCH_SRC := $(wildcard tests/bench_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_BIN := $(BENCH_SRC:tests/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libpnsim.a
PNSIM    := $(BUILD)/pnsim

.SECONDARY:

.PHONY: all deps example check check-run check-full bench valgrind install uninstall clean docs golden FORCE

all: $(PNSIM)

deps:
	@sh .ci/deps

example: deps
	@$(MAKE) --no-print-directory all
	$(PNSIM) run configs/example.yaml

check: deps
	@$(MAKE) --no-print-directory check-run

check-run: $(PNSIM) $(TEST_BIN) fuzz-replay
	@PNSIM=$(PNSIM) BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run_all.sh $(TEST_BIN)

# the long suites: ten times the statistical runs, configs on the literal
# engine with its slow points, then the mutation check (tests/mutation/)
check-full: deps
	@$(MAKE) --no-print-directory $(PNSIM) $(TEST_BIN) fuzz-replay
	@PNSIM=$(PNSIM) BUILD=$(BUILD) SANITIZE=$(SANITIZE) PN_FULL=1 PN_ENGINE=literal sh tests/run_all.sh $(TEST_BIN)
	@sh tests/mutation/mutate.sh

# rewrite the golden files from their commands; prints the lines a changed
# one needs in tests/golden/CHANGES (tests/golden.sh checks them)
golden: $(PNSIM)
	PNSIM=$(PNSIM) sh tests/golden/regen.sh

# rewrite the outputs README.md and doc/*.md show as real (tests/docs.sh checks them)
docs: $(PNSIM)
	PNSIM=$(PNSIM) python3 tests/lib/doc_outputs.py --write README.md doc/*.md

bench: deps
	@$(MAKE) --no-print-directory OPT="-O3 -march=native -g -DNDEBUG" BUILD=build/bench build/bench/tests/bench_engine build/bench/tests/bench_pipe build/bench/tests/bench_sass build/bench/pnsim
	build/bench/tests/bench_engine
	build/bench/tests/bench_pipe
	build/bench/tests/bench_sass

valgrind: $(PNSIM) $(TEST_BIN) fuzz-replay
	@PNSIM=$(PNSIM) BUILD=$(BUILD) SANITIZE=$(SANITIZE) PN_VALGRIND=1 sh tests/run_all.sh $(TEST_BIN)

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(PNSIM): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(PKG_LIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(TEST_LIBS)

# ---- install ---------------------------------------------------------------
BINDIR     = $(PREFIX)/bin
PROFILEDIR = $(PREFIX)/share/pnsim/devices
MAN1DIR    = $(PREFIX)/share/man/man1
PROFILES  := $(notdir $(wildcard models/devices/*.yaml))

# always rebuilt: PREFIX may differ from the last install
$(BUILD)/install/pnsim: $(CLI_OBJ) $(LIB) FORCE
	@mkdir -p $(@D)
	$(CC) $(WARN) $(OPT) $(SANFLAGS) -D_POSIX_C_SOURCE=200809L $(INC_models) \
	    -DPN_DEVICE_DIR_DEFAULT=\"$(PROFILEDIR)\" $(PKG_CFLAGS) $(CFLAGS) \
	    -c -o $(@D)/pn_device.o models/device/pn_device.c
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(@D)/pn_device.o $(LIB) $(PKG_LIBS)

install: $(BUILD)/install/pnsim
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(MAN1DIR)
	install -m 755 $(BUILD)/install/pnsim $(DESTDIR)$(BINDIR)/pnsim
	install -m 644 $(addprefix models/devices/,$(PROFILES)) $(DESTDIR)$(PROFILEDIR)/
	install -m 644 doc/pnsim.1 $(DESTDIR)$(MAN1DIR)/pnsim.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pnsim $(DESTDIR)$(MAN1DIR)/pnsim.1
	rm -f $(addprefix $(DESTDIR)$(PROFILEDIR)/,$(PROFILES))
	rmdir $(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(PREFIX)/share/pnsim 2>/dev/null || true

FORCE:

clean:
	rm -rf build

# ---- fuzzing ---------------------------------------------------------------
# One libFuzzer target per reader: tests/fuzz/fuzz_<parser>.c. `make check`
# replays their seed corpora (tests/fuzz/corpus/<target>/) and crash
# reproducers (tests/fuzz/crashes/<target>/) through the plain driver
# tests/fuzz/replay.c, built by $(CC) like the tests (no clang needed).
# `make fuzz` installs clang and libFuzzer when missing (.ci/deps-fuzz),
# builds the targets into build/libfuzzer with ASan and UBSan, and runs each
# for FUZZ_SECONDS on FUZZ_JOBS processes (tests/fuzz/run.sh); the grown
# corpora and any crash go under build/libfuzzer/.
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_CC      ?= clang
FUZZ_SRC    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES  := $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_COMMON := $(BUILD)/obj/tests/fuzz/common.o
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(BUILD)/fuzz-replay/%)
FUZZ_BIN    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

.PHONY: fuzz fuzz-deps fuzz-build fuzz-replay

$(BUILD)/fuzz-replay/%: $(BUILD)/obj/tests/fuzz/%.o $(BUILD)/obj/tests/fuzz/replay.o \
                        $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.o $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

fuzz-deps:
	@sh .ci/deps-fuzz

fuzz-build: $(FUZZ_BIN)

fuzz-replay: $(FUZZ_REPLAY)

fuzz: deps fuzz-deps
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=build/libfuzzer \
	    SANITIZE=fuzzer-no-link,address,undefined fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh tests/fuzz/run.sh build/libfuzzer

-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d $(BUILD)/obj/*/*/*/*.d)
