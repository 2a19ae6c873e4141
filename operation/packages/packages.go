// Package packages has the tools for an owner's packages in the forge's
// package registry: list and read them (a version and its files), delete
// a version, and link a package to a repository or unlink it.
package packages

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the packages toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "packages", Description: "Package registry: list, read, delete and link packages"}

// typePattern is a package type's spelling (npm, container, pypi…); the
// forge says which it knows.
var typePattern = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// Package is one version of a package.
type Package struct {
	ID         int64      `json:"id"`
	Type       string     `json:"type"`
	Name       string     `json:"name"`
	Version    string     `json:"version"`
	Repository string     `json:"repository,omitempty" trust:"repo"`
	Creator    string     `json:"creator,omitempty" trust:"author"`
	Created    *time.Time `json:"created_at,omitempty"`
	HTMLURL    string     `json:"html_url,omitempty"`
}

// File is one file of a package version.
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"`
}

type rawPackage struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	Repository *struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
	Creator *struct {
		Login string `json:"login"`
	} `json:"creator"`
	CreatedAt time.Time `json:"created_at"`
	HTMLURL   string    `json:"html_url"`
}

func (p *rawPackage) compact() Package {
	out := Package{ID: p.ID, Type: p.Type, Name: p.Name, Version: p.Version, HTMLURL: p.HTMLURL, Created: forgejo.TimePtr(&p.CreatedAt)}
	if p.Repository != nil {
		out.Repository = p.Repository.FullName
	}
	if p.Creator != nil {
		out.Creator = p.Creator.Login
	}
	return out
}

// Tools returns the packages toolset.
func Tools() []tool.Def {
	owner := tool.Named("owner", "User or org owning the packages")
	typ := func(opts ...tool.Opt) tool.Param {
		return tool.Str("type", "Package type: npm, container, pypi, maven, generic…",
			append(opts, tool.MaxLen(50), tool.Match(typePattern, "a package type such as npm or container"))...)
	}
	name := tool.Str("name", "Package name", tool.Required(), tool.MaxLen(512))
	// Not "version": --cli has a --version flag of its own.
	version := tool.Str("package_version", "Package version", tool.Required(), tool.MaxLen(512))
	one := []tool.Param{owner, typ(tool.Required()), name, version}
	return append([]tool.Def{
		{
			Name: "list_packages", Toolset: Toolset,
			Title: "List packages", Output: tool.ListPage[Package]{},
			Description: "List the package versions a user or organisation owns, newest first",
			Params:      []tool.Param{owner, typ(), tool.Str("query", "Filter by name", tool.MaxLen(255)), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: list,
		},
		{
			Name: "get_package", Toolset: Toolset,
			Title: "Get a package version", Output: Package{},
			Description: "Get one version of a package",
			Params:      one, Annotations: tool.Read(), Handler: get,
		},
		{
			Name: "list_package_files", Toolset: Toolset,
			Title: "List a package version's files", Output: tool.Shape{"items": []File{}},
			Description: "List the files of a package version with their sizes and SHA-256",
			Params:      one, Annotations: tool.Read(), Handler: files,
		},
		{
			Name: "delete_package", Toolset: Toolset,
			Title: "Delete a package version", Output: tool.DeletedOutput("package_version", ""),
			Description: "Delete one version of a package and its files",
			Params:      one, Annotations: tool.Destroy(true), Handler: deleteVersion,
		},
		{
			Name: "link_package", Toolset: Toolset,
			Title: "Link a package to a repository", Output: tool.Shape{"linked": "", "repo": ""},
			Description: "Link a package to a repository of its owner, so it shows there",
			Params: []tool.Param{owner, typ(tool.Required()), name,
				tool.Str("repo", "Repository of the owner to link to", tool.Required(), tool.MaxLen(100))},
			Annotations: tool.Write(true), Handler: link,
		},
		{
			Name: "unlink_package", Toolset: Toolset,
			Title: "Unlink a package from its repository", Output: tool.Shape{"unlinked": ""},
			Description: "Unlink a package from the repository it is linked to",
			Params:      []tool.Param{owner, typ(tool.Required()), name}, Annotations: tool.Write(true), Handler: unlink,
		},
	}, versionTools(owner, typ(tool.Required()), name)...)
}

func ref(a tool.Args) string {
	return fmt.Sprintf("%s package %s of %s", a.String("type"), a.String("name"), a.String("owner"))
}

func versionRef(a tool.Args) string { return ref(a) + " version " + a.String("package_version") }

func list(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"))
	if err != nil {
		return nil, err
	}
	q := tool.PageQuery(a)
	for param, arg := range map[string]string{"type": "type", "q": "query"} {
		if v := a.String(arg); v != "" {
			q.Set(param, v)
		}
	}
	var raw []*rawPackage
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "list the packages of", a.String("owner"))
	}
	return tool.Items(tool.Map(raw, (*rawPackage).compact), a.Int("page"), int64(len(raw)) >= a.Int("limit"))
}

func get(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), a.String("package_version"))
	if err != nil {
		return nil, err
	}
	var raw rawPackage
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "get", versionRef(a))
	}
	return tool.JSON(raw.compact())
}

func files(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), a.String("package_version"), "files")
	if err != nil {
		return nil, err
	}
	var out []File
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &out); err != nil {
		return nil, forgejo.Relabel(err, "list the files of", versionRef(a))
	}
	if out == nil {
		out = []File{}
	}
	return tool.JSON(map[string]any{"items": out})
}

func deleteVersion(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), a.String("package_version"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", versionRef(a))
	}
	return tool.Deleted("package_version", a.String("package_version"))
}

func link(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), "-", "link", a.String("repo"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "link "+ref(a)+" to", a.String("owner")+"/"+a.String("repo"))
	}
	return tool.JSON(map[string]string{"linked": a.String("name"), "repo": a.String("owner") + "/" + a.String("repo")})
}

func unlink(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), "-", "unlink")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "unlink", ref(a))
	}
	return tool.JSON(map[string]string{"unlinked": a.String("name")})
}
