package packages

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// One package's versions, Gitea's routes (no described Forgejo has them:
// forgejo.Routes refuses them there, pointing at list_packages, which
// lists every version whose name matches a query on both flavours).

func versionTools(owner, typ, name tool.Param) []tool.Def {
	return []tool.Def{
		{
			Name: "list_package_versions", Toolset: Toolset,
			Title: "List a package's versions", Output: tool.ListPage[Package]{},
			Description: "List the versions of one package, newest first (Gitea)",
			Params:      []tool.Param{owner, typ, name, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listVersions,
		},
		{
			Name: "get_latest_package_version", Toolset: Toolset,
			Title: "Get a package's latest version", Output: Package{},
			Description: "Get the newest version of a package (Gitea)",
			Params:      []tool.Param{owner, typ, name}, Annotations: tool.Read(), Handler: latest,
		},
	}
}

func listVersions(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"))
	if err != nil {
		return nil, err
	}
	var raw []*rawPackage
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "list the versions of", ref(a))
	}
	return tool.Items(tool.Map(raw, (*rawPackage).compact), a.Int("page"), int64(len(raw)) >= a.Int("limit"))
}

func latest(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("packages", a.String("owner"), a.String("type"), a.String("name"), "-", "latest")
	if err != nil {
		return nil, err
	}
	var raw rawPackage
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "get the latest version of", ref(a))
	}
	return tool.JSON(raw.compact())
}
