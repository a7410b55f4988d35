# neardup: near-duplicate detection for the Unix command line.
VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The completion directories the shells search (zsh -f's $fpath, fish's
# $fish_complete_path with XDG_DATA_DIRS unset): Debian's zsh searches
# /usr/share/zsh/vendor-completions and PREFIX/share/zsh/site-functions
# for /usr/local; fish searches nothing under /usr/local, but always its
# system-wide /etc/fish/completions.
ZSHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
FISHCOMPDIR ?= $(if $(filter /usr/local,$(PREFIX)),/etc/fish/completions,$(PREFIX)/share/fish/vendor_completions.d)

PKGS = libbsd-overlay libxxhash libarchive json-c
PKG_CONFIG ?= pkg-config
PKG_CFLAGS != $(PKG_CONFIG) --cflags $(PKGS)
PKG_LIBS != $(PKG_CONFIG) --libs $(PKGS)

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla
ifdef DEBUG
CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
WERROR = -Werror
endif
ifdef CI
WERROR = -Werror
endif
# The engine, in folders by the stage of the pipeline each serves (see
# README, Layout); every folder is on the include path, so a module is
# named by its file alone.
STAGES = text sketch join dedup io run lib
CPPFLAGS += -std=c11 -D_GNU_SOURCE -DVERSION='"$(VERSION)"' -DLIBBSD_NETBSD_VIS \
	-Isrc $(STAGES:%=-Isrc/%) $(PKG_CFLAGS)
# Loops aligned to 64 bytes: where a hot loop starts decides how the
# processor's cache of decoded instructions holds it.  Unaligned, a change
# elsewhere in wordscan.c moved the scalar build's n-gram loop to a start
# that made -c 5 16% slower with the same instructions (bench/README.md);
# aligned to 32, another did the same, 13%.  The vector builds do not mind.
ALIGN = -falign-loops=64
ALL_CFLAGS = $(WARN) $(WERROR) $(CFLAGS) $(ALIGN) -pthread -MMD -MP
LDLIBS += $(PKG_LIBS) -pthread -lm

# O=DIR builds out of tree (objects, binary and unit tests under DIR), so a
# sanitizer or cross build never mixes its objects with the normal ones.
O ?= .
B = $(patsubst %/,%,$(O))

ENGINE_SRC = $(sort $(wildcard $(STAGES:%=src/%/*.c)))
CLI_SRC = $(sort $(wildcard src/cli/*.c))
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(B)/%.o)
CLI_OBJ = $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:%.c=$(B)/%)

all: $(B)/neardup

ifneq ($(B),.)
neardup: $(B)/neardup
endif

$(B)/neardup: $(CLI_OBJ) $(ENGINE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(ENGINE_OBJ) $(LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/unit/test_%: tests/unit/test_%.c tests/unit/unit.h $(ENGINE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(ENGINE_OBJ) $(LDLIBS)

# The fuzz smoke run needs clang with libFuzzer: without it, it is skipped.
check: $(B)/neardup $(UNIT_BIN)
	@if tests/fuzz/run -p $(FUZZ_CC); then \
		$(MAKE) --no-print-directory fuzz || exit 1; \
		fuzz="$(FUZZ_TARGETS)"; \
	else \
		fuzz=; \
	fi; \
	NEARDUP=$(abspath $(B)/neardup) UNIT_BIN="$(UNIT_BIN)" \
	FUZZ_BIN="$$fuzz" \
	FUZZ_SKIP="$(FUZZ_CC) cannot build libFuzzer targets (make deps)" \
	tests/run

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# built apart in build/sanitize.  UBSan stops the program at its first
# report, as ASan does, so that undefined behaviour fails the test.
sanitize:
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
	$(MAKE) O=build/sanitize DEBUG=1 check

# The big-endian check: neardup and the unit tests cross-built for s390x in
# build/s390x, statically against Debian's s390x libbsd, libxxhash and json-c (make
# deps-s390x installs them), then the whole suite run under qemu-s390x,
# called by name so that no binfmt_misc is needed.
S390X = s390x-linux-gnu
S390X_RUN = qemu-s390x -L /usr/$(S390X)
S390X_UNIT = $(UNIT_SRC:%.c=build/s390x/%)
SUDO != [ "$$(id -u)" = 0 ] || echo sudo
# $(call install_missing,PACKAGES[,APT-FLAGS]): apt-get install those of
# the Debian PACKAGES that are not installed yet, if any.
install_missing = missing=; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(2) $$missing; \
	fi

S390X_DEPS = gcc-$(S390X) libc6-dev-s390x-cross qemu-user \
	libbsd-dev:s390x libxxhash-dev:s390x libjson-c-dev:s390x
# libarchive and the libraries it links with statically, for s390x, are
# unpacked from Debian's s390x packages into S390X_ROOT, not installed:
# bookworm-security builds no s390x, so once libarchive13 has a security
# update the s390x package lags the amd64 one, and two versions of a
# Multi-Arch: same package cannot be installed together (nor can
# zlib1g-dev:s390x, whose libc6-dev:s390x wants linux-libc-dev:s390x).
# The headers are the native libarchive-dev's (of DEPS): the same.
S390X_ROOT = build/s390x-root
S390X_ROOT_DEBS = libarchive-dev liblzma-dev libzstd-dev liblz4-dev \
	libbz2-dev zlib1g-dev nettle-dev libacl1-dev libxml2-dev
S390X_LIBDIR = $(abspath $(S390X_ROOT))/usr/lib/$(S390X)
cross-s390x:
	PKG_CONFIG_LIBDIR=/usr/lib/$(S390X)/pkgconfig:$(S390X_LIBDIR)/pkgconfig:/usr/share/pkgconfig \
	$(MAKE) O=build/s390x CC=$(S390X)-gcc \
		LDFLAGS='-static -L$(S390X_LIBDIR)' \
		PKG_CONFIG='pkg-config --static' build/s390x/neardup $(S390X_UNIT)

check-s390x: cross-s390x
	@b=$(abspath build/s390x); \
	if [ "$$(od -An -tx1 -j5 -N1 $$b/neardup)" != " 02" ]; then \
		echo "check-s390x: $$b/neardup is not big-endian" >&2; exit 1; \
	fi; \
	printf '#!/bin/sh\nexec $(S390X_RUN) %s "$$@"\n' $$b/neardup >$$b/neardup-qemu && \
	chmod +x $$b/neardup-qemu && \
	NEARDUP=$$b/neardup-qemu UNIT_BIN="$(S390X_UNIT)" UNIT_EXEC="$(S390X_RUN)" \
		NEARDUP_EXPECT_ORDER=big UNIT_TIME_SCALE=20 \
		FUZZ_SKIP='fuzzed natively only' tests/run

deps-s390x:
	@dpkg --print-foreign-architectures | grep -qx s390x || \
		$(SUDO) dpkg --add-architecture s390x
	@$(call install_missing,$(S390X_DEPS),--no-install-recommends)
	@if [ ! -e $(S390X_ROOT)/.unpacked ]; then \
		rm -rf $(S390X_ROOT) && mkdir -p $(S390X_ROOT)/debs && \
		cd $(S390X_ROOT)/debs && \
		{ apt-get download -qq $(S390X_ROOT_DEBS:%=%:s390x) || \
		{ $(SUDO) apt-get update -qq && \
		apt-get download -qq $(S390X_ROOT_DEBS:%=%:s390x); }; } && \
		for d in *.deb; do dpkg-deb -x $$d ..; done && \
		touch ../.unpacked; \
	fi

.PHONY: cross-s390x check-s390x deps-s390x

# libFuzzer targets (tests/fuzz/fuzz_*.c) with ASan and UBSan, built with
# clang in build/fuzz; make fuzz-run fuzzes them all at once for
# FUZZ_SECONDS each, the corpus growing in build/fuzz/corpus.
FUZZ_CC = clang
FUZZ_O = build/fuzz
FUZZ_SECONDS = 60
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN = $(FUZZ_SRC:%.c=$(B)/%)
FUZZ_TARGETS = $(FUZZ_SRC:%.c=$(abspath $(FUZZ_O))/%)
# The option parser target runs main() itself: exit() and the resources a
# command holds when it exits are taken over (see tests/fuzz/fuzz_cli.c).
FUZZ_WRAP = exit err errx errc verr verrx verrc malloc calloc realloc \
	reallocarray free strdup getline getdelim __getdelim fopen \
	fopencookie fclose open close fts_open fts_close mmap mremap munmap \
	pthread_create

# Not -Werror: clang warns of things gcc does not, and CI builds with gcc.
fuzz:
	$(MAKE) O=$(FUZZ_O) CC=$(FUZZ_CC) WERROR= \
		CFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)' \
		fuzz-targets

fuzz-targets: $(FUZZ_BIN)

$(B)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(ENGINE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(filter %.o,$^) $(LDLIBS) $(FUZZ_LDFLAGS)

$(B)/tests/fuzz/fuzz_cli: $(filter-out $(B)/src/cli/main.o,$(CLI_OBJ)) \
	src/cli/main.c
$(B)/tests/fuzz/fuzz_cli: FUZZ_LDFLAGS = $(FUZZ_WRAP:%=-Wl,--wrap=%)

fuzz-run: fuzz
	tests/fuzz/run -t $(FUZZ_SECONDS) -d $(FUZZ_O) $(FUZZ_TARGETS)

install: $(B)/neardup
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(B)/neardup $(DESTDIR)$(BINDIR)/neardup
	install -m 644 man/neardup.1 $(DESTDIR)$(MANDIR)/man1/neardup.1
	install -m 644 completions/neardup.bash $(DESTDIR)$(BASHCOMPDIR)/neardup
	install -m 644 completions/_neardup $(DESTDIR)$(ZSHCOMPDIR)/_neardup
	install -m 644 completions/neardup.fish $(DESTDIR)$(FISHCOMPDIR)/neardup.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/neardup $(DESTDIR)$(MANDIR)/man1/neardup.1 \
		$(DESTDIR)$(BASHCOMPDIR)/neardup $(DESTDIR)$(ZSHCOMPDIR)/_neardup \
		$(DESTDIR)$(FISHCOMPDIR)/neardup.fish

DEPS = gcc make pkg-config libxxhash-dev libbsd-dev libarchive-dev libjson-c-dev bats \
	bats-support bats-assert mandoc parallel jq clang libclang-rt-dev \
	bash-completion zsh fish gzip bzip2 xz-utils zstd lz4 zip time
deps:
	@$(call install_missing,$(DEPS))

clean:
	rm -f neardup src/*/*.o src/*/*.d tests/unit/*.d
	rm -f $(UNIT_SRC:.c=)
	rm -rf build

.PHONY: all check sanitize fuzz fuzz-targets fuzz-run install uninstall deps \
	clean
-include $(ENGINE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d) $(FUZZ_BIN:=.d)
