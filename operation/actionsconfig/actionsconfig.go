// Package actionsconfig has the tools that set up CI without the web UI:
// the Actions secrets (write-only: a value goes to the forge and never
// comes back, in a result, an error or a log) and variables of a
// repository, an organisation and the token's user.
package actionsconfig

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the actions-config toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "actions-config", Description: "Actions secrets (write-only), variables and runners of a repository, an organisation or the user"}

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

// Tools returns the actions-config toolset: the same tools on each level.
func Tools() []tool.Def {
	var out []tool.Def
	for _, l := range levels() {
		out = append(out, slices.Concat(l.tools(), l.runnerTools())...)
	}
	return out
}

func (l level) tools() []tool.Def {
	name := func(what string) tool.Param {
		return tool.Str("name", what+" name", tool.Required(), tool.MaxLen(255), tool.Match(namePattern, nameHint))
	}
	value := tool.Str("value", "Value", tool.Required(), tool.MaxLen(65536))
	var defs []tool.Def
	if l.listSecrets != nil {
		defs = append(defs, tool.Def{
			Name: "list_" + l.noun + "_action_secrets", Toolset: Toolset,
			Title: "List " + l.title + " Actions secrets", Output: tool.ListPage[Secret]{},
			Description: "List " + l.whose + " Actions secrets: names only, values are never readable",
			Params:      l.with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: l.listSecretsTool,
		})
	}
	return append(defs,
		tool.Def{
			Name: "upsert_" + l.noun + "_action_secret", Toolset: Toolset,
			Title: "Set a " + l.title + " Actions secret", Output: tool.Shape{"set": true, "name": ""},
			Description: "Create or replace " + l.whose + " Actions secret; the value is write-only",
			Params: l.with(name("Secret"),
				tool.Str("value", "Secret value, never shown again", tool.Required(), tool.MaxLen(65536), tool.Secret())),
			Annotations: tool.Destroy(true), LargeArgs: true, Handler: l.upsertSecret,
		},
		tool.Def{
			Name: "delete_" + l.noun + "_action_secret", Toolset: Toolset,
			Title: "Delete a " + l.title + " Actions secret", Output: tool.DeletedOutput("name", ""),
			Description: "Delete " + l.whose + " Actions secret",
			Params:      l.with(name("Secret")), Annotations: tool.Destroy(true), Handler: l.deleteSecret,
		},
		tool.Def{
			Name: "list_" + l.noun + "_action_variables", Toolset: Toolset,
			Title: "List " + l.title + " Actions variables", Output: tool.ListPage[Variable]{},
			Description: "List " + l.whose + " Actions variables with their values",
			Params:      l.with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: l.listVariablesTool,
		},
		tool.Def{
			Name: "get_" + l.noun + "_action_variable", Toolset: Toolset,
			Title: "Get a " + l.title + " Actions variable", Output: Variable{},
			Description: "Get " + l.whose + " Actions variable by name",
			Params:      l.with(name("Variable")), Annotations: tool.Read(), Handler: l.getVariable,
		},
		tool.Def{
			Name: "create_" + l.noun + "_action_variable", Toolset: Toolset,
			Title: "Create a " + l.title + " Actions variable", Output: Variable{},
			Description: "Create " + l.whose + " Actions variable; fails if it exists (update_" + l.noun + "_action_variable changes one)",
			Params:      l.with(name("Variable"), value), Annotations: tool.Write(false), Handler: l.createVariable,
		},
		tool.Def{
			Name: "update_" + l.noun + "_action_variable", Toolset: Toolset,
			Title: "Update a " + l.title + " Actions variable", Output: Variable{},
			Description: "Change the value of " + l.whose + " Actions variable",
			Params:      l.with(name("Variable"), value), Annotations: tool.Destroy(true), Handler: l.updateVariable,
		},
		tool.Def{
			Name: "delete_" + l.noun + "_action_variable", Toolset: Toolset,
			Title: "Delete a " + l.title + " Actions variable", Output: tool.DeletedOutput("name", ""),
			Description: "Delete " + l.whose + " Actions variable",
			Params:      l.with(name("Variable")), Annotations: tool.Destroy(true), Handler: l.deleteVariable,
		},
	)
}

func (l level) secretRef(a tool.Args) string {
	return "Actions secret " + a.String("name") + " of " + l.ref(a)
}
func (l level) variableRef(a tool.Args) string {
	return "Actions variable " + a.String("name") + " of " + l.ref(a)
}

func (l level) listSecretsTool(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := l.listSecrets(ctx, c, a)
	if err := forgejo.Fail(resp, err, "list Actions secrets of", l.ref(a)); err != nil {
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
func (l level) upsertSecret(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.route(a, "secrets")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPut, p, nil, map[string]string{"data": a.String("value")}, nil); err != nil {
		return nil, forgejo.Relabel(err, "set", l.secretRef(a))
	}
	return tool.JSON(map[string]any{"set": true, "name": a.String("name")})
}

func (l level) deleteSecret(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return l.delete(ctx, c, a, "secrets", l.secretRef(a))
}

func (l level) deleteVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return l.delete(ctx, c, a, "variables", l.variableRef(a))
}

func (l level) delete(ctx context.Context, c *forgejo.Client, a tool.Args, kind, subject string) (*mcp.CallToolResult, error) {
	p, err := l.route(a, kind)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", subject)
	}
	return tool.Deleted("name", a.String("name"))
}

func compactVariable(v *sdk.ActionVariable) Variable { return Variable{Name: v.Name, Value: v.Data} }

func (l level) listVariablesTool(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := l.listVariables(ctx, c, a)
	if err := forgejo.Fail(resp, err, "list Actions variables of", l.ref(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactVariable)
}

func (l level) getVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.route(a, "variables")
	if err != nil {
		return nil, err
	}
	var v sdk.ActionVariable
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &v); err != nil {
		return nil, forgejo.Relabel(err, "get", l.variableRef(a))
	}
	return tool.JSON(compactVariable(&v))
}

// writeVariable creates (POST) or updates (PUT) a variable; the forge
// answers with no body, so the result is what was set.
func (l level) writeVariable(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string) (*mcp.CallToolResult, error) {
	p, err := l.route(a, "variables")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, method, p, nil, map[string]string{"value": a.String("value")}, nil); err != nil {
		return nil, forgejo.Relabel(err, verb, l.variableRef(a))
	}
	return tool.JSON(Variable{Name: a.String("name"), Value: a.String("value")})
}

func (l level) createVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return l.writeVariable(ctx, c, a, http.MethodPost, "create")
}

func (l level) updateVariable(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return l.writeVariable(ctx, c, a, http.MethodPut, "update")
}
