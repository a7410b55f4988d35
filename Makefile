# neardup: near-duplicate detection for the Unix command line.
VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

PKGS = libbsd-overlay libxxhash
PKG_CFLAGS != pkg-config --cflags $(PKGS)
PKG_LIBS != pkg-config --libs $(PKGS)

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
CPPFLAGS += -std=c11 -D_GNU_SOURCE -DVERSION='"$(VERSION)"' -DLIBBSD_NETBSD_VIS -Isrc $(PKG_CFLAGS)
ALL_CFLAGS = $(WARN) $(WERROR) $(CFLAGS) -pthread -MMD -MP
LDLIBS += $(PKG_LIBS) -pthread -lm

# O=DIR builds out of tree (objects, binary and unit tests under DIR), so a
# sanitizer or cross build never mixes its objects with the normal ones.
O ?= .
B = $(patsubst %/,%,$(O))

ENGINE_SRC = $(sort $(wildcard src/*.c))
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
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(ENGINE_OBJ) $(LDLIBS)

check: $(B)/neardup $(UNIT_BIN)
	@NEARDUP=$(abspath $(B)/neardup) UNIT_BIN="$(UNIT_BIN)" tests/run

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# built apart in build/sanitize.
sanitize:
	$(MAKE) O=build/sanitize DEBUG=1 check

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

SUDO != [ "$$(id -u)" = 0 ] || echo sudo
DEPS = gcc make pkg-config libxxhash-dev libbsd-dev bats bats-support bats-assert \
	mandoc parallel jq
deps:
	@missing=; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

clean:
	rm -f neardup src/*.o src/*.d src/cli/*.o src/cli/*.d tests/unit/*.d
	rm -f $(UNIT_SRC:.c=)
	rm -rf build

.PHONY: all check sanitize install uninstall deps clean
-include $(ENGINE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d)
