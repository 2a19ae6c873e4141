# forgejo-mcp: build, run, test. `make test` is what CI runs (.ci/run).
GO ?= go
BIN ?= forgejo-mcp

.PHONY: build run forge forge-stop test check docs fixtures routes lint clean release

# Stamped with the tag or commit (plus -dirty) from git, like a release.
VERSION_PKG := codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version
STAMP = $(shell v=$$(git describe --tags --exact-match HEAD 2>/dev/null || git rev-parse --short=12 HEAD 2>/dev/null); \
	[ -n "$$v" ] && [ -n "$$(git status --porcelain 2>/dev/null)" ] && v="$$v-dirty"; echo "$$v")
COMMIT = $(shell git rev-parse HEAD 2>/dev/null)

LDFLAGS = -X $(VERSION_PKG).stamp=$(STAMP) -X $(VERSION_PKG).commit=$(COMMIT)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

# Binaries for linux, darwin and windows on amd64 and arm64 in dist/, with
# SHA256SUMS (scripts/release; TARGETS="linux/amd64" builds one).
release:
	scripts/release

# Serve MCP on stdio against $FORGEJO_URL, or, when it is unset, against
# the local dev forge (scripts/dev-forge: started the first time, seeded
# with forgeadmin/demo, and left running after the server exits, so the
# README's --cli examples work from another shell; `make forge-stop` ends
# it). Silent on stdout: stdout belongs to the MCP protocol.
run:
	@$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .
	@if [ -n "$$FORGEJO_URL" ]; then \
		exec ./$(BIN); \
	else \
		env="$$(scripts/dev-forge up </dev/null)" || exit 1; eval "$$env"; exec ./$(BIN); \
	fi

# The local dev forge alone: start (or reuse) it and print its environment
# (eval "$$(scripts/dev-forge env)" sets it in a shell); forge-stop ends it.
forge:
	@scripts/dev-forge up

forge-stop:
	@scripts/dev-forge down

# The whole suite against a fresh live forge: live tests fail, never skip.
test:
	scripts/test-forge run -- scripts/check

# The checks alone, against the forge named by FORGEJO_TEST_* (set by
# scripts/test-forge).
check:
	scripts/check

docs: routes
	$(GO) run ./cmd/gendocs

# Regenerate the described forges' API descriptions (internal/fakeforge/specs)
# from the files in internal/fakeforge/sources (Forgejo's v17 development
# swagger.v1.json, the ones real Forgejo 13.0.5 and 15.0.3 servers serve and a
# 10.0.0 development build's) and the Gitea test forge's (FORGEJO_TEST_URL, or
# kept as it is without one), then the route table (make routes).
# FORGEJO_SWAGGER and FORGEJO_RELEASE_SWAGGER (comma-separated) override the
# files; a new release's description goes in sources/ and in
# FORGEJO_RELEASE_SWAGGER.
SOURCES := internal/fakeforge/sources
FORGEJO_SWAGGER ?= $(SOURCES)/forgejo-17.0.0-dev.swagger.json
FORGEJO_RELEASE_SWAGGER ?= $(SOURCES)/forgejo-13.0.5.swagger.json,$(SOURCES)/forgejo-15.0.3.swagger.json,$(SOURCES)/forgejo-10.0.0-dev-456d05998231.swagger.json
fixtures:
	$(GO) run ./internal/fakeforge/gen -forgejo $(FORGEJO_SWAGGER) -forgejo-release $(FORGEJO_RELEASE_SWAGGER) \
		-gitea="$${FORGEJO_TEST_URL:+$$FORGEJO_TEST_URL/swagger.v1.json}"

# Rebuild the route table's presence column (pkg/forgejo/compat_gen.go): for
# each route declared in pkg/forgejo/compat.go, the described forges whose
# API description has it. No forge needed.
routes:
	$(GO) run ./internal/fakeforge/gen -routes-only

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: the files above need formatting"; exit 1; }
	$(GO) vet ./...

clean:
	rm -f $(BIN)
	rm -rf dist
