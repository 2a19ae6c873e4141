package repo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// MaxChangedFiles bounds the files of one change_files commit.
const MaxChangedFiles = 50

// changeFilesTool is change_files: several files created, updated, moved,
// deleted or edited in place (replace.go) in one commit, which either
// happens whole or not at all. Content is the file's text, as create_file
// and update_file take it.
func changeFilesTool() tool.Def {
	return tool.Def{
		Name: "change_files", Title: "Change several files in one commit", Toolset: CodeToolset,
		Description: "Change files in one commit, all or nothing: create, update (from_path: move), delete, replace (edit in place)",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Objects("files", "File changes", []tool.Param{
				tool.Str("operation", "Operation", tool.Required(), tool.OneOf("create", "update", "delete", "replace")),
				tool.Str("path", "File path", tool.Required()),
				tool.Str("content", "Text, not base64 (replace: the new text)"),
				tool.Str("old", "replace: exact text found once"),
				tool.Str("sha", "Blob SHA from get_file_content (update, delete)"),
				tool.Str("from_path", "Old path (update: move)"),
			}, tool.Required(), tool.MaxItems(MaxChangedFiles), tool.ItemCheck(checkChange)),
			tool.Str("message", "Commit message"),
			tool.Str("branch", "Branch (default: the default branch)"),
			tool.Str("new_branch", "New branch for the commit, from branch")},
		Annotations: tool.Destroy(false), Handler: changeFiles, Output: Changed{}, LargeArgs: true,
	}
}

// checkChange validates one file change: the fields its operation needs,
// and paths by the rules every file route follows (forgejo.FilePath).
func checkChange(f tool.Args) error {
	op := f.String("operation")
	switch {
	case op == "replace" && (f.String("old") == "" || !f.Has("content")):
		return errors.New("replace needs old (the exact text to change, found once in the file) and content (its new text, \"\" to delete it)")
	case op != "replace" && f.Has("old"):
		return errors.New("old is the text replace changes: only with replace")
	case op != "delete" && !f.Has("content"):
		return fmt.Errorf("%s needs content (the file's text)", op)
	case op == "delete" && f.Has("content"):
		return errors.New("delete takes no content")
	case (op == "update" || op == "delete") && f.String("sha") == "":
		return fmt.Errorf("%s needs sha, the file's current blob SHA (from get_file_content)", op)
	case op != "update" && f.Has("from_path"):
		return errors.New("from_path moves a file: only with update")
	}
	for _, name := range []string{"path", "from_path"} {
		if !f.Has(name) {
			continue
		}
		if _, err := forgejo.FilePath(nil, f.String(name)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// Changed is what change_files returns: the commit and each file's new
// SHA, in the order given.
type Changed struct {
	Commit    string        `json:"commit"`
	CommitURL string        `json:"commit_url,omitempty"`
	Branch    string        `json:"branch,omitempty"`
	Files     []WrittenFile `json:"files"`
}

// WrittenFile is one file change_files wrote or deleted.
type WrittenFile struct {
	Operation string `json:"operation"`
	Path      string `json:"path"`
	SHA       string `json:"sha,omitempty"`
}

// staleSHA names the file whose sha the forge found out of date: its
// message ("sha does not match [given: X, expected: Y]") names only SHAs.
// shas are the SHAs sent for each item (a replace sends the one it read).
func staleSHA(err error, files []tool.Args, shas []string) error {
	var fe *forgejo.Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Message, "sha does not match") {
		return err
	}
	for i, f := range files {
		if sha := shas[i]; sha != "" && strings.Contains(fe.Message, "given: "+sha) {
			if f.String("operation") == "replace" {
				return fmt.Errorf("%w; files[%d] (%s) changed on the branch while it was being edited: try again", err, i, f.String("path"))
			}
			return fmt.Errorf("%w; files[%d] (%s) has an out-of-date sha: read the file's current one with get_file_content", err, i, f.String("path"))
		}
	}
	return err
}

func changeFiles(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	files := a.Objects("files")
	edits, err := applyReplaces(ctx, c, a, files)
	if err != nil {
		return nil, err
	}
	// opOf[i] is the operation sent for files[i]: the replaces of one file
	// are sent as one update, at the first of them.
	ops := make([]fileOp, 0, len(files))
	opOf, shas := make([]int, len(files)), make([]string, len(files))
	for i, f := range files {
		if e := edits[f.String("path")]; e != nil && f.String("operation") == "replace" {
			shas[i] = e.sha
			if e.first != i {
				opOf[i] = opOf[e.first]
				continue
			}
			opOf[i] = len(ops)
			ops = append(ops, fileOp{Operation: "update", Path: f.String("path"), SHA: e.sha, Content: e.text, HasContent: true})
			continue
		}
		opOf[i], shas[i] = len(ops), f.String("sha")
		ops = append(ops, fileOp{Operation: f.String("operation"), Path: f.String("path"), SHA: f.String("sha"),
			FromPath: f.String("from_path"), Content: f.String("content"), HasContent: f.Has("content")})
	}
	p, err := tool.RepoRoute(a, "contents")
	if err != nil {
		return nil, err
	}
	branch := a.String("branch")
	subject := fmt.Sprintf("%d files in %s", len(files), tool.FullName(a))
	if len(files) == 1 {
		subject = fmt.Sprintf("file %s in %s", files[0].String("path"), tool.FullName(a))
	}
	if branch != "" {
		subject += "@" + branch
	}
	// The forge's FilesResponse; the SDK has no type for it.
	var fr struct {
		Files  []*sdk.ContentsResponse `json:"files"`
		Commit *sdk.FileCommitResponse `json:"commit"`
	}
	body, length, err := filesBody(ops, map[string]string{"message": a.String("message"), "branch": branch, "new_branch": a.String("new_branch")})
	if err != nil {
		return nil, err
	}
	defer body.Close()
	if err := c.DoJSONReader(ctx, "POST", p, nil, body, length, &fr); err != nil {
		err = whichMissing(ctx, c, a, forgejo.Relabel(err, "change", subject), fmt.Sprintf("branch %q", branch), branch, "")
		return nil, staleSHA(err, files, shas)
	}
	out := Changed{Branch: a.String("new_branch"), Files: make([]WrittenFile, len(files))}
	if out.Branch == "" {
		out.Branch = branch
	}
	if fr.Commit != nil {
		out.Commit, out.CommitURL = fr.Commit.SHA, fr.Commit.HTMLURL
	}
	for i, f := range files {
		out.Files[i] = WrittenFile{Operation: f.String("operation"), Path: f.String("path")}
		if k := opOf[i]; k < len(fr.Files) && fr.Files[k] != nil && f.String("operation") != "delete" {
			out.Files[i].SHA = fr.Files[k].SHA
		}
	}
	return tool.JSON(out)
}
