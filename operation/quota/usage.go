package quota

import (
	"context"
	"net/http"
	"net/url"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Kinds are what list_quota_usage lists: one tool for the three lists the
// forge has per account (artifacts, attachments, packages), which take
// the same arguments and answer items of the same few fields.
var Kinds = []string{"artifacts", "attachments", "packages"}

func usageTools() []tool.Def {
	org := tool.Named("org", "Organisation (default: your account)").Optional()
	return []tool.Def{
		{
			Name: "get_quota", Toolset: Toolset, Title: "Get a quota", Output: Quota{},
			Description: "Your account's or an organisation's quota: its groups' rules (limits in bytes, -1 none) and the bytes used per kind",
			Params:      []tool.Param{org}, Annotations: tool.Read(), Handler: getQuota,
		},
		{
			Name: "list_quota_usage", Toolset: Toolset, Title: "List what counts towards a quota", Output: tool.ListPage[Usage]{},
			Description: "List the artifacts, attachments or packages counting towards your or an organisation's quota, with their sizes",
			Params:      []tool.Param{tool.Str("kind", "What to list", tool.Required(), tool.OneOf(Kinds...)), org, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listUsage,
		},
		{
			Name: "check_quota", Toolset: Toolset, Title: "Check a quota", Output: Check{},
			Description: "Whether your or an organisation's quota still allows writing a kind of data (a subject, as in quota rules)",
			Params:      []tool.Param{tool.Str("subject", "What would be written", tool.Required(), tool.OneOf(Subjects...)), org},
			Annotations: tool.Read(), Handler: checkQuota,
		},
	}
}

// Usage is one artifact, attachment or package counting towards a quota.
type Usage struct {
	Name    string `json:"name" trust:"text"`
	Size    int64  `json:"size"`
	Type    string `json:"type,omitempty"`
	Version string `json:"version,omitempty"`
	// URL is the web page of the artifact's run, the package version, or
	// the issue, comment or release holding the attachment.
	URL string `json:"html_url,omitempty"`
}

// Check is check_quota's answer.
type Check struct {
	Subject string `json:"subject"`
	Allowed bool   `json:"allowed"`
	For     string `json:"for"`
}

// wireUsage reads the three kinds' items (QuotaUsedArtifact,
// QuotaUsedAttachment, QuotaUsedPackage).
type wireUsage struct {
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	Type        string `json:"type"`
	Version     string `json:"version"`
	HTMLURL     string `json:"html_url"`
	ContainedIn *struct {
		HTMLURL string `json:"html_url"`
	} `json:"contained_in"`
}

// account is the route of the quota of the org argument (the token's
// user's when absent), and who that is for messages.
func account(a tool.Args, tail ...string) (p, who string, err error) {
	segs, who := []string{"user", "quota"}, "your account"
	if org := a.String("org"); org != "" {
		segs, who = []string{"orgs", org, "quota"}, "organisation "+org
	}
	p, err = forgejo.Path(append(segs, tail...)...)
	return p, who, err
}

func getQuota(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, who, err := account(a)
	if err != nil {
		return nil, err
	}
	var q wireInfo
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &q); err != nil {
		return nil, forgejo.Relabel(err, "get the quota of", who)
	}
	return tool.JSON(compactQuota(&q))
}

func listUsage(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	kind := a.String("kind")
	p, who, err := account(a, kind)
	if err != nil {
		return nil, err
	}
	var list []*wireUsage
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list the "+kind+" counting towards the quota of", who)
	}
	return tool.ListResult(a, nil, list, func(u *wireUsage) Usage {
		out := Usage{Name: u.Name, Size: u.Size, Type: u.Type, Version: u.Version, URL: u.HTMLURL}
		if u.ContainedIn != nil && out.URL == "" {
			out.URL = u.ContainedIn.HTMLURL
		}
		return out
	})
}

func checkQuota(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	subject := a.String("subject")
	p, who, err := account(a, "check")
	if err != nil {
		return nil, err
	}
	var ok bool
	if err := c.DoJSON(ctx, http.MethodGet, p, url.Values{"subject": {subject}}, nil, &ok); err != nil {
		return nil, forgejo.Relabel(err, "check "+subject+" against the quota of", who)
	}
	return tool.JSON(Check{Subject: subject, Allowed: ok, For: who})
}
