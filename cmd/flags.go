package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Flag parsing shared by the server and --cli: every error says what was
// wrong, suggests the flag that was probably meant, and points at the help;
// a scalar flag given twice is an error rather than a silent "last one
// wins", since in an MCP client's config the two are often far apart.

// serverFlags is a flag set with the server's flags bound to cfg.
func serverFlags(cfg *Config, env Env) *pflag.FlagSet {
	fs := pflag.NewFlagSet("forgejo-mcp", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetNormalizeFunc(normalizeFlag)
	cfg.registerFlags(fs, env)
	return fs
}

// errRepeated is a scalar flag given a second time.
type errRepeated struct {
	name, first, second string
}

func (e *errRepeated) Error() string {
	return fmt.Sprintf("--%s is given twice (%q, then %q): give it once", e.name, e.first, e.second)
}

// onceValue refuses a second Set of a scalar flag.
type onceValue struct {
	pflag.Value
	name  string
	first *string
}

func (v *onceValue) Set(s string) error {
	if v.first != nil {
		return &errRepeated{v.name, *v.first, s}
	}
	v.first = &s
	return v.Value.Set(s)
}

// onceOnly makes every scalar flag of fs refuse repetition; lists (a
// tool's array parameters) keep accepting it, as documented.
func onceOnly(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if _, list := f.Value.(pflag.SliceValue); list {
			return
		}
		if _, done := f.Value.(*onceValue); !done {
			f.Value = &onceValue{Value: f.Value, name: f.Name}
		}
	})
}

// flagError rewrites a parse error of fs for people: a repeated flag as
// such, an unknown flag with the nearest known one. help says where to
// look ("forgejo-mcp --help").
func flagError(fs *pflag.FlagSet, err error, help string) error {
	var rep *errRepeated
	if errors.As(err, &rep) {
		return fmt.Errorf("%v; see %s", rep, help)
	}
	var missing *pflag.NotExistError
	if errors.As(err, &missing) {
		if hint := suggestFlag(fs, missing); hint != "" {
			return fmt.Errorf("%v; did you mean %s? see %s", err, hint, help)
		}
	}
	return fmt.Errorf("%v; see %s", err, help)
}

// suggestFlag is the flag an unknown one most likely meant, as it would be
// typed ("--toolsets"), or "". An unknown shorthand (-v) suggests the one
// long flag starting with its letter, when there is exactly one.
func suggestFlag(fs *pflag.FlagSet, e *pflag.NotExistError) string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if e.GetSpecifiedShortnames() != "" {
		var hits []string
		for _, n := range names {
			if strings.HasPrefix(n, e.GetSpecifiedName()[:1]) {
				hits = append(hits, n)
			}
		}
		if len(hits) == 1 {
			return "--" + hits[0]
		}
		return ""
	}
	if hint := tool.Suggest(e.GetSpecifiedName(), names); hint != "" {
		return "--" + hint
	}
	return ""
}

// normalizeFlag lets a flag be spelled with underscores, as the parameter
// it stands for is in JSON (--auto_init is --auto-init).
func normalizeFlag(_ *pflag.FlagSet, n string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(n, "_", "-"))
}
