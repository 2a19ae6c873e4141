// Command gendocs regenerates the files derived from the tool inventory:
// the generated sections of README.md (the toolsets, the default
// selection's scopes) and of docs/tools.md, docs/scopes.md and
// docs/compatibility.md, the per-tool schema snapshots and
// operation/index_gen.go (which part of the inventory defines each tool,
// for a one-tool lookup). `make docs` runs it; tests fail when any has
// drifted.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run() error {
	all := operation.All()
	for _, g := range operation.GeneratedDocs(all) {
		doc, err := os.ReadFile(g.Path)
		if err != nil {
			return err
		}
		if doc, err = g.Update(doc); err != nil {
			return fmt.Errorf("%s: %w", g.Path, err)
		}
		if err := os.WriteFile(g.Path, doc, 0o644); err != nil {
			return err
		}
	}
	index, err := operation.IndexFile()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("operation", "index_gen.go"), index, 0o644); err != nil {
		return err
	}
	return operation.WriteSnapshots(filepath.Join("operation", operation.SnapshotDir), all)
}
