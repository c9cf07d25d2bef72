# onlist - which commits reached mainline without ever being posted?
#
# make          build ./onlist
# make demo     install missing Debian packages (as root), build, run on fixtures
# make check    install, build, run every test (unit + end-to-end)
# make sanitize the whole suite under ASan + UBSan
# make bench    side-by-side benchmarks against git (see bench/)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKGS    = gmime-3.0 sqlite3 openssl zlib libcurl
CFLAGS ?= -g -O2
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -MMD -MP \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread

LIB_SRC  = $(filter-out src/onlist.c src/cmd_%.c,$(wildcard src/*.c))
CMD_SRC  = src/onlist.c $(wildcard src/cmd_*.c)
LIB_OBJ  = $(LIB_SRC:.c=.o)
CMD_OBJ  = $(CMD_SRC:.c=.o)
UNIT_SRC = $(wildcard tests/test_*.c)
UNIT_BIN = $(UNIT_SRC:.c=)

all: onlist

onlist: $(CMD_OBJ) libonlist.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) libonlist.a $(LDLIBS)

libonlist.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

tests/test_%: tests/test_%.c libonlist.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< libonlist.a $(LDLIBS) \
		$(shell pkg-config --libs cmocka 2>/dev/null)

deps:
	@sh scripts/deps.sh

demo: deps
	@$(MAKE) --no-print-directory onlist
	@sh scripts/demo.sh

check: deps
	@$(MAKE) --no-print-directory onlist $(UNIT_BIN)
	@sh tests/run.sh $(UNIT_BIN)

sanitize: deps
	@$(MAKE) --no-print-directory clean
	@$(MAKE) --no-print-directory onlist $(UNIT_BIN) \
		CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"
	@ASAN_OPTIONS=detect_leaks=0 sh tests/run.sh $(UNIT_BIN)
	@$(MAKE) --no-print-directory clean

bench: onlist
	@sh bench/patchid.sh
	@sh bench/import.sh
	@sh bench/match.sh

install: onlist
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 onlist $(DESTDIR)$(BINDIR)/onlist
	install -m 644 doc/onlist.1 $(DESTDIR)$(MANDIR)/man1/onlist.1

clean:
	rm -f onlist libonlist.a src/*.o src/*.d tests/*.d $(UNIT_BIN)

.PHONY: all deps demo check sanitize bench install clean
-include $(wildcard src/*.d tests/*.d)
