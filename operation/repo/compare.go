package repo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// maxCompareCommits bounds the commits one compare_commits result lists;
// total_commits still counts them all.
const maxCompareCommits = 100

func compareTool() tool.Def {
	return tool.Def{
		Name: "compare_commits", Title: "Compare two commits", Toolset: Toolset,
		Description: "Compare: the commits head has that base lacks, and the files they change",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("base", "Branch, tag or SHA", tool.Required(), tool.MaxLen(255)),
			tool.Str("head", "Branch, tag or SHA", tool.Required(), tool.MaxLen(255))},
		Annotations: tool.Read(), Handler: compareCommits, Output: Comparison{},
	}
}

// CompareCommit is one commit of a comparison, with its own line counts.
type CompareCommit struct {
	SHA     string `json:"sha"`
	Message string `json:"message" trust:"text"`
	// Author and AuthorName as in Commit: a login, or else a name.
	Author     string    `json:"author,omitempty" trust:"author"`
	AuthorName string    `json:"author_name,omitempty"`
	Date       time.Time `json:"date"`
	Additions  int       `json:"additions"`
	Deletions  int       `json:"deletions"`
}

// Comparison is what head changes relative to base: its commits, newest
// first, and the files they change with the net status (per-file line
// counts: get_commit on each commit).
type Comparison struct {
	Base         string          `json:"base"`
	Head         string          `json:"head"`
	TotalCommits int             `json:"total_commits"`
	Commits      []CompareCommit `json:"commits"`
	Files        []ChangedFile   `json:"files"`
	Note         string          `json:"note,omitempty"`
}

type rawCompare struct {
	TotalCommits int         `json:"total_commits"`
	Commits      []rawCommit `json:"commits"`
	// Files is Forgejo's: every listed commit's files, newest commit
	// first, concatenated (recorded on 13.0.5: duplicates, and files added
	// then removed). Gitea sends none. The net list is built from the
	// commits' own files on both; Files only stands in for them when the
	// commits carry none.
	Files []rawFile `json:"files"`
}

type rawFile struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

func compareCommits(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	base, err := refSegment(ctx, c, a, a.String("base"))
	if err != nil {
		return nil, err
	}
	head, err := refSegment(ctx, c, a, a.String("head"))
	if err != nil {
		return nil, err
	}
	p, err := tool.RepoRoute(a, "compare", base+"..."+head)
	if err != nil {
		return nil, err
	}
	var r rawCompare
	if err := c.DoJSON(ctx, "GET", p, nil, nil, &r); err != nil {
		err = forgejo.Relabel(err, "compare", fmt.Sprintf("%s with %s in %s", a.String("head"), a.String("base"), tool.FullName(a)))
		if e := whichMissing(ctx, c, a, err, fmt.Sprintf("base %q", a.String("base")), base, ""); e != err {
			return nil, e
		}
		return nil, whichMissing(ctx, c, a, err, fmt.Sprintf("head %q", a.String("head")), head, "")
	}
	out := Comparison{Base: base, Head: head, TotalCommits: r.TotalCommits, Commits: []CompareCommit{}, Files: []ChangedFile{}}
	for i := range r.Commits {
		if i == maxCompareCommits {
			out.Note = fmt.Sprintf("only the newest %d of %d commits are listed; list the rest with list_repo_commits (sha=%s)", maxCompareCommits, r.TotalCommits, head)
			break
		}
		out.Commits = append(out.Commits, compareCommit(&r.Commits[i]))
	}
	var changes []rawFile
	for _, rc := range r.Commits {
		changes = append(changes, rc.Files...)
	}
	if len(changes) == 0 {
		changes = r.Files
	}
	for _, f := range netFiles(changes) {
		out.Files = append(out.Files, ChangedFile{Filename: f.Filename, Status: f.Status})
	}
	return tool.JSON(out)
}

func compareCommit(rc *rawCommit) CompareCommit {
	out := CompareCommit{SHA: rc.SHA, Message: firstLine(rc.Commit.Message)}
	if id := rc.Commit.Author; id != nil {
		out.AuthorName = id.Name
		out.Date, _ = time.Parse(time.RFC3339, id.Date)
	}
	if rc.Author != nil && rc.Author.Login != "" {
		out.Author, out.AuthorName = rc.Author.Login, ""
	}
	if rc.Stats != nil {
		out.Additions, out.Deletions = rc.Stats.Additions, rc.Stats.Deletions
	}
	return out
}

// netFiles is the net change of a sequence of file changes, newest first
// (the commits' files in the order the forge lists the commits, or
// Forgejo's concatenation of them): each file once, sorted, with its
// status across them all: added if its oldest change adds it, removed if
// its newest removes it, left out if it is added and removed again, else
// its newest status.
func netFiles(changes []rawFile) []rawFile {
	first := map[string]string{}
	last := map[string]string{}
	var order []string
	for i := len(changes) - 1; i >= 0; i-- { // oldest first
		f := changes[i]
		if _, seen := first[f.Filename]; !seen {
			first[f.Filename] = f.Status
			order = append(order, f.Filename)
		}
		last[f.Filename] = f.Status
	}
	slices.Sort(order)
	out := make([]rawFile, 0, len(order))
	for _, name := range order {
		status := last[name]
		switch {
		case first[name] == "added" && status == "removed":
			continue
		case first[name] == "added":
			status = "added"
		}
		out = append(out, rawFile{Filename: name, Status: status})
	}
	return out
}
