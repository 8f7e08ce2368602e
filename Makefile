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

# SQLite always; PostgreSQL too when BLUEBIRD_TEST_PG is set (CI sets it).
test-go:
	$(GO) test -count=1 $(PKGS)

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
