// Command gen regenerates internal/fakeforge/specs from the API
// descriptions of the described forges (forgejo.Described): Forgejo's
// development swagger.v1.json (a file from Forgejo's source tree), the ones
// built Forgejo servers serve (13.0.5, and a 10.0.0 development build), and Gitea's (a file, or the live forge's
// /swagger.v1.json), each amended where the real forges answer otherwise
// (fakeforge.TrimSwagger, amend.go).
//
//	go run ./internal/fakeforge/gen -forgejo ../shared/forgejo/swagger.v1.json -gitea http://127.0.0.1:3000/swagger.v1.json
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
)

func main() {
	forgejoSrc := flag.String("forgejo", "../shared/forgejo/swagger.v1.json", "Forgejo's development swagger.v1.json (file or URL)")
	forgejoVersion := flag.String("forgejo-version", "17.0.0-dev+gitea-1.22.0",
		"the version Forgejo mode reports (the file's own is a template placeholder)")
	releasedSrc := flag.String("forgejo-release", "../shared/forgejo/swagger-13.0.5.json,internal/fakeforge/sources/forgejo-10.0.0-dev-456d05998231.swagger.json",
		"the swagger.v1.json that built Forgejo servers serve (files or URLs, comma-separated); each one's own version names its output")
	giteaSrc := flag.String("gitea", os.Getenv("FORGEJO_TEST_URL")+"/swagger.v1.json", "Gitea's swagger.v1.json (file or URL)")
	out := flag.String("out", "internal/fakeforge/specs", "output folder")
	flag.Parse()
	sources := []struct{ name, src, version string }{{"forgejo", *forgejoSrc, *forgejoVersion}}
	for _, src := range strings.Split(*releasedSrc, ",") {
		sources = append(sources, struct{ name, src, version string }{"forgejo-release", strings.TrimSpace(src), ""})
	}
	sources = append(sources, struct{ name, src, version string }{"gitea", *giteaSrc, ""})
	for _, f := range sources {
		if err := write(f.name, f.src, f.version, *out); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
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
