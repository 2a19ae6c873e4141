// Command gen regenerates internal/fakeforge/specs from the API
// descriptions of the described forges (forgejo.Described): Forgejo's
// development swagger.v1.json (a file from Forgejo's source tree), the ones
// built Forgejo servers serve (13.0.5, 15.0.3, and a 10.0.0 development
// build; all kept in internal/fakeforge/sources), and Gitea's (a file, or
// the live forge's /swagger.v1.json), each amended where the real forges
// answer otherwise (fakeforge.TrimSwagger, amend.go). Then it rebuilds the
// route table's presence column, pkg/forgejo/compat_gen.go, from every
// description in specs/ (fakeforge.RouteTable); -routes-only does only
// that, from the specs already there (no forge needed: make routes).
//
//	go run ./internal/fakeforge/gen -gitea http://127.0.0.1:3000/swagger.v1.json
//	go run ./internal/fakeforge/gen -routes-only
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func main() {
	const sources = "internal/fakeforge/sources/"
	forgejoSrc := flag.String("forgejo", sources+"forgejo-17.0.0-dev.swagger.json", "Forgejo's development swagger.v1.json (file or URL)")
	forgejoVersion := flag.String("forgejo-version", "17.0.0-dev+gitea-1.22.0",
		"the version Forgejo mode reports (the file's own is a template placeholder)")
	releasedSrc := flag.String("forgejo-release",
		sources+"forgejo-13.0.5.swagger.json,"+sources+"forgejo-15.0.3.swagger.json,"+sources+"forgejo-10.0.0-dev-456d05998231.swagger.json",
		"the swagger.v1.json that built Forgejo servers serve (files or URLs, comma-separated); each one's own version names its output")
	giteaSrc := flag.String("gitea", os.Getenv("FORGEJO_TEST_URL")+"/swagger.v1.json", "Gitea's swagger.v1.json (file or URL)")
	out := flag.String("out", "internal/fakeforge/specs", "output folder")
	table := flag.String("table", fakeforge.RouteTableFile, "the generated route table (Go source)")
	routesOnly := flag.Bool("routes-only", false, "only rebuild the route table from the specs in -out")
	flag.Parse()
	if !*routesOnly {
		srcs := []struct{ name, src, version string }{{"forgejo", *forgejoSrc, *forgejoVersion}}
		for _, src := range strings.Split(*releasedSrc, ",") {
			srcs = append(srcs, struct{ name, src, version string }{"forgejo-release", strings.TrimSpace(src), ""})
		}
		srcs = append(srcs, struct{ name, src, version string }{"gitea", *giteaSrc, ""})
		for _, f := range srcs {
			if f.name == "gitea" && (f.src == "" || f.src == "/swagger.v1.json") { // no FORGEJO_TEST_URL
				fmt.Fprintln(os.Stderr, "gen: no live forge (FORGEJO_TEST_URL) and no -gitea: gitea.json kept as it is")
				continue
			}
			if err := write(f.name, f.src, f.version, *out); err != nil {
				fail(err)
			}
		}
	}
	specs, err := fakeforge.ReadSpecs(*out)
	if err != nil {
		fail(err)
	}
	src, err := fakeforge.RouteTable(specs, forgejo.Routes())
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*table, src, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

func write(name, src, version, dir string) error {
	raw, err := read(src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	spec, err := fakeforge.TrimSwagger(raw, version)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if name == "forgejo-release" {
		// forgejo-13.0.5.json: a built Forgejo is named by its version
		// (forgejo-10.0.0-dev-456d05998231.json for a development build).
		v, _, _ := strings.Cut(spec.Version, "+")
		name = "forgejo-" + v
	}
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644)
}

func read(src string) ([]byte, error) {
	if !strings.HasPrefix(src, "http://") && !strings.HasPrefix(src, "https://") {
		return os.ReadFile(src)
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	resp, err := hc.Get(src)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", src, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 16<<20))
}
