# The two commands of the README: `make run` builds and starts the console,
# `make test` runs every test. Everything else is a step of those two.
GO ?= go
PKGS = ./cmd/... ./internal/... ./migrations/... ./web/...

.PHONY: run build web test test-go test-web test-e2e vet bench

run: build
	./bin/bluebird serve

build: web
	$(GO) build -o bin/bluebird ./cmd/bluebird

web: web/node_modules
	npm --prefix web run build

web/node_modules: web/package-lock.json
	npm --prefix web ci
	@touch web/node_modules

test: vet test-go test-web test-e2e

vet:
	$(GO) vet $(PKGS)

# Go tests run on SQLite always, and on PostgreSQL too when BLUEBIRD_TEST_PG names a server. Left
# unset, it is the local server CI uses when that answers (psql reaches database `test` without a
# password); `BLUEBIRD_TEST_PG= make test` opts out. The scale-out tests also need Redis on
# 127.0.0.1:6379 and skip without it.
TEST_PG_LOCAL = postgres://postgres@127.0.0.1:5432/test?sslmode=disable
ifeq ($(origin BLUEBIRD_TEST_PG),undefined)
BLUEBIRD_TEST_PG := $(shell PGCONNECT_TIMEOUT=3 psql '$(TEST_PG_LOCAL)' -Atqc 'select 1' >/dev/null 2>&1 && echo '$(TEST_PG_LOCAL)')
endif
export BLUEBIRD_TEST_PG

# -vet=off: `make vet` runs every vet check; the subset go test would run again costs minutes on a
# cold build cache (facts of every dependency, modernc.org/sqlite among them) and finds nothing more.
test-go:
	@echo "Go tests on SQLite$(if $(BLUEBIRD_TEST_PG), and PostgreSQL ($(BLUEBIRD_TEST_PG)), only (no PostgreSQL: see README))"
	$(GO) test -count=1 -vet=off -timeout 25m $(PKGS)

test-web: web/node_modules
	npm --prefix web test

# Browser tests: the real binary on a temporary SQLite database, in Debian's Chromium.
test-e2e: build e2e/node_modules
	cd e2e && BLUEBIRD_BIN=../bin/bluebird npx playwright test

e2e/node_modules: e2e/package-lock.json
	npm --prefix e2e ci
	@touch e2e/node_modules

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/...
