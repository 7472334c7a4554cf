# Roster — the two commands users need are `make run` and `make test`;
# each installs what a fresh Debian machine lacks before it starts.

SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
BIN        := .build/release/roster
DEBUG_BIN  := .build/debug/roster
RESOURCES  := .build/release/Roster_RosterResources.resources

.PHONY: all build run test deps test-deps bench coverage data install uninstall check clean

all: build

# System packages: the ncurses headers to build, tmux for the end-to-end tests.
deps:
	@bash .ci/install-deps libncurses-dev

test-deps:
	@bash .ci/install-deps libncurses-dev tmux

build: deps
	$(SWIFT) build -c release --product roster

run: build
	$(BIN) $(ARGS)

test: test-deps
	$(SWIFT) build --build-tests
	ROSTER_BINARY=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build

# Benchmarks: generates 10k/100k/1M-person files under .build/bench (never
# committed), measures, prints a table and writes bench/RESULTS.md.
bench: deps
	$(SWIFT) build -c release --product roster --product roster-gen --product roster-bench
	bash bench/run.sh

# Line coverage per target (llvm-cov from the toolchain).
coverage: test-deps
	$(SWIFT) build --build-tests --enable-code-coverage
	ROSTER_BINARY=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build --enable-code-coverage
	bash .ci/coverage

# Regenerates the bundled directory, byte for byte the same.
data: deps
	$(SWIFT) build -c release --product roster-gen
	.build/release/roster-gen --people 400 --seed 1 > Resources/people.json

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/roster
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/roster
	install -m 644 $(RESOURCES)/people.json $(DESTDIR)$(PREFIX)/share/roster/people.json

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/roster $(DESTDIR)$(PREFIX)/share/roster/people.json
	-rmdir $(DESTDIR)$(PREFIX)/share/roster 2>/dev/null

clean:
	rm -rf .build
