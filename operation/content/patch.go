package content

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// MaxPatchBytes bounds a diff apply_diff_patch sends: the forge applies
// it in one request, and an agent's diff past 4 MiB is better split.
const MaxPatchBytes = 4 << 20

func patchTool() tool.Def {
	return tool.Def{
		Name: "apply_diff_patch", Title: "Apply a diff as one commit", Toolset: Toolset,
		Description: "Apply a unified diff (git diff output) as one commit, on a branch or a new one",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("diff", "Unified diff, as git diff prints it", tool.Required(), tool.MaxLen(MaxPatchBytes)),
			tool.Str("message", "Commit message"),
			tool.Str("branch", "Branch (default: the default branch)"),
			tool.Str("new_branch", "New branch for the commit, from branch")},
		Annotations: tool.Destroy(false), Handler: applyPatch, Output: Applied{}, LargeArgs: true,
	}
}

// Applied is the commit apply_diff_patch made.
type Applied struct {
	Commit    string `json:"commit"`
	CommitURL string `json:"commit_url,omitempty"`
	Branch    string `json:"branch,omitempty"`
	Message   string `json:"message,omitempty" trust:"text"`
}

// commitRef is the commit of the forge's FileResponse.
type commitRef struct {
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
	Message string `json:"message"`
}

// applyPatch sends the diff to repoApplyDiffPatch (POST /diffpatch), which
// applies it with git on the forge, all or nothing. Its body is
// UpdateFileOptions, whose content is the diff's text as it is (not base64
// as in the file routes).
func applyPatch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	diff := a.String("diff")
	if !strings.Contains(diff, "@@ ") && !strings.Contains(diff, "diff --git ") {
		return nil, errors.New("invalid arguments for apply_diff_patch: diff is not a unified diff (no \"diff --git\" header, no \"@@\" hunk): give it as git diff prints it")
	}
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n" // git apply refuses a last hunk line without its newline ("corrupt patch")
	}
	p, err := tool.RepoRoute(a, "diffpatch")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"content": diff}
	for _, k := range []string{"message", "branch", "new_branch"} {
		if v := a.String(k); v != "" {
			body[k] = v
		}
	}
	var out struct {
		Commit *commitRef `json:"commit"`
	}
	subject := "a diff to " + tool.RepoRef(a)
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &out); err != nil {
		return nil, patchError(forgejo.Relabel(err, "apply", subject), a)
	}
	if out.Commit == nil { // never seen; the description allows it
		out.Commit = &commitRef{}
	}
	branch := a.String("new_branch")
	if branch == "" {
		branch = a.String("branch")
	}
	return tool.JSON(Applied{Commit: out.Commit.SHA, CommitURL: out.Commit.HTMLURL, Branch: branch,
		Message: strings.TrimSpace(firstLine(out.Commit.Message))})
}

// patchError says what an agent can do about the forge's refusals: a
// diff that does not apply to the branch's files (the forge answers 422
// or 500 with git's words), or a forge whose router lacks the route.
func patchError(err error, a tool.Args) error {
	if forgejo.IsNoRoute(err) {
		return fmt.Errorf("%w; this forge cannot apply a diff (no repoApplyDiffPatch route): change_files writes the changed files in one commit instead", err)
	}
	var fe *forgejo.Error
	if !errors.As(err, &fe) {
		return err
	}
	if fe.Status == http.StatusUnprocessableEntity || fe.Status == http.StatusInternalServerError || fe.Status == http.StatusConflict {
		return fmt.Errorf("%w; the diff does not apply to %s as it is now: read the files (get_file_content) and rebuild it, or use change_files", err, branchOf(a))
	}
	return err
}

func branchOf(a tool.Args) string {
	if b := a.String("branch"); b != "" {
		return "branch " + b
	}
	return "the default branch"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
