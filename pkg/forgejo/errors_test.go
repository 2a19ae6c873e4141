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

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

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
	// A separator needs room for itself and the rune after it (FuzzForgeText
	// found "abc d" cut to 3 coming back as "abc …", 5 runes).
	assert.Equal(t, "abc…", forgejo.Sanitize("abc d", 3))
	assert.Equal(t, "ab…", forgejo.Sanitize("ab cd", 3))
	assert.Equal(t, "ab c", forgejo.Sanitize("ab c", 4))
	assert.Equal(t, "", forgejo.Sanitize("\x00\x01", 10))
}

func TestMessageFromBody(t *testing.T) {
	assert.Equal(t, "nope", forgejo.MessageFromBody([]byte(`{"message":"nope","url":"x"}`)))
	assert.Equal(t, "", forgejo.MessageFromBody([]byte(`null`)))
	assert.Equal(t, "", forgejo.MessageFromBody([]byte(`<html>`)))
	assert.True(t, errors.Is(&forgejo.Error{Cause: context.Canceled}, context.Canceled))
}

// TestFailForgeInternals: what Gitea sends that is meant for its own
// developers (function names, dumps of internal fields) never reaches the
// agent, and a 500 that says something does not exist is a 404.
func TestFailForgeInternals(t *testing.T) {
	tests := []struct {
		name   string
		status int
		msg    string
		want   string // the whole text
		is404  bool
	}{
		{name: "function name alone", status: 404, msg: "GetContentsOrList",
			want: "file a.txt not found (404): it does not exist or this token cannot see it", is404: true},
		{name: "lookup function name says what is missing", status: 404, msg: "GetUserByName",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: no such user", is404: true},
		{name: "two-word lookup", status: 404, msg: "GetPullRequestByIndex",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: no such pull request", is404: true},
		{name: "function name as prefix", status: 404, msg: "GetUserByName: user does not exist [uid: 0, name: bob]",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: user does not exist", is404: true},
		{name: "internal fields dropped", status: 404, msg: "user redirect does not exist [name: nosuchuser]",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: user redirect does not exist", is404: true},
		{name: "500 does not exist is a 404", status: 500, msg: "issue does not exist [id: 0, repo_id: 1, index: 999]",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: issue does not exist", is404: true},
		{name: "500 not found is a 404 (Forgejo 10's missing workflow)", status: 500, msg: "workflow not found",
			want: "file a.txt not found (404): it does not exist or this token cannot see it: workflow not found", is404: true},
		{name: "500 with a sentence about not found kept", status: 500, msg: "Git: object abc not found",
			want: "get file a.txt: the forge failed (500 Internal Server Error): Git: object abc not found; retry later, and if it keeps failing the forge may not support this request"},
		{name: "other 500 kept", status: 500, msg: "database is locked",
			want: "get file a.txt: the forge failed (500 Internal Server Error): database is locked; retry later, and if it keeps failing the forge may not support this request"},
		{name: "plain sentence kept", status: 422, msg: "The old branch does not exist",
			want: "get file a.txt: the forge rejected the input (422): The old branch does not exist"},
		{name: "chain of function names", status: 500, msg: "initRepository: prepareRepoCommit: getLicense[NOPE]: GetLicense[NOPE]: file does not exist",
			want: "get file a.txt: the forge failed (500 Internal Server Error): file does not exist; retry later, and if it keeps failing the forge may not support this request"},
		{name: "acronym alone kept", status: 422, msg: "SHA",
			want: "get file a.txt: the forge rejected the input (422): SHA"},
		{name: "acronym sentence kept", status: 422, msg: "SHA mismatch: expected abc",
			want: "get file a.txt: the forge rejected the input (422): SHA mismatch: expected abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/contents/a.txt", tt.status, map[string]any{"message": tt.msg, "errors": []string{"object does not exist"}})
			_, resp, err := f.Client().SDK(context.Background()).GetContents("o", "r", "", "a.txt")
			got := forgejo.Fail(resp, err, "get", "file a.txt")
			require.Error(t, got)
			assert.Equal(t, tt.want, got.Error())
			assert.Equal(t, tt.is404, forgejo.IsNotFound(got))
		})
	}
}

// TestExplainNoToken: without a token, a 401, 403 or 404 says that no
// token is set; with one, the message is unchanged.
func TestExplainNoToken(t *testing.T) {
	tests := []struct {
		name   string
		status int
		token  string
		want   string
	}{
		{name: "401 without token", status: 401,
			want: "create issue in o/r: no access token is set, and the forge needs one for this (401 Unauthorized); set FORGEJO_ACCESS_TOKEN or --token-file (over HTTP, send an Authorization header)"},
		{name: "403 without token", status: 403,
			want: "create issue in o/r: no access token is set, and the forge needs one for this (403 Forbidden); set FORGEJO_ACCESS_TOKEN or --token-file (over HTTP, send an Authorization header)"},
		{name: "404 without token", status: 404,
			want: "issue in o/r not found (404): no access token is set, so only public data is visible; if it exists and is private, set FORGEJO_ACCESS_TOKEN or --token-file (over HTTP, send an Authorization header)"},
		{name: "401 with token", status: 401, token: "t0ken",
			want: "create issue in o/r: the forge rejected the token (401 Unauthorized)"},
		{name: "404 with token", status: 404, token: "t0ken",
			want: "issue in o/r not found (404): it does not exist or this token cannot see it"},
		{name: "422 without token unchanged", status: 422,
			want: "create issue in o/r: the forge rejected the input (422)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("POST /api/v1/repos/o/r/issues", tt.status, nil)
			c := forgejo.NewClient(http.DefaultClient, f.BaseURL(), tt.token, "test")
			_, resp, err := c.SDK(context.Background()).CreateIssue("o", "r", sdk.CreateIssueOption{Title: "x"})
			got := c.Explain(forgejo.Fail(resp, err, "create", "issue in o/r"))
			require.Error(t, got)
			assert.True(t, strings.HasPrefix(got.Error(), tt.want), "got %q", got.Error())
			assert.Equal(t, tt.status == 404, forgejo.IsNotFound(got))
		})
	}
	var nilClient *forgejo.Client
	plain := errors.New("plain")
	assert.Same(t, plain, nilClient.Explain(plain))
}

func TestNotFoundAs(t *testing.T) {
	notFound := &forgejo.Error{Verb: "list commits of", Subject: "repository o/r", Status: 404, Message: "x"}
	got := forgejo.NotFoundAs(fmt.Errorf("wrapped: %w", notFound), "ref main2 in o/r")
	assert.Equal(t, "ref main2 in o/r not found (404): it does not exist or this token cannot see it", got.Error())
	other := &forgejo.Error{Verb: "get", Subject: "repository o/r", Status: 403}
	assert.Same(t, error(other), forgejo.NotFoundAs(other, "ref x"))
}

// TestAdminOnly: a site administration route's 403 names the right it
// needs, or the scope when the forge says the token lacks one.
func TestAdminOnly(t *testing.T) {
	tests := []struct {
		name, message, want string
	}{
		{"not a site administrator", "you must be a site administrator",
			"list users of the site: permission denied (403): you must be a site administrator; only a site administrator may do this: the token's user is not one (use a site administrator's token)"},
		{"scope", "token does not have at least one of required scope(s): [read:admin]",
			"list users of the site: permission denied (403): token does not have at least one of required scope(s): [read:admin]; site administration needs a token with the read:admin (reads) or write:admin (changes) scope, of a site administrator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := forgejo.AdminOnly(&forgejo.Error{Verb: "list users of", Subject: "the site", Status: 403, Message: tt.message})
			assert.Equal(t, tt.want, err.Error())
			other := &forgejo.Error{Verb: "get", Subject: "x", Status: 404}
			assert.Equal(t, other.Error(), forgejo.AdminOnly(other).Error(), "only a 403 reads otherwise")
		})
	}
	plain := errors.New("no forge error")
	assert.Same(t, plain, forgejo.AdminOnly(plain))
}
