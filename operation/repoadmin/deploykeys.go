package repoadmin

import (
	"context"
	"strconv"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// DeployKey is an SSH key that reaches one repository; its public key is
// left out (the fingerprint names it).
type DeployKey struct {
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	Fingerprint string     `json:"fingerprint"`
	ReadOnly    bool       `json:"read_only"`
	Created     *time.Time `json:"created_at,omitempty"`
}

func compactDeployKey(k *sdk.DeployKey) DeployKey {
	return DeployKey{ID: k.ID, Title: k.Title, Fingerprint: k.Fingerprint, ReadOnly: k.ReadOnly, Created: forgejo.TimePtr(&k.Created)}
}

func deployKeyTools() []tool.Def {
	id := tool.ID("id", "Deploy key ID (list_deploy_keys)")
	return []tool.Def{
		{
			Name: "list_deploy_keys", Toolset: AccessToolset,
			Title: "List deploy keys", Output: tool.ListPage[DeployKey]{},
			Description: "List a repository's deploy keys",
			Params:      with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listDeployKeys,
		},
		{
			Name: "get_deploy_key", Toolset: AccessToolset,
			Title: "Get a deploy key", Output: DeployKey{},
			Description: "Get a repository's deploy key by ID",
			Params:      with(id), Annotations: tool.Read(), Handler: getDeployKey,
		},
		{
			Name: "create_deploy_key", Toolset: AccessToolset,
			Title: "Add a deploy key", Output: DeployKey{},
			Description: "Let a public key clone (or, writable true, push to) one repository",
			Params: with(tool.Str("title", "Key title", tool.Required(), tool.MaxLen(255)),
				tool.Str("key", "Public key line, as in a .pub file", tool.Required(), tool.MaxLen(16384), tool.Secret()),
				tool.Bool("writable", "Also let the key push", tool.Default(false))),
			Annotations: tool.Write(false), Handler: createDeployKey,
		},
		{
			Name: "delete_deploy_key", Toolset: AccessToolset,
			Title: "Delete a deploy key", Output: tool.DeletedOutput("id", int64(0)),
			Description: "Remove a deploy key from a repository",
			Params:      with(id), Annotations: tool.Destroy(true), Handler: deleteDeployKey,
		},
	}
}

func deployKeyRef(a tool.Args) string {
	return "deploy key " + strconv.FormatInt(a.Int("id"), 10) + " of " + tool.RepoRef(a)
}

func listDeployKeys(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListDeployKeys(a.String("owner"), a.String("repo"), sdk.ListDeployKeysOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list deploy keys of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactDeployKey)
}

func getDeployKey(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	k, resp, err := c.SDK(ctx).GetDeployKey(a.String("owner"), a.String("repo"), a.Int("id"))
	if err := forgejo.Fail(resp, err, "get", deployKeyRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactDeployKey(k))
}

// createDeployKey checks the key is a public key line before sending it;
// the error never quotes it (a private key pasted by mistake stays out of
// results and logs: the parameter is never logged either).
func createDeployKey(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if res := tool.CheckPublicKey(a.String("key")); res != nil {
		return res, nil
	}
	k, resp, err := c.SDK(ctx).CreateDeployKey(a.String("owner"), a.String("repo"), sdk.CreateKeyOption{
		Title: a.String("title"), Key: strings.TrimSpace(a.String("key")), ReadOnly: !a.Bool("writable")})
	if err := forgejo.Fail(resp, err, "add deploy key "+a.String("title")+" to", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactDeployKey(k))
}

func deleteDeployKey(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteDeployKey(a.String("owner"), a.String("repo"), a.Int("id"))
	if err := forgejo.Fail(resp, err, "delete", deployKeyRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("id", a.Int("id"))
}
