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

ENGINE_SRC = $(sort $(wildcard src/*.c))
CLI_SRC = $(sort $(wildcard src/cli/*.c))
ENGINE_OBJ = $(ENGINE_SRC:.c=.o)
CLI_OBJ = $(CLI_SRC:.c=.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:.c=)

all: neardup

neardup: $(CLI_OBJ) $(ENGINE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(ENGINE_OBJ) $(LDLIBS)

%.o: %.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

tests/unit/test_%: tests/unit/test_%.c tests/unit/unit.h $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(ENGINE_OBJ) $(LDLIBS)

check: neardup $(UNIT_BIN)
	@NEARDUP=$(CURDIR)/neardup UNIT_BIN="$(UNIT_BIN)" tests/run

install: neardup
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 neardup $(DESTDIR)$(BINDIR)/neardup
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
	rm -f neardup src/*.o src/*.d src/cli/*.o src/cli/*.d $(UNIT_BIN) tests/unit/*.d

.PHONY: all check install uninstall deps clean
-include $(ENGINE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d)
