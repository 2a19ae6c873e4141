package actions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/workflow"
)

// Where each flavour reads workflow files, in its order: Forgejo reads
// .forgejo/workflows and, when the repository has none, .gitea/workflows;
// Gitea reads .gitea/workflows and .github/workflows. A forge of unknown
// flavour is looked up in all three.
var (
	forgejoDirs = []string{".forgejo/workflows", ".gitea/workflows"}
	giteaDirs   = []string{".gitea/workflows", ".github/workflows"}
	anyDirs     = []string{".forgejo/workflows", ".gitea/workflows", ".github/workflows"}
)

func workflowDirs(ctx context.Context, c *forgejo.Client) []string {
	f, err := c.Forge(ctx)
	switch {
	case err != nil:
		return anyDirs
	case f.Flavour == forgejo.Forgejo:
		return forgejoDirs
	case f.Flavour == forgejo.Gitea:
		return giteaDirs
	}
	return anyDirs
}

// workflowFile is a workflow file as read from the repository.
type workflowFile struct {
	path string
	data []byte
}

// errNoWorkflowFile is a workflow found in none of the flavour's folders.
type errNoWorkflowFile struct {
	repo string
	file string
	dirs []string
	ref  string
}

func (e *errNoWorkflowFile) Error() string {
	at := "the default branch"
	if e.ref != "" {
		at = e.ref
	}
	return fmt.Sprintf("workflow %s not found in %s: looked in %s at %s (list_workflows lists them)", e.file, e.repo, strings.Join(e.dirs, " and "), at)
}

// readWorkflow reads the workflow file named file at ref ("" for the
// default branch) from the first of the forge's workflow folders that
// has it, up to workflow.MaxBytes+1 bytes (Parse refuses the larger).
func readWorkflow(ctx context.Context, c *forgejo.Client, a tool.Args, file, ref string) (*workflowFile, error) {
	q := url.Values{}
	if ref != "" {
		q.Set("ref", ref)
	}
	dirs := workflowDirs(ctx, c)
	for _, dir := range dirs {
		p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "raw"}, dir+"/"+file)
		if err != nil {
			return nil, err
		}
		var data []byte
		err = c.DoStream(ctx, p, q, func(body io.Reader) error {
			var err error
			data, err = io.ReadAll(io.LimitReader(body, workflow.MaxBytes+1))
			return err
		})
		if forgejo.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &workflowFile{path: dir + "/" + file, data: data}, nil
	}
	return nil, &errNoWorkflowFile{repo: tool.FullName(a), file: file, dirs: dirs, ref: ref}
}

func isNoWorkflowFile(err error) bool {
	var e *errNoWorkflowFile
	return errors.As(err, &e)
}
