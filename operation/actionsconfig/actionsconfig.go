// Package actionsconfig has the tools that set up a repository's CI
// without the web UI: its Actions secrets (write-only: a value goes to
// the forge and never comes back, in a result, an error or a log) and
// its Actions variables.
package actionsconfig

import (
	"context"
	"net/http"
	"regexp"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the actions-config toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "actions-config", Description: "Actions secrets (write-only) and variables of a repository"}

// namePattern is what Forgejo and Gitea accept as a secret's or a
// variable's name (their secret_service and variable_service): a letter
// or an underscore, then letters, digits and underscores. The GITEA_,
// GITHUB_ and FORGEJO_ prefixes they also refuse are left to their error.
var namePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

const nameHint = "letters, digits and underscores, not starting with a digit"

// Secret is a secret as listed: its value is never sent back by the forge.
type Secret struct {
	Name    string     `json:"name"`
	Created *time.Time `json:"created_at,omitempty"`
}

// Variable is an Actions variable.
type Variable struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Tools returns the actions-config toolset.
func Tools() []tool.Def {
	base := []tool.Param{tool.Owner(), tool.Repo()}
	name := func(what string) tool.Param {
		return tool.Str("name", what+" name", tool.Required(), tool.MaxLen(255), tool.Match(namePattern, nameHint))
	}
	value := tool.Str("value", "Value", tool.Required(), tool.MaxLen(65536))
	return []tool.Def{
		{
			Name: "list_repo_action_secrets", Toolset: Toolset,
			Title: "List repository Actions secrets", Output: tool.ListPage[Secret]{},
			Description: "List a repository's Actions secrets: names only, values are never readable",
			Params:      append(base[:2:2], tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listSecrets,
		},
		{
			Name: "upsert_repo_action_secret", Toolset: Toolset,
			Title: "Set a repository Actions secret", Output: tool.Shape{"set": true, "name": ""},
			Description: "Create or replace a repository's Actions secret; the value is write-only",
			Params: append(base[:2:2], name("Secret"),
				tool.Str("value", "Secret value, never shown again", tool.Required(), tool.MaxLen(65536), tool.Secret())),
			Annotations: tool.Destroy(true), LargeArgs: true, Handler: upsertSecret,
		},
		{
			Name: "delete_repo_action_secret", Toolset: Toolset,
			Title: "Delete a repository Actions secret", Output: tool.DeletedOutput("name", ""),
			Description: "Delete a repository's Actions secret",
			Params:      append(base[:2:2], name("Secret")), Annotations: tool.Destroy(true), Handler: deleteSecret,
		},
		{
			Name: "list_repo_action_variables", Toolset: Toolset,
			Title: "List repository Actions variables", Output: tool.ListPage[Variable]{},
			Description: "List a repository's Actions variables with their values",
			Params:      append(base[:2:2], tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listVariables,
		},
		{
			Name: "get_repo_action_variable", Toolset: Toolset,
			Title: "Get a repository Actions variable", Output: Variable{},
			Description: "Get a repository's Actions variable by name",
			Params:      append(base[:2:2], name("Variable")), Annotations: tool.Read(), Handler: getVariable,
		},
		{
			Name: "create_repo_action_variable", Toolset: Toolset,
			Title: "Create a repository Actions variable", Output: Variable{},
			Description: "Create a repository's Actions variable; fails if it exists (update_repo_action_variable changes one)",
			Params:      append(base[:2:2], name("Variable"), value), Annotations: tool.Write(false), Handler: createVariable,
		},
		{
			Name: "update_repo_action_variable", Toolset: Toolset,
			Title: "Update a repository Actions variable", Output: Variable{},
			Description: "Change the value of a repository's Actions variable",
			Params:      append(base[:2:2], name("Variable"), value), Annotations: tool.Destroy(true), Handler: updateVariable,
		},
		{
			Name: "delete_repo_action_variable", Toolset: Toolset,
			Title: "Delete a repository Actions variable", Output: tool.DeletedOutput("name", ""),
			Description: "Delete a repository's Actions variable",
			Params:      append(base[:2:2], name("Variable")), Annotations: tool.Destroy(true), Handler: deleteVariable,
		},
	}
}

func secretRef(a tool.Args) string {
	return "Actions secret " + a.String("name") + " of " + tool.RepoRef(a)
}
func variableRef(a tool.Args) string {
	return "Actions variable " + a.String("name") + " of " + tool.RepoRef(a)
}

func listSecrets(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoActionSecret(a.String("owner"), a.String("repo"),
		sdk.ListRepoActionSecretOption{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list Actions secrets of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, func(s *sdk.Secret) Secret {
		return Secret{Name: s.Name, Created: forgejo.TimePtr(&s.Created)}
	})
}

// upsertSecret sends the value in the body only: the route names the
// secret, and the forge answers 201 (created) or 204 (replaced) with no
// body, so nothing of the value can come back. Errors are the forge's
// (a reserved GITEA_ prefix, a missing repository), which never quote a
// request body.
func upsertSecret(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "actions", "secrets", a.String("name"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPut, p, nil, map[string]string{"data": a.String("value")}, nil); err != nil {
		return nil, forgejo.Relabel(err, "set", secretRef(a))
	}
	return tool.JSON(map[string]any{"set": true, "name": a.String("name")})
}

func deleteSecret(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "actions", "secrets", a.String("name"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", secretRef(a))
	}
	return tool.Deleted("name", a.String("name"))
}

func compactVariable(v *sdk.ActionVariable) Variable { return Variable{Name: v.Name, Value: v.Data} }

func listVariables(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoActionVariables(a.String("owner"), a.String("repo"), tool.ListOptions(a))
	if err := forgejo.Fail(resp, err, "list Actions variables of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactVariable)
}

func getVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	v, resp, err := c.SDK(ctx).GetRepoActionVariable(a.String("owner"), a.String("repo"), a.String("name"))
	if err := forgejo.Fail(resp, err, "get", variableRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactVariable(v))
}

// writeVariable creates (POST) or updates (PUT) a variable; the forge
// answers with no body, so the result is what was set.
func writeVariable(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "actions", "variables", a.String("name"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, method, p, nil, map[string]string{"value": a.String("value")}, nil); err != nil {
		return nil, forgejo.Relabel(err, verb, variableRef(a))
	}
	return tool.JSON(Variable{Name: a.String("name"), Value: a.String("value")})
}

func createVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return writeVariable(ctx, c, a, http.MethodPost, "create")
}

func updateVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return writeVariable(ctx, c, a, http.MethodPut, "update")
}

func deleteVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "actions", "variables", a.String("name"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", variableRef(a))
	}
	return tool.Deleted("name", a.String("name"))
}
