package cmd

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// callFunc calls a tool by name with arguments through the Runner.
type callFunc func(name string, args map[string]any) *mcp.CallToolResult

// printResult writes the result as --output asks and saves the file it
// carries to --out. Binary content is never dropped silently: without
// --out a line says what there is. An error result goes to standard error
// in every form but mcp, which prints the envelope as an agent gets it.
func printResult(std IO, res *mcp.CallToolResult, cf cliFlags, def tool.Def, args map[string]any, call callFunc) error {
	output := cf.output
	if output == "" {
		output = "text"
		if isTerminalWriter(std.Out) {
			output = "table"
		}
	}
	if cf.out != "" && !res.IsError {
		if err := saveOne(std, res, cf.out); err != nil {
			return err
		}
		if cf.out == "-" {
			std.Out = std.Err // the file went to standard output
		}
		if metaString(res, "content") == "text" && output != "mcp" {
			// The text file is saved, not printed as well.
			res = &mcp.CallToolResult{Content: res.Content[:len(res.Content)-1]}
		}
	}
	if output == "mcp" {
		enc := json.NewEncoder(std.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	w := std.Out
	if res.IsError {
		w, output = std.Err, "text"
	}
	for i, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			switch {
			case output == "text":
				fmt.Fprintln(w, prettyJSON(c.Text))
			case output == "json" && i == 0:
				printJSONValue(w, c.Text)
			case output == "json":
				// A text file beside the metadata: its text is in
				// --out, not in the one JSON value printed.
				fmt.Fprintf(std.Err, "[text, %d bytes: use --out FILE to save it]\n", len(c.Text))
			default:
				v, err := decodeOrdered([]byte(c.Text))
				if err != nil || i > 0 {
					fmt.Fprintln(w, strings.TrimRight(clean(c.Text, true), "\n"))
					continue
				}
				render(w, std.Err, v)
				if def.Name == "get_pull_request_by_index" {
					renderChecks(w, v, args, call)
				}
			}
		default:
			if _, desc, ok := binaryContent(c); ok && cf.out == "" {
				note := w
				if output == "json" {
					note = std.Err // standard output holds one JSON value
				}
				fmt.Fprintf(note, "[%s: use --out FILE to save it]\n", desc)
			}
		}
	}
	return nil
}

// printJSONValue prints a result's text as one JSON value, indented: the
// value itself when it is JSON, else the text as a JSON string.
func printJSONValue(w io.Writer, text string) {
	var buf bytes.Buffer
	if t := strings.TrimSpace(text); json.Valid([]byte(t)) && json.Indent(&buf, []byte(t), "", "  ") == nil {
		fmt.Fprintln(w, buf.String())
		return
	}
	b, _ := json.Marshal(text)
	fmt.Fprintln(w, string(b))
}

// renderChecks adds a pull request's checks (its head commit's combined
// status) to its readable form: a second call, made only for people.
func renderChecks(w io.Writer, v any, args map[string]any, call callFunc) {
	pr, ok := v.(*object)
	sha, _ := pr.vals["head_sha"].(string)
	if !ok || sha == "" {
		return
	}
	res := call("get_commit_status", map[string]any{"owner": args["owner"], "repo": args["repo"], "ref": sha})
	if res.IsError {
		fmt.Fprintf(w, "\nchecks: unknown (%s)\n", clean(resultText(res), false))
		return
	}
	st, err := decodeOrdered([]byte(resultText(res)))
	obj, ok := st.(*object)
	if err != nil || !ok {
		return
	}
	list, _ := obj.vals["statuses"].([]any)
	if len(list) == 0 {
		fmt.Fprintln(w, "\nchecks: none reported")
		return
	}
	fmt.Fprintf(w, "\nchecks: %s\n", scalar(obj.vals["state"]))
	renderTable(w, list, "  ")
}

// binaryContent decodes an image or blob resource content.
func binaryContent(c mcp.Content) ([]byte, string, bool) {
	var data, mime, what string
	switch c := c.(type) {
	case mcp.ImageContent:
		data, mime, what = c.Data, c.MIMEType, "image"
	case mcp.EmbeddedResource:
		blob, ok := c.Resource.(mcp.BlobResourceContents)
		if !ok {
			return nil, "", false
		}
		data, mime, what = blob.Blob, blob.MIMEType, "blob "+blob.URI
	default:
		return nil, "", false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, "", false
	}
	return b, fmt.Sprintf("%s, %s, %d bytes", what, mime, len(b)), true
}

func prettyJSON(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return s
	}
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(t), "", "  ") != nil {
		return s
	}
	return buf.String()
}
