package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/itchyny/gojq"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// `forgejo-mcp api [METHOD] ROUTE` calls a route of the forge's API that
// no tool covers, as `gh api` does: with the configured forge and token
// (flags, environment or profile), through the same client, route guard
// and origin checks as every tool, JSON in (-f/-F fields, or --input) and
// JSON out (pretty-printed, or filtered by --jq), the token masked in all
// of it.

// maxAPIBytes bounds an api answer read.
const maxAPIBytes = forgejo.DefaultMaxResponseBytes

const apiUsage = `Usage: forgejo-mcp api [METHOD] ROUTE [flags]

Calls ROUTE, a path below the forge's /api/v1 (repos/OWNER/REPO/topics,
/api/v1/user, a query allowed), with the configured forge and token, and
prints the JSON answer. METHOD is GET (the default, POST with fields),
POST, PUT, PATCH or DELETE.

  -f, --field key=value      a string field (repeatable)
  -F, --typed-field key=val  a field read as JSON when it is (true, 3, null,
                             [..], {..}), @FILE for a file's text
      --input FILE           the request body as JSON ('-': standard input)
  -q, --jq EXPR              filter the answer with a jq expression
  -X, --method METHOD        the method, instead of the first argument

With GET and DELETE, fields go in the query string; otherwise they make
the JSON object sent. Exit status: 0 on a 2xx answer, 1 when the forge
refuses (its message on standard error), 2 for a usage error.
Server flags (--url, --profile, --token-file, …) work here too.
`

// runAPI is `forgejo-mcp api`.
func runAPI(ctx context.Context, args []string, std IO, env Env) int {
	return interruptible(ctx, func() int { return api(ctx, args, std, env) })
}

func api(ctx context.Context, args []string, std IO, env Env) int {
	var cfg Config
	fs := serverFlags(&cfg, env)
	fields := fs.StringArrayP("field", "f", nil, "a string field key=value")
	typed := fs.StringArrayP("typed-field", "F", nil, "a typed field key=value")
	input := fs.String("input", "", "the request body as JSON ('-': standard input)")
	jqExpr := fs.StringP("jq", "q", "", "filter the answer with a jq expression")
	method := fs.StringP("method", "X", "", "the method")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp api:", flagError(fs, err, "forgejo-mcp api --help"))
		return ExitUsage
	}
	if *help {
		fmt.Fprint(std.Out, apiUsage)
		return ExitOK
	}
	pos := fs.Args()
	switch {
	case len(pos) == 2 && *method == "":
		*method = pos[0]
		pos = pos[1:]
	case len(pos) != 1:
		fmt.Fprint(std.Err, apiUsage)
		return ExitUsage
	}
	route := pos[0]
	if *method == "" {
		*method = "GET"
		if len(*fields)+len(*typed) > 0 || *input != "" {
			*method = "POST"
		}
	}
	m := strings.ToUpper(*method)
	var jq *gojq.Code
	var err error
	if *jqExpr != "" {
		if jq, err = compileJQ(*jqExpr); err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp api:", err)
			return ExitUsage
		}
	}
	if !fs.Changed("log-level") && env("FORGEJO_MCP_LOG_LEVEL") == "" {
		cfg.LogLevel = "warn"
	}
	body, query, err := apiBody(ctx, m, *fields, *typed, *input, std.In)
	if err == nil {
		err = cfg.applyProfile(ctx, env)
	}
	if err == nil {
		err = cfg.resolve(env, true)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp api:", err)
		return ExitUsage
	}
	runner := cfg.runner(newLogger(std.Err, &cfg))
	client, err := runner.Client(ctx)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp api:", err)
		return ExitUsage
	}
	resp, err := client.DoAPI(ctx, m, route, query, body, maxAPIBytes)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp api:", tool.EscapeInvisible(client.Redact(client.Explain(err).Error())))
		var fe *forgejo.Error
		if errors.As(err, &fe) {
			return ExitToolError
		}
		return ExitUsage
	}
	// Forge text reaches the terminal escaped (invisible characters as
	// \uXXXX, which inside JSON strings read as the same text) and without
	// the token.
	text := tool.EscapeInvisible(client.Redact(string(resp.Body)))
	if jq != nil {
		if err := runJQ(ctx, std.Out, jq, text); err != nil {
			fmt.Fprintln(std.Err, "forgejo-mcp api:", err)
			return ExitToolError
		}
		return ExitOK
	}
	if strings.TrimSpace(text) != "" {
		fmt.Fprintln(std.Out, prettyJSON(text))
	}
	return ExitOK
}

// apiBody builds the request: fields into the query (GET, DELETE) or a
// JSON object, or --input's JSON as it is.
func apiBody(ctx context.Context, method string, fields, typed []string, input string, stdin io.Reader) ([]byte, url.Values, error) {
	if input != "" && len(fields)+len(typed) > 0 {
		return nil, nil, errors.New("--input gives the whole body: leave out -f and -F")
	}
	if input != "" {
		var b []byte
		var err error
		if input == "-" {
			b, err = readStdin(ctx, stdin, maxArgsStdinBytes)
		} else {
			b, err = os.ReadFile(input)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("--input %s: %v", input, err)
		}
		if !json.Valid(bytes.TrimSpace(b)) {
			return nil, nil, fmt.Errorf("--input %s is not JSON", input)
		}
		return b, nil, nil
	}
	obj := map[string]any{}
	query := url.Values{}
	add := func(kv string, parse bool) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("field %q: write key=value", kv)
		}
		var val any = v
		if parse {
			if file, isFile := strings.CutPrefix(v, "@"); isFile {
				b, err := readTextFile(ctx, file, stdin)
				if err != nil {
					return fmt.Errorf("field %s: %v", k, err)
				}
				val = b
			} else if err := json.Unmarshal([]byte(v), &val); err != nil {
				val = v
			}
		}
		if method == "GET" || method == "DELETE" {
			query.Add(k, fmt.Sprint(val))
		} else {
			obj[k] = val
		}
		return nil
	}
	for _, f := range fields {
		if err := add(f, false); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range typed {
		if err := add(f, true); err != nil {
			return nil, nil, err
		}
	}
	if len(obj) == 0 {
		return nil, query, nil
	}
	b, err := json.Marshal(obj)
	return b, query, err
}
