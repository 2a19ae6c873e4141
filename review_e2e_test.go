package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestE2ELiveObjectLists: over the wire, with the official Go SDK client,
// the object-list schema is what tools/list says (an array of objects),
// change_files and a review with a line comment work, and a bad item comes
// back as an isError result naming it.
func TestE2ELiveObjectLists(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	status := f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, repo, f.User2), map[string]any{"permission": "write"}, nil)
	require.Equal(t, http.StatusNoContent, status)
	author := connect(t, protocolVersions[0], []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})
	reviewer := connect(t, protocolVersions[1], []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token2})

	list, err := author.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range list.Tools {
		if tl.Name != "create_pull_review" {
			continue
		}
		b, err := json.Marshal(tl.InputSchema)
		require.NoError(t, err)
		var schema struct {
			Properties map[string]struct {
				Type  string `json:"type"`
				Items struct {
					Type     string   `json:"type"`
					Required []string `json:"required"`
				} `json:"items"`
			} `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(b, &schema))
		c := schema.Properties["comments"]
		assert.Equal(t, "array", c.Type)
		assert.Equal(t, "object", c.Items.Type)
		assert.Equal(t, []string{"path", "body"}, c.Items.Required)
	}

	res, text := callTool(t, author, "change_files", map[string]any{"owner": owner, "repo": repo, "new_branch": "topic", "message": "Two files",
		"files": []any{
			map[string]any{"operation": "create", "path": "a.txt", "content": "one\ntwo\n"},
			map[string]any{"operation": "create", "path": "b/c.txt", "content": "three\n"},
		}})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, `"branch":"topic"`)
	res, text = callTool(t, author, "create_pull_request", map[string]any{"owner": owner, "repo": repo, "head": "topic", "base": "main", "title": "Topic"})
	require.False(t, res.IsError, text)
	var pr struct{ Number int64 }
	require.NoError(t, json.Unmarshal([]byte(text), &pr))

	res, text = callTool(t, reviewer, "create_pull_review", map[string]any{"owner": owner, "repo": repo, "index": pr.Number,
		"event": "REQUEST_CHANGES", "body": "One thing.", "comments": []any{map[string]any{"path": "a.txt", "new_line": 2, "body": "Say three?"}}})
	require.False(t, res.IsError, text)
	var review struct {
		ID       int64
		State    string
		Comments int
	}
	require.NoError(t, json.Unmarshal([]byte(text), &review))
	assert.Equal(t, "REQUEST_CHANGES", review.State)
	assert.Equal(t, 1, review.Comments)
	res, text = callTool(t, author, "list_pull_review_comments", map[string]any{"owner": owner, "repo": repo, "index": pr.Number, "review_id": review.ID})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, `"path":"a.txt","new_line":2,"body":"Say three?"`)

	res, text = callTool(t, reviewer, "create_pull_review", map[string]any{"owner": owner, "repo": repo, "index": pr.Number,
		"comments": []any{map[string]any{"path": "a.txt", "line": 2, "body": "x"}}})
	assert.True(t, res.IsError)
	assert.Equal(t, `invalid arguments for create_pull_review: comments[0]: unknown field "line"; items take {path, new_line?, old_line?, body}`, text)
}
