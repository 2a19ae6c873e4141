// Command gendocs regenerates the files derived from the tool inventory:
// the README's tool table, its Forgejo/Gitea compatibility table, the
// per-tool schema snapshots and operation/index_gen.go (which part of the
// inventory defines each tool, for a one-tool lookup). `make docs` runs it; a
// test fails when either has drifted.
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
	readme, err := os.ReadFile("README.md")
	if err != nil {
		return err
	}
	if readme, err = operation.UpdateReadme(readme, all); err != nil {
		return err
	}
	if readme, err = operation.UpdateCompat(readme); err != nil {
		return err
	}
	if readme, err = operation.UpdateScopes(readme, all); err != nil {
		return err
	}
	if err := os.WriteFile("README.md", readme, 0o644); err != nil {
		return err
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
