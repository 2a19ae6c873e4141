package cmd

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// --all follows a list's has_more from page to page, at the largest page
// size the tool takes, and answers one page holding every item, so a
// shell user need not write the loop. It stops after the page that brings
// it to maxAllItems, says so on standard error, and then answers
// has_more: true, as a page would.

// maxAllItems bounds what --all collects: a repository's 50,000 issues
// are a query to narrow, not a list to print.
const maxAllItems = 1000

// callAll calls the list tool page after page and merges the pages.
func callAll(ctx context.Context, std IO, call func(map[string]any) *mcp.CallToolResult, def tool.Def, args map[string]any) *mcp.CallToolResult {
	a := make(map[string]any, len(args)+2)
	for k, v := range args {
		a[k] = v
	}
	if _, given := a["limit"]; !given {
		if p, ok := paramOf(def, "limit"); ok && p.Max != nil {
			a["limit"] = *p.Max
		}
	}
	page := int64(1)
	if n, ok := a["page"].(int64); ok && n > 0 {
		page = n
	}
	var merged *object
	var listKey string
	var items []any
	for pages := 0; ; pages++ {
		if err := ctx.Err(); err != nil {
			return tool.Error(fmt.Sprintf("--all: %v after %d items", err, len(items)))
		}
		a["page"] = page
		res := call(a)
		if res.IsError {
			if pages == 0 {
				return res
			}
			return tool.Error(fmt.Sprintf("--all: page %d failed after %d items: %s", page, len(items), resultText(res)))
		}
		v, err := decodeOrdered([]byte(resultText(res)))
		obj, ok := v.(*object)
		if err != nil || !ok {
			return tool.Error(fmt.Sprintf("--all: %s does not answer a page of a list", def.Name))
		}
		more, hasMore := obj.vals["has_more"].(bool)
		if merged == nil {
			merged, listKey = obj, firstList(obj)
			if !hasMore || listKey == "" {
				return tool.Error(fmt.Sprintf("--all: %s does not answer a page of a list (no items and has_more)", def.Name))
			}
		}
		list, _ := obj.vals[listKey].([]any)
		items = append(items, list...)
		if !more || len(list) == 0 {
			merged.set("has_more", false)
			break
		}
		if len(items) >= maxAllItems {
			merged.set("has_more", true)
			fmt.Fprintf(std.Err, "--all: stopped at %d items (page %d); more remain: --page %d --limit %v continues\n", len(items), page, page+1, a["limit"])
			break
		}
		page++
	}
	merged.set(listKey, items)
	b, err := json.Marshal(merged)
	if err != nil {
		return tool.Error(fmt.Sprintf("--all: %v", err))
	}
	return mcp.NewToolResultText(string(b))
}

// firstList is the key of obj's first array member ("items", a tree's
// "entries"), or "".
func firstList(obj *object) string {
	for _, k := range obj.keys {
		if _, ok := obj.vals[k].([]any); ok {
			return k
		}
	}
	return ""
}

func paramOf(d tool.Def, name string) (tool.Param, bool) {
	for _, p := range d.Params {
		if p.Name == name {
			return p, true
		}
	}
	return tool.Param{}, false
}
