package forgejo_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// TestFailMessages drives real SDK calls against canned forge answers and
// checks the text an agent would read.
func TestFailMessages(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   any
		raw    string
		want   string
	}{
		{name: "404 null body (Gitea)", status: 404, raw: "null",
			want: "issue o/r#9 not found (404): it does not exist or this token cannot see it"},
		{name: "404 generic message dropped (Forgejo)", status: 404, body: map[string]string{"message": "The target couldn't be found."},
			want: "issue o/r#9 not found (404): it does not exist or this token cannot see it"},
		{name: "404 specific message kept", status: 404, body: map[string]string{"message": "repository does not exist [id: 0, uid: 1, owner_name: o, name: r]"},
			want: "issue o/r#9 not found (404): it does not exist or this token cannot see it: repository does not exist"},
		{name: "401", status: 401, body: map[string]string{"message": "user does not exist"},
			want: "get issue o/r#9: the forge rejected the token (401 Unauthorized); check that the access token (FORGEJO_ACCESS_TOKEN, --token-file, or the Authorization header over HTTP) is valid and not expired"},
		{name: "403 scope", status: 403, body: map[string]string{"message": "token does not have at least one of required scope(s): [read:issue]"},
			want: "get issue o/r#9: permission denied (403): token does not have at least one of required scope(s): [read:issue]"},
		{name: "422", status: 422, body: map[string]string{"message": "title is required"},
			want: "get issue o/r#9: the forge rejected the input (422): title is required"},
		{name: "500 html body is not dumped", status: 500, raw: "<html><body>stack trace secret</body></html>",
			want: "get issue o/r#9: the forge failed (500 Internal Server Error); retry later"},
		{name: "409", status: 409, body: map[string]string{"message": "repository already exists"},
			want: "get issue o/r#9: conflict (409), it may already exist: repository already exists"},
		{name: "invalid JSON on success", status: 200, raw: `{"number": 9, "title": `,
			want: "get issue o/r#9: the forge's reply could not be read (invalid or truncated JSON)"},
		{name: "control characters in message are dropped", status: 422, body: map[string]string{"message": "bad\u202e\x1b[31m input\n\nhere"},
			want: "get issue o/r#9: the forge rejected the input (422): bad[31m input here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle("GET /api/v1/repos/o/r/issues/9", func(w http.ResponseWriter, _ *http.Request) {
				if tt.raw != "" {
					w.WriteHeader(tt.status)
					fmt.Fprint(w, tt.raw)
					return
				}
				fakeforge.WriteJSON(w, tt.status, tt.body)
			})
			_, resp, err := f.Client().SDK(context.Background()).GetIssue("o", "r", 9)
			got := forgejo.Fail(resp, err, "get", "issue o/r#9")
			require.Error(t, got)
			assert.True(t, strings.HasPrefix(got.Error(), tt.want), "got %q", got.Error())
			assert.NotContains(t, got.Error(), "stack trace")
			assert.Equal(t, tt.status == 404, forgejo.IsNotFound(got))
		})
	}
}

func TestFailTransport(t *testing.T) {
	f := fakeforge.New(t)
	c := f.Client()
	f.Close() // the forge is down
	_, resp, err := c.SDK(context.Background()).GetMyUserInfo()
	got := forgejo.Fail(resp, err, "get", "the token's user")
	assert.Contains(t, got.Error(), "get the token's user: cannot reach the forge (dial")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, resp, err = c.SDK(ctx).GetMyUserInfo()
	assert.Equal(t, "get the token's user: cancelled before the forge answered", forgejo.Fail(resp, err, "get", "the token's user").Error())
	assert.NoError(t, forgejo.Fail(nil, nil, "get", "x"))
}

func TestSanitize(t *testing.T) {
	assert.Equal(t, "a bc?", forgejo.Sanitize(" a \n\t b\u200bc? ", 100))
	assert.Equal(t, "abc…", forgejo.Sanitize("abcdef", 3))
	assert.Equal(t, "", forgejo.Sanitize("\x00\x01", 10))
}

func TestMessageFromBody(t *testing.T) {
	assert.Equal(t, "nope", forgejo.MessageFromBody([]byte(`{"message":"nope","url":"x"}`)))
	assert.Equal(t, "", forgejo.MessageFromBody([]byte(`null`)))
	assert.Equal(t, "", forgejo.MessageFromBody([]byte(`<html>`)))
	assert.True(t, errors.Is(&forgejo.Error{Cause: context.Canceled}, context.Canceled))
}
