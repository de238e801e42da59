# marubatsu: build, test, benchmark, install.
#   make            library, program (build/marubatsu), after installing missing packages
#   make run        build and start the program: the REPL (make run ARGS='show A1,B2')
#   make test       every test, then again under ASan+UBSan; ends "N passed, N failed"
#   make bench      speed tables (release build)
#   make debug      -O0 -g with sanitizers and invariant checks, in build/debug
#   make fuzz       libFuzzer over the text parsers for FUZZ_SECONDS (default 30)
#   make mutate     apply each slip of tests/mutants/ and check a test catches it
#   make test-slurm the README's Slurm job array on a single-node Slurm of its own
#                   (installs slurm-wlm and munge when missing; .ci/run runs it)
#   make format     rewrite the C files in the shape of .clang-format (make test checks it)
#   make install    PREFIX=/usr/local DESTDIR=  (program, library, headers, marubatsu.pc,
#                   the Jupyter kernel and its kernelspec)
#   make clean
VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=

CC       ?= cc
CSTD     := -std=c11
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wpointer-arith -Wvla
# the CPU's popcount instruction when the build machine has one (the
# line scans of mark patterns count bits)
HOST_ISA := $(shell grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo -mpopcnt)
OPT      := -O2 -DNDEBUG $(HOST_ISA)
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
DEFS     := -D_POSIX_C_SOURCE=200809L -DMB_VERSION='"$(VERSION)"'
# Lua 5.4 through pkg-config (deferred: pkg-config may be installed by `deps`)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4)
LUA_LIBS   = $(shell pkg-config --libs lua5.4)
# The release program links Debian's static liblua5.4.a (same package):
# calls into Lua skip the shared library's PLT and position-independent
# code, 6-10% faster matches of Lua AIs (README, "Dependencies"). -Wl,-E
# exports the Lua API, as Debian's own lua5.4 does, for C modules (lpeg,
# lfs) that a trusted script requires. marubatsu.so and the sanitizer
# builds keep the shared library.
LUA_PROG_LIBS = -Wl,-E $(shell pkg-config --variable=libdir lua5.4)/liblua5.4.a -ldl
EDIT_LIBS  = $(shell pkg-config --libs libedit)
# libmicrohttpd for `marubatsu serve` (the program only)
MHD_LIBS   = $(shell pkg-config --libs libmicrohttpd)
CPPFLAGS  = -Iinclude -Isrc -Isrc/lua -Ibuild/gen $(LUA_CFLAGS) $(DEFS)
# the engine (src/*.c) sees neither Lua nor the binding nor the CLI: an
# include of one fails to compile (tests/source/include_cycles.lua checks
# the same from the text, for the headers too)
ENGINE_CPPFLAGS = -Iinclude -Isrc $(DEFS)
DEPFLAGS  = -MMD -MP

# Debian packages the build and the tests need (checked with dpkg-query).
PACKAGES := gcc make pkg-config clang-format liblua5.4-dev lua5.4 lua-busted lua-dkjson libedit-dev tmux libxml2-utils graphviz
# the Lua lint of make test (tests/source/lua_check.sh, .luacheckrc)
PACKAGES += lua-check
# clang and its libFuzzer runtime (libclang_rt.fuzzer) for the fuzz target
PACKAGES += clang libclang-rt-14-dev
# `marubatsu serve` (libmicrohttpd) and its browser tests (Debian's chromium;
# nodejs and npm only where no npm is installed: see deps)
PACKAGES += libmicrohttpd-dev chromium
# the Jupyter kernel (src/jupyter/) and its tests: ipykernel's wrapper-kernel
# base, the client library, nbclient to run notebooks, nbconvert for HTML
PACKAGES += python3-ipykernel jupyter-client python3-nbclient jupyter-nbconvert
# the mutants (tests/mutants/): make mutate applies them, make test checks
# that they still apply
PACKAGES += patch

LIB_SRC  := $(sort $(wildcard src/*.c))
# the Lua binding: in the program, and (without the host) in marubatsu.so
HOST_SRC := src/lua/l_host.c src/lua/l_repl.c src/lua/l_serve.c
BIND_SRC := $(sort $(filter-out $(HOST_SRC),$(wildcard src/lua/l_*.c))) build/gen/embedded.c
CLI_SRC  := $(sort $(wildcard src/cli/*.c)) $(HOST_SRC) $(BIND_SRC)
SCRIPTS  := $(sort $(wildcard scripts/*.lua scripts/lib/*.lua)) docs/lua-api.md
# the browser front end's files (web/NAME in the binary)
SCRIPTS  += $(sort $(wildcard web/*.html web/*.css web/*.js web/*.svg))
TEST_SRC := $(sort $(wildcard tests/c/*.c))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))

# One tree of objects per flavour: release (build/), sanitized (build/asan),
# debug (build/debug).
objs = $(patsubst %.c,$(1)/obj/%.o,$(2))

REL := build
ASAN := build/asan
DBG := build/debug

.PHONY: all run test test-release format mutate test-asan bench debug install uninstall clean deps
all: deps $(REL)/libmarubatsu.a $(REL)/marubatsu $(REL)/marubatsu.so

# ---- packages -------------------------------------------------------------
# Installs what is missing when run as root, else prints the command.
deps: build/.deps-ok
build/.deps-ok: Makefile
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	command -v npm >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing || exit 1; \
	  else \
	    echo "missing packages; run:  sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
	@mkdir -p build && touch $@

# ---- the scripts carried inside the binaries ------------------------------
build/gen/embedded.c: $(SCRIPTS) src/lua/embed.sh
	@mkdir -p $(dir $@)
	@echo "  EMBED   scripts/"
	@sh src/lua/embed.sh scripts $(SCRIPTS) > $@.tmp && mv $@.tmp $@

# objects of the generated file live beside the others
$(REL)/obj/build/gen/%.o $(ASAN)/obj/build/gen/%.o $(DBG)/obj/build/gen/%.o $(PIC)/obj/build/gen/%.o: build/gen/embedded.c

# ---- release --------------------------------------------------------------
$(REL)/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CSTD) $(WARN) $(OPT) $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

$(REL)/libmarubatsu.a: $(call objs,$(REL),$(LIB_SRC))
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(REL)/marubatsu: $(call objs,$(REL),$(CLI_SRC)) $(REL)/libmarubatsu.a
	@echo "  LINK    $@"
	@$(CC) $(OPT) -o $@ $^ $(LUA_PROG_LIBS) $(EDIT_LIBS) $(MHD_LIBS) -lm

# ---- marubatsu.so for stock lua5.4 (position-independent objects) ---------
PIC := build/pic
$(PIC)/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC pic  $<"
	@$(CC) $(CSTD) $(WARN) $(OPT) -fPIC -fvisibility=hidden $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

$(REL)/marubatsu.so: $(call objs,$(PIC),$(LIB_SRC) $(BIND_SRC))
	@echo "  LINK    $@"
	@$(CC) -shared -o $@ $^ -lm

$(REL)/test_engine: $(call objs,$(REL),$(TEST_SRC) $(BIND_SRC)) $(REL)/libmarubatsu.a
	@echo "  LINK    $@"
	@$(CC) $(OPT) -o $@ $^ $(LUA_LIBS) -lm

$(REL)/bench: $(call objs,$(REL),$(BENCH_SRC)) $(REL)/libmarubatsu.a
	@echo "  LINK    $@"
	@$(CC) $(OPT) -o $@ $^ -lm

# ---- sanitized (the second test pass) -------------------------------------
$(ASAN)/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC asan $<"
	@$(CC) $(CSTD) $(WARN) -O1 -g $(SANITIZE) -DMB_CHECK_INVARIANTS $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

$(ASAN)/libmarubatsu.a: $(call objs,$(ASAN),$(LIB_SRC))
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $^

$(ASAN)/marubatsu: $(call objs,$(ASAN),$(CLI_SRC)) $(ASAN)/libmarubatsu.a
	@echo "  LINK    $@"
	@$(CC) $(SANITIZE) -o $@ $^ $(LUA_LIBS) $(EDIT_LIBS) $(MHD_LIBS) -lm

$(ASAN)/test_engine: $(call objs,$(ASAN),$(TEST_SRC) $(BIND_SRC)) $(ASAN)/libmarubatsu.a
	@echo "  LINK    $@"
	@$(CC) $(SANITIZE) -o $@ $^ $(LUA_LIBS) -lm

# ---- debug ----------------------------------------------------------------
$(DBG)/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC dbg  $<"
	@$(CC) $(CSTD) $(WARN) -O0 -g $(SANITIZE) -DMB_CHECK_INVARIANTS $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

$(DBG)/marubatsu: $(call objs,$(DBG),$(LIB_SRC) $(CLI_SRC))
	@echo "  LINK    $@"
	@$(CC) $(SANITIZE) -o $@ $^ $(LUA_LIBS) $(EDIT_LIBS) $(MHD_LIBS) -lm

$(DBG)/test_engine: $(call objs,$(DBG),$(LIB_SRC) $(TEST_SRC) $(BIND_SRC))
	@echo "  LINK    $@"
	@$(CC) $(SANITIZE) -o $@ $^ $(LUA_LIBS) -lm

debug: deps $(DBG)/marubatsu $(DBG)/test_engine

# ---- fuzzing: libFuzzer over the text parsers (tests/fuzz/) ---------------
# `make fuzz` builds build/fuzz/fuzz_parsers and runs it for FUZZ_SECONDS on
# a copy of tests/fuzz/corpus; `make test` runs it as one more suite.
FUZZ := build/fuzz
FUZZ_CC := clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SECONDS ?= 30
$(FUZZ)/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC fuzz $<"
	@$(FUZZ_CC) $(CSTD) $(WARN) -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

# every flavour compiles the engine with ENGINE_CPPFLAGS
$(foreach d,$(REL) $(ASAN) $(DBG) $(PIC) $(FUZZ),$(call objs,$(d),$(LIB_SRC))): CPPFLAGS = $(ENGINE_CPPFLAGS)

$(FUZZ)/fuzz_parsers: $(call objs,$(FUZZ),tests/fuzz/fuzz_parsers.c $(LIB_SRC) $(BIND_SRC))
	@echo "  LINK    $@"
	@$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LUA_LIBS) -lm

.PHONY: fuzz
fuzz: deps $(FUZZ)/fuzz_parsers
	@MB_FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ)/fuzz_parsers

test: $(FUZZ)/fuzz_parsers

# ---- one shape for the C files (.clang-format; tests/source/format.sh) ------
format: deps
	clang-format -i $$(git ls-files 'src/*.[ch]' 'include/*.h' 'tests/*.[ch]')

# ---- mutants: each slip of tests/mutants/*.patch must fail a test ---------
mutate: deps
	sh tests/mutants/run.sh

# ---- use ------------------------------------------------------------------
ARGS ?=
run: all
	./$(REL)/marubatsu $(ARGS)

test: deps $(REL)/marubatsu $(REL)/marubatsu.so $(REL)/test_engine $(ASAN)/marubatsu $(ASAN)/test_engine
	@sh tests/run.sh

# ---- the Slurm test: a real single-node cluster (tests/slurm/) -------------
# Its packages are not in PACKAGES: `make` alone puts no cluster daemons
# on a machine. Installed here when missing (root, without the
# recommended plugins: the basic ones are all it uses); where they cannot
# be, the test says it skipped ("N passed, N failed, 1 skipped").
SLURM_PACKAGES := slurm-wlm munge
.PHONY: test-slurm deps-slurm
deps-slurm:
	@missing=""; for p in $(SLURM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; } || \
	      echo "deps-slurm: could not install$$missing: the Slurm test will skip"; \
	  else \
	    echo "deps-slurm: missing$$missing (sudo apt-get install -y$$missing): the Slurm test will skip"; \
	  fi; \
	fi

test-slurm: deps deps-slurm $(REL)/marubatsu
	@sh tests/slurm/run.sh $(REL)/marubatsu

bench: deps $(REL)/bench $(REL)/marubatsu
	./$(REL)/bench
	@echo
	./$(REL)/marubatsu run tests/bench/matches.lua
	@echo
	./$(REL)/marubatsu run tests/bench/series.lua
	@echo
	sh tests/bench/startup.sh ./$(REL)/marubatsu
	@echo
	sh tests/bench/solve.sh ./$(REL)/marubatsu
	@echo
	sh tests/bench/tournament.sh ./$(REL)/marubatsu
	@echo
	./$(REL)/marubatsu run tests/bench/sandbox.lua
	@echo
	./$(REL)/marubatsu run tests/bench/timecontrol.lua
	@echo
	node tests/bench/serve.mjs ./$(REL)/marubatsu
	./$(REL)/marubatsu run tests/bench/mcts.lua
	@echo
	./$(REL)/marubatsu run tests/bench/features.lua
	@echo
	./$(REL)/marubatsu run tests/bench/brain.lua ./$(REL)/marubatsu mcts 1000

# ---- install --------------------------------------------------------------
HEADERS := $(sort $(wildcard include/*.h))
BINDIR  := $(PREFIX)/bin
LIBDIR  := $(PREFIX)/lib
INCDIR  := $(PREFIX)/include/marubatsu
PCDIR   := $(LIBDIR)/pkgconfig

LUACDIR := $(LIBDIR)/lua/5.4
LUADIR  := $(PREFIX)/share/lua/5.4/marubatsu
MANDIR  := $(PREFIX)/share/man/man1
COMPDIR := $(PREFIX)/share/bash-completion/completions
# the Jupyter kernel: its files, and its kernelspec where Jupyter looks
KERNELDIR := $(PREFIX)/share/marubatsu/jupyter
SPECDIR   := $(PREFIX)/share/jupyter/kernels/marubatsu
PYTHON3   ?= /usr/bin/python3

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR) \
	  $(DESTDIR)$(LUACDIR) $(DESTDIR)$(LUADIR)/lib $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 644 docs/marubatsu.1 $(DESTDIR)$(MANDIR)/marubatsu.1
	$(REL)/marubatsu --completion > $(DESTDIR)$(COMPDIR)/marubatsu
	install -m 755 $(REL)/marubatsu $(DESTDIR)$(BINDIR)/marubatsu
	install -m 755 $(REL)/marubatsu.so $(DESTDIR)$(LUACDIR)/marubatsu.so
	install -m 644 $(wildcard scripts/*.lua) $(DESTDIR)$(LUADIR)/
	install -m 644 $(wildcard scripts/lib/*.lua) $(DESTDIR)$(LUADIR)/lib/
	install -m 644 $(REL)/libmarubatsu.a $(DESTDIR)$(LIBDIR)/libmarubatsu.a
	install -m 644 $(HEADERS) $(DESTDIR)$(INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' marubatsu.pc.in \
	  > $(DESTDIR)$(PCDIR)/marubatsu.pc
	install -d $(DESTDIR)$(KERNELDIR)
	install -m 644 src/jupyter/marubatsu_kernel.py src/jupyter/driver.lua src/jupyter/svg.html.j2 \
	  $(DESTDIR)$(KERNELDIR)/
	sh src/jupyter/kernelspec.sh $(DESTDIR)$(SPECDIR) $(KERNELDIR) $(BINDIR)/marubatsu $(PYTHON3)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/marubatsu $(DESTDIR)$(LIBDIR)/libmarubatsu.a \
	  $(DESTDIR)$(PCDIR)/marubatsu.pc $(DESTDIR)$(LUACDIR)/marubatsu.so \
	  $(DESTDIR)$(MANDIR)/marubatsu.1 $(DESTDIR)$(COMPDIR)/marubatsu
	rm -rf $(DESTDIR)$(INCDIR) $(DESTDIR)$(LUADIR) $(DESTDIR)$(KERNELDIR) $(DESTDIR)$(SPECDIR)
	-rmdir $(DESTDIR)$(PREFIX)/share/marubatsu 2>/dev/null

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
