package tool_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

const secret = "0123456789abcdef0123456789abcdef01234567"

func secretRunner() *tool.Runner {
	base, _ := url.Parse("http://127.0.0.1:1")
	c := forgejo.NewClient(http.DefaultClient, base, secret, "test")
	return &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }}
}

// assertNoSecret checks the whole result as it goes on the wire, and that
// not even a 12-character piece of the token is left.
func assertNoSecret(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res)
	require.NoError(t, err)
	for i := 0; i+12 <= len(secret); i++ {
		require.NotContains(t, string(b), secret[i:i+12], "a piece of the token at %d", i)
	}
	return string(b)
}

// TestRedactionCoversEveryString: the token is redacted from every string
// a result carries, not only its text: a blob's URI (a
// browser_download_url with the token in its query), a text resource, a
// resource link, structured content and _meta.
func TestRedactionCoversEveryString(t *testing.T) {
	link := "http://127.0.0.1:1/attachments/x?token=" + secret
	d := tool.Def{Name: "leaky", Output: tool.Shape{"url": "", "nested": []any{}}, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			Content: []mcp.Content{
				mcp.NewTextContent(`{"browser_download_url":"` + link + `"}`),
				tool.Blob(link, "text/plain", []byte("hi")),
				mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: link, MIMEType: "text/plain", Text: "body " + secret}),
				&mcp.EmbeddedResource{Type: "resource", Resource: &mcp.BlobResourceContents{URI: link, Blob: "aGk="}},
				mcp.NewResourceLink(link, "name "+secret, "about "+secret, "text/plain"),
				mcp.NewImageContent("aGk=", "image/png"),
			},
			StructuredContent: map[string]any{"url": link, "nested": []any{map[string]any{"t": secret}}},
			Result:            mcp.Result{Meta: &mcp.Meta{AdditionalFields: map[string]any{"origin": link}}},
		}, nil
	}}
	res := secretRunner().Call(context.Background(), d, nil)
	require.False(t, res.IsError)
	wire := assertNoSecret(t, res)
	assert.Equal(t, 11, strings.Count(wire, "[REDACTED]"), wire)
	blob, ok := res.Content[1].(mcp.EmbeddedResource).Resource.(mcp.BlobResourceContents)
	require.True(t, ok)
	assert.Equal(t, "http://127.0.0.1:1/attachments/x?token=[REDACTED]", blob.URI)
	assert.Equal(t, "aGk=", blob.Blob, "bytes are left alone")
	var structured map[string]any
	require.NoError(t, json.Unmarshal(res.StructuredContent.(json.RawMessage), &structured))
	assert.Equal(t, "http://127.0.0.1:1/attachments/x?token=[REDACTED]", structured["url"])
}

// TestValidationErrorsNeverEchoTheToken: a token pasted into an argument
// is not echoed by the validation error, whole or clipped, for online and
// offline tools alike.
func TestValidationErrorsNeverEchoTheToken(t *testing.T) {
	online := tool.Def{Name: "online", Params: []tool.Param{tool.Owner(), tool.Repo(), tool.State(), tool.Int("n", "n")},
		Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) { return tool.JSON("ok") }}
	offline := online
	offline.Offline = true
	padding := strings.Repeat("x", 40) // so clipping at 64 bytes would cut the token
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"token as owner", map[string]any{"owner": "ghp/" + secret, "repo": "r"}, `argument "owner" must contain letters, digits, '-', '_' and '.' only, got "ghp/[REDACTED]"`},
		{"token cut by clipping", map[string]any{"owner": padding + "/" + secret, "repo": "r"}, `got "` + padding + `/[REDACTED]"`},
		{"token in an enum", map[string]any{"owner": "o", "repo": "r", "state": secret}, `must be one of open, closed, all, got "[REDACTED]"`},
		{"token as a number", map[string]any{"owner": "o", "repo": "r", "n": padding + secret}, `must be a whole number, got "`},
		{"token as an argument name", map[string]any{"owner": "o", "repo": "r", secret: 1}, `unknown argument "[REDACTED]"`},
	}
	for _, d := range []tool.Def{online, offline} {
		for _, tt := range tests {
			t.Run(d.Name+"/"+tt.name, func(t *testing.T) {
				res := secretRunner().Call(context.Background(), d, tt.args)
				require.True(t, res.IsError)
				assertNoSecret(t, res)
				assert.Contains(t, res.Content[0].(mcp.TextContent).Text, tt.want)
			})
		}
	}
}
