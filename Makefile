# onlist - which commits reached mainline without ever being posted?
#
# make          build ./onlist
# make demo     install missing Debian packages (as root), build, run on fixtures
# make check    install, build, run every test (unit + end-to-end)
# make sanitize the whole suite under ASan + UBSan
# make bench    side-by-side benchmarks against git (see bench/)
# make valgrind the unit tests under valgrind (leaks count as failures)
# make fuzz     each fuzz/fuzz_*.c under libFuzzer for FUZZ_SECONDS (clang)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
PKGS    = gmime-3.0 sqlite3 openssl zlib libcurl
CFLAGS ?= -g -O2
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -MMD -MP \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread

LIB_SRC  = $(wildcard src/*.c)
CMD_SRC  = $(wildcard src/cmd/*.c)
LIB_OBJ  = $(LIB_SRC:.c=.o)
CMD_OBJ  = $(CMD_SRC:.c=.o)
UNIT_SRC = $(wildcard tests/test_*.c)
UNIT_BIN = $(UNIT_SRC:.c=)
# The fuzz harnesses again, built with the normal compiler and a plain
# main() (fuzz/replay.c): make check replays fuzz/regress/ and the seeds.
REPLAY_BIN = $(patsubst fuzz/fuzz_%.c,tests/fuzz_%,$(wildcard fuzz/fuzz_*.c))

all: onlist

# The program links every library the ordinary way: the binary the
# tests drive is the one that ships, and no symbol is resolved at run
# time.
onlist: $(CMD_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(LIB_OBJ) $(LDLIBS)

# made afresh: a member whose source is gone must not linger in the archive
libonlist.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

tests/test_%: tests/test_%.c libonlist.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< libonlist.a $(LDLIBS) \
		$(shell pkg-config --libs cmocka 2>/dev/null)

$(REPLAY_BIN): fuzz/replay.o	# named here so make keeps the object
tests/fuzz_%: fuzz/fuzz_%.c fuzz/replay.o libonlist.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< fuzz/replay.o libonlist.a $(LDLIBS)

deps:
	@sh scripts/deps.sh

demo: deps
	@$(MAKE) --no-print-directory onlist
	@sh scripts/demo.sh

check: deps
	@$(MAKE) --no-print-directory onlist $(UNIT_BIN) $(REPLAY_BIN)
	@sh tests/run.sh $(UNIT_BIN)

# The suite again under ASan + UBSan.  t022 kills each command 8 times
# here, not 20: the sanitizers look for memory errors on the paths a kill
# and a resume take, which `make check` has already run 20 times a
# command for the database's sake.
sanitize: deps
	@$(MAKE) --no-print-directory clean
	@$(MAKE) --no-print-directory onlist $(UNIT_BIN) $(REPLAY_BIN) \
		CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"
	@ASAN_OPTIONS=detect_leaks=0 ONLIST_T022_KILLS=8 sh tests/run.sh $(UNIT_BIN)
	@$(MAKE) --no-print-directory clean

# Unit tests under valgrind: any error, or memory definitely or indirectly
# lost, fails.  GLib keeps caches alive until exit ("possibly lost" and
# "still reachable"); those are not counted.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full \
	--suppressions=tests/valgrind.supp \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
valgrind:
	@sh scripts/deps.sh valgrind
	@$(MAKE) --no-print-directory $(UNIT_BIN)
	@mkdir -p tests/log; fail=0; for t in $(UNIT_BIN); do \
		echo "valgrind $$t"; \
		ONLIST_TEST_TIME_SCALE=10 $(VALGRIND) ./$$t \
			>tests/log/$$(basename $$t).valgrind 2>&1 || \
			{ fail=1; tail -n 40 tests/log/$$(basename $$t).valgrind; }; \
	done; [ $$fail -eq 0 ] && echo "valgrind: no errors, no leaks"

# Fuzzing with libFuzzer: every fuzz/fuzz_NAME.c is a harness, linked with
# the library compiled separately (fuzz/build/) with the fuzzer's coverage
# and ASan + UBSan.  `make fuzz FUZZ_SECONDS=N` runs each for N seconds;
# FUZZ_SECONDS=total:N shares N seconds among them (CI's smoke run).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS   = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -std=c11 \
	-D_GNU_SOURCE -Wall -Wextra -Iinclude -MMD -MP \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_SRC      = $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN      = $(FUZZ_SRC:fuzz/%.c=fuzz/build/%)
FUZZ_LIB_OBJ  = $(LIB_SRC:src/%.c=fuzz/build/%.o)

fuzz/build/%.o: src/%.c
	@mkdir -p fuzz/build
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

fuzz/build/libonlist.a: $(FUZZ_LIB_OBJ)
	$(AR) rcs $@ $^

fuzz/build/fuzz_%: fuzz/fuzz_%.c fuzz/build/libonlist.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		fuzz/build/libonlist.a $(LDLIBS)

fuzz-build: $(FUZZ_BIN)

fuzz:
	@sh scripts/deps.sh clang time
	@$(MAKE) --no-print-directory fuzz-build
	@sh fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

bench: onlist
	@sh bench/patchid.sh
	@sh bench/import.sh
	@sh bench/match.sh

install: onlist
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 onlist $(DESTDIR)$(BINDIR)/onlist
	install -m 644 docs/onlist.1 $(DESTDIR)$(MANDIR)/man1/onlist.1
	install -d $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(SYSTEMDUSERDIR)
	install -m 644 contrib/completion/onlist.bash $(DESTDIR)$(COMPLETIONDIR)/onlist
	install -m 644 contrib/onlist-weekly.service contrib/onlist-weekly.timer \
		$(DESTDIR)$(SYSTEMDUSERDIR)/

# The Debian package from a clean copy of HEAD, installed and checked
# (as root: it installs the package; CI's last step)
deb:
	@sh scripts/deb-check.sh

clean:
	rm -f onlist libonlist.a src/*.o src/*.d src/cmd/*.o src/cmd/*.d tests/*.d $(UNIT_BIN) $(REPLAY_BIN) \
		fuzz/replay.o fuzz/replay.d
	rm -rf fuzz/build

.PHONY: all deps demo check sanitize valgrind fuzz fuzz-build bench install deb clean
-include $(wildcard src/*.d src/cmd/*.d tests/*.d fuzz/*.d fuzz/build/*.d)
