// Package tool is the tool model: one declarative definition per tool that
// MCP registration, --cli flags, the README table and the schema snapshot
// all read. A definition names the tool, its toolset, what it does, its typed
// parameters, its behaviour hints and its handler.
package tool

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Handler runs one tool call: arguments are already validated against the
// definition's parameters. It makes its forge call through c and shapes the
// result; an error becomes an isError result for the agent.
type Handler func(ctx context.Context, c *forgejo.Client, a Args) (*mcp.CallToolResult, error)

// Def is one tool.
type Def struct {
	Name string
	// Title is the human name clients show ("List repository issues").
	Title       string
	Toolset     Toolset
	Description string
	Params      []Param
	Annotations Annotations
	Handler     Handler
	// Output is a zero value of the type the handler's JSON result encodes
	// (Repo{}, tool.ListPage[Repo]{}…): the tool's outputSchema is
	// generated from it. Nil for a tool whose result is not one JSON value.
	Output any
	// Unadvertised keeps Output's schema out of tools/list (and so sends
	// no structuredContent) while Output still types the result for the
	// Runner's passes (the hidden-text marks): for a tool in the default
	// selection whose schema its tools/list budget cannot carry.
	Unadvertised bool
	// Offline tools work without a forge: c is nil when none is
	// configured (the version tool still asks a configured one its
	// flavour).
	Offline bool
	// CLIFile names a base64 parameter that --cli can fill from --file PATH.
	CLIFile string
	// LargeArgs tools carry file contents or uploads in their arguments:
	// the Runner bounds them by MaxLargeArgBytes (sized for the largest
	// upload in base64) instead of the much smaller MaxArgBytes.
	LargeArgs bool
	// Aliases maps another spelling of a parameter (the established
	// Forgejo MCP server's, so its users' scripts keep working) to the
	// parameter's name. Parse accepts them; nothing advertises them.
	// operation.All fills them from its one compatibility table.
	Aliases map[string]string
	// Reach says which repositories a call touches, for repository
	// scoping (reach.go); operation.All fills it from its one table where
	// the parameters do not say it plainly.
	Reach Reach
	// TextBy names the author of the texts a result does not attribute
	// itself (an issue attachment's name is its issue's author's), for
	// author marks and lockdown; nil for none.
	TextBy *TextBy
	// Forward, set on the meta-tool call_tool, names the tool a call runs
	// in its place and that tool's arguments (dispatch.go); its Handler is
	// never reached through a Runner.
	Forward Forward
}

// Annotations are the behaviour hints sent to clients. Every tool sets all
// four explicitly; mcp-go's defaults would claim every tool destructive.
type Annotations struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Read is the annotation set of a tool that only reads from the forge.
func Read() Annotations { return Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true} }

// Write is the annotation set of a tool that only adds to the forge (the
// MCP spec's destructiveHint false); idempotent says whether repeating it
// changes nothing.
func Write(idempotent bool) Annotations {
	return Annotations{Idempotent: idempotent, OpenWorld: true}
}

// Destroy is the annotation set of a tool that deletes, or overwrites or
// replaces what exists (an edit, an update, a merge).
func Destroy(idempotent bool) Annotations {
	return Annotations{Destructive: true, Idempotent: idempotent, OpenWorld: true}
}

// Type is a parameter's JSON type.
type Type string

// Parameter types.
const (
	TypeString  Type = "string"
	TypeInteger Type = "integer"
	TypeBoolean Type = "boolean"
	TypeList    Type = "array" // a list of strings
)

// Param is one typed parameter with its constraints.
type Param struct {
	Name        string
	Type        Type
	Description string
	Required    bool
	Default     any // string, int64 or bool
	Min, Max    *int64
	MaxLength   int
	Enum        []string
	Pattern     *regexp.Regexp
	// PatternHint says in words what Pattern accepts, for error messages.
	PatternHint string
	// Sensitive values (file content) are never logged.
	Sensitive bool
	// Items are the item fields of a TypeObjects list (objects.go).
	Items *ItemSpec
}

// Opt refines a Param.
type Opt func(*Param)

// Required marks a parameter as required.
func Required() Opt { return func(p *Param) { p.Required = true } }

// Default sets the value used when the parameter is absent.
func Default(v any) Opt {
	return func(p *Param) {
		if i, ok := v.(int); ok {
			v = int64(i)
		}
		p.Default = v
	}
}

// Range bounds an integer parameter.
func Range(min, max int64) Opt { return func(p *Param) { p.Min, p.Max = &min, &max } }

// AtLeast bounds an integer parameter from below.
func AtLeast(min int64) Opt { return func(p *Param) { p.Min = &min } }

// MaxLen bounds a string's length in bytes.
func MaxLen(n int) Opt { return func(p *Param) { p.MaxLength = n } }

// OneOf restricts a string to the given values.
func OneOf(values ...string) Opt { return func(p *Param) { p.Enum = values } }

// Match restricts a string to a pattern, explained by hint.
func Match(re *regexp.Regexp, hint string) Opt {
	return func(p *Param) { p.Pattern, p.PatternHint = re, hint }
}

// Secret keeps the value out of logs.
func Secret() Opt { return func(p *Param) { p.Sensitive = true } }

func newParam(name string, t Type, desc string, opts []Opt) Param {
	p := Param{Name: name, Type: t, Description: desc}
	for _, o := range opts {
		o(&p)
	}
	return p
}

// Str declares a string parameter.
func Str(name, desc string, opts ...Opt) Param { return newParam(name, TypeString, desc, opts) }

// Int declares an integer parameter.
func Int(name, desc string, opts ...Opt) Param { return newParam(name, TypeInteger, desc, opts) }

// Bool declares a boolean parameter.
func Bool(name, desc string, opts ...Opt) Param { return newParam(name, TypeBoolean, desc, opts) }

// Strs declares a list-of-strings parameter.
func Strs(name, desc string, opts ...Opt) Param { return newParam(name, TypeList, desc, opts) }

// With returns a copy of p refined by opts, e.g. a shared parameter made
// optional or given another default.
func (p Param) With(opts ...Opt) Param {
	for _, o := range opts {
		o(&p)
	}
	return p
}

// Optional returns a copy of p that is not required.
func (p Param) Optional() Param { p.Required = false; return p }

// Describe returns a copy of p with another description.
func (p Param) Describe(desc string) Param { p.Description = desc; return p }

// AnnotationSummary describes annotations in words, for help and docs.
func AnnotationSummary(a Annotations) string {
	switch {
	case a.ReadOnly:
		return "read-only"
	case a.Destructive && a.Idempotent:
		return "destructive, idempotent"
	case a.Destructive:
		return "destructive"
	case a.Idempotent:
		return "write, idempotent"
	}
	return "write"
}

// ParamSummary describes a parameter in one line: description, required,
// default and constraints.
func ParamSummary(p Param) string {
	s := p.Description
	var notes []string
	if p.Required {
		notes = append(notes, "required")
	}
	if p.Default != nil {
		notes = append(notes, fmt.Sprintf("default %v", p.Default))
	}
	if len(p.Enum) > 0 {
		notes = append(notes, "one of "+strings.Join(p.Enum, ", "))
	}
	if p.Min != nil && p.Max != nil {
		notes = append(notes, fmt.Sprintf("%d-%d", *p.Min, *p.Max))
	} else if p.Min != nil {
		notes = append(notes, fmt.Sprintf("at least %d", *p.Min))
	}
	if p.Type == TypeObjects {
		notes = append(notes, p.objectsSummary())
	}
	if p.Type == TypeMap {
		notes = append(notes, fmt.Sprintf(`an object of strings, as JSON: --%s '{"name":"value"}'`, strings.ReplaceAll(p.Name, "_", "-")))
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}
