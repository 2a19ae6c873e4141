package testforge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Identity is which forge software answers the live tests, read from the forge itself. The live
// suite runs on Gitea 1.26 by default and on any Forgejo a user brings (scripts/test-forge with
// FORGEJO_TEST_FORGEJO_BIN); a test whose expectation honestly differs between the two asks here
// rather than assuming one.
//
// It is worked out without the project's own code (pkg/forgejo tells flavours apart by the version
// string): Forgejo serves /api/forgejo/v1/version, a route Gitea has never had. A test that checks
// the project's detection against this one then compares two independent answers.
type Identity struct {
	Forgejo bool   // Forgejo; otherwise Gitea
	Version string // as /api/v1/version says it: "1.26.0", "10.0.0-dev-456d05998231+gitea-1.22.0"
}

// Flavour is "Forgejo" or "Gitea", as the forge names itself.
func (id Identity) Flavour() string {
	if id.Forgejo {
		return "Forgejo"
	}
	return "Gitea"
}

// String is "Forgejo 10.0.0-dev-…+gitea-1.22.0" or "Gitea 1.26.0".
func (id Identity) String() string { return id.Flavour() + " " + id.Version }

// Major is the version's first number (10 for "10.0.0-dev+gitea-1.22.0", 1 for Gitea's "1.26.0"),
// or -1 when it has none.
func (id Identity) Major() int {
	head, _, _ := strings.Cut(id.Version, ".")
	n, err := strconv.Atoi(head)
	if err != nil {
		return -1
	}
	return n
}

// ForgejoUpTo reports whether the forge is a Forgejo of at most the given major version. Live tests
// use it where a Forgejo release measured here (10.0.0-dev) answers differently from Gitea 1.26 and
// the releases after it are not known to: those keep the Gitea expectation until measured.
func (id Identity) ForgejoUpTo(major int) bool {
	return id.Forgejo && id.Major() >= 0 && id.Major() <= major
}

// Identify asks the live forge what it is. It asks every time (two small GETs): a Forge is copied
// freely, and a cached answer would be state shared between copies.
func (f *Forge) Identify(t testing.TB) Identity {
	t.Helper()
	var v struct {
		Version string `json:"version"`
	}
	var raw []byte
	status := f.Do(t, http.MethodGet, "/version", nil, &raw)
	expect(t, "reading the forge's version", status, http.StatusOK, raw)
	if err := json.Unmarshal(raw, &v); err != nil || v.Version == "" {
		t.Fatalf("testforge: /api/v1/version answered no version (%v): %s", err, raw)
	}
	// Not under /api/v1, so not through Do; no token needed.
	resp, err := client.Get(f.URL + "/api/forgejo/v1/version")
	if err != nil {
		t.Fatalf("testforge: GET /api/forgejo/v1/version: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return Identity{Forgejo: true, Version: v.Version}
	case http.StatusNotFound:
		return Identity{Version: v.Version}
	default:
		t.Fatalf("testforge: GET /api/forgejo/v1/version: status %d, want 200 (Forgejo) or 404 (Gitea)", resp.StatusCode)
		return Identity{}
	}
}

// Lacks reports whether the forge's router has no route for method and path (relative to /api/v1,
// as for Do): the router's own 404 is a fixed plain text, while a route that exists answers JSON,
// even for a missing object. Tests use it where a forge version may lack a route the project knows, to
// expect the tool's clear refusal there instead of skipping.
func (f *Forge) Lacks(t testing.TB, method, path string) bool {
	t.Helper()
	req, err := http.NewRequest(method, f.URL+"/api/v1/"+strings.TrimPrefix(path, "/"), nil)
	if err != nil {
		t.Fatalf("testforge: %s %s: %v", method, path, err)
	}
	req.Header.Set("Authorization", "token "+f.Token)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("testforge: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return routerNotFound(resp.StatusCode, body)
}

// routerNotFound tells the router's "no such route" apart from an API 404, which a route that
// exists sends for a missing object ({"message":…}, or Gitea's literal null): the router's is the
// plain text "404 page not found" (Go's http.NotFound), on both flavours.
func routerNotFound(status int, body []byte) bool {
	return status == http.StatusNotFound && string(bytes.TrimSpace(body)) == "404 page not found"
}
