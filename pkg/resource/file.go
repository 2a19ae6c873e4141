package resource

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// fileTool names the definition a file read runs as. It is not offered as
// a tool (get_file_content and list_repo_contents are): it exists so that
// a file resource goes through the Runner like every read, and is offered
// as a template whenever get_file_content is.
const fileTool = "read_file_resource"

// fileDef reads one path with one contents call: a file comes back whole
// (text as text, anything else as a blob), a directory as its listing.
func fileDef(ts tool.Toolset) tool.Def {
	return tool.Def{
		Name: fileTool, Title: "Read a repository file or directory", Toolset: ts,
		Description: "Read a file whole, or list a directory",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("path", "File or directory path (empty: the root)", tool.MaxLen(forgejo.MaxFilePathBytes)),
			tool.Str("ref", "Branch, tag or commit", tool.MaxLen(255))},
		Annotations: tool.Read(), Handler: readFile,
	}
}

// ContentsRoute is the contents API route of path p in owner/repo, each
// part checked and escaped; "" is the root (.../contents/, the forge's own
// route for it, so no argument shortens the route).
func ContentsRoute(owner, repo, p string) (string, error) {
	prefix := []string{"repos", owner, repo, "contents"}
	if p == "" {
		route, err := forgejo.Path(prefix...)
		return route + "/", err
	}
	return forgejo.FilePath(prefix, p)
}

// Entry is one directory entry of a directory resource, with the URI that
// reads it.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	Path string `json:"path"`
	URI  string `json:"uri"`
}

// Listing is a directory resource.
type Listing struct {
	Path    string  `json:"path"`
	Ref     string  `json:"ref,omitempty"`
	Entries []Entry `json:"entries"`
}

func readFile(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p := strings.TrimSuffix(a.String("path"), "/")
	route, err := ContentsRoute(a.String("owner"), a.String("repo"), p)
	if err != nil {
		return nil, err
	}
	subject := fmt.Sprintf("path %q in %s", p, tool.FullName(a))
	if ref := a.String("ref"); ref != "" {
		subject += "@" + ref
	}
	var q url.Values
	if ref := a.String("ref"); ref != "" {
		q = url.Values{"ref": {ref}}
	}
	var raw json.RawMessage
	if err := c.DoJSON(ctx, http.MethodGet, route, q, nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "read", subject)
	}
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		return listing(a, p, raw)
	}
	var cr sdk.ContentsResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return nil, &forgejo.Error{Verb: "read", Subject: subject, Status: 200, Cause: err}
	}
	switch {
	case cr.Type != "file":
		return nil, fmt.Errorf("%s is a %s, not a file or directory: it has no content", subject, forgejo.Clip(cr.Type))
	case cr.Content == nil:
		return nil, fmt.Errorf("%s is too large for the forge's contents API (%d bytes); clone the repository to read it", subject, cr.Size)
	case cr.Encoding != nil && *cr.Encoding != "base64":
		return nil, fmt.Errorf("%s: the forge sent an unknown content encoding %q", subject, forgejo.Clip(*cr.Encoding))
	}
	data, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\n", "", "\r", "").Replace(*cr.Content))
	if err != nil {
		return nil, &forgejo.Error{Verb: "read", Subject: subject, Status: 200, Cause: err}
	}
	mt := mime.TypeByExtension(path.Ext(p))
	if !tool.IsBinary(data) {
		if mt == "" || !tool.IsTextType(mt) {
			mt = "text/plain"
		}
		if base, _, err := mime.ParseMediaType(mt); err == nil {
			mt = base
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewEmbeddedResource(mcp.TextResourceContents{MIMEType: mt, Text: string(data)})}}, nil
	}
	if mt == "" {
		mt = http.DetectContentType(data)
	}
	if base, _, err := mime.ParseMediaType(mt); err == nil {
		mt = base
	}
	return &mcp.CallToolResult{Content: []mcp.Content{tool.Blob("", mt, data)}}, nil
}

func listing(a tool.Args, dir string, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var list []*sdk.ContentsResponse
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("list %q in %s: the forge's answer is not a listing: %w", dir, tool.FullName(a), err)
	}
	out := Listing{Path: dir, Ref: a.String("ref"), Entries: []Entry{}}
	for _, e := range list {
		if e == nil {
			continue
		}
		args := map[string]any{"owner": a.String("owner"), "repo": a.String("repo"), "path": e.Path}
		if e.Type == "dir" {
			args["path"] = e.Path + "/"
		}
		if out.Ref != "" {
			args["ref"] = out.Ref
		}
		out.Entries = append(out.Entries, Entry{Name: e.Name, Type: e.Type, Size: e.Size, Path: e.Path, URI: URI(KindFile, args)})
	}
	return tool.JSON(out)
}
