package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

const password = "pw-Never-Echoed-4711"

// call runs name through a Runner that logs at debug into logs, and
// checks the result against its outputSchema.
func call(t *testing.T, f *fakeforge.Server, logs *bytes.Buffer, name string, args map[string]any) (bool, string) {
	t.Helper()
	d, ok := tool.Find(admin.Tools(), name)
	require.True(t, ok, name)
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	res := r.Call(context.Background(), d, args)
	schemacheck.Result(t, d, res)
	return res.IsError, fakeforge.Text(t, res)
}

func last(t *testing.T, f *fakeforge.Server) fakeforge.Request {
	t.Helper()
	reqs := f.Requests()
	require.NotEmpty(t, reqs)
	return reqs[len(reqs)-1]
}

func body(t *testing.T, r fakeforge.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m))
	return m
}

var alice = map[string]any{"id": 7, "login": "alice", "full_name": "Alice", "email": "alice@example.org", "is_admin": false,
	"active": true, "prohibit_login": false, "restricted": false, "visibility": "public", "login_name": "", "source_id": 0,
	"created": "2026-01-02T03:04:05Z", "last_login": "0001-01-01T00:00:00Z",
	"avatar_url": "http://x/avatar", "html_url": "http://x/alice", "followers_count": 3, "language": "en-US"}

const aliceJSON = `{"id":7,"login":"alice","full_name":"Alice","email":"alice@example.org","is_admin":false,"active":true,` +
	`"visibility":"public","created":"2026-01-02T03:04:05Z"}`

// TestListUsers: the filters go in the query; the result is compact (no
// avatar, counters or page links).
func TestListUsers(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/admin/users", 200, []any{alice})
	isErr, text := call(t, f, &logs, "list_site_users", map[string]any{"source_id": 2.0, "login_name": "alice@corp", "limit": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+aliceJSON+`],"page":1,"has_more":false}`, text)
	q := f.LastQuery(t)
	assert.Equal(t, "2", q.Get("source_id"))
	assert.Equal(t, "alice@corp", q.Get("login_name"))
	assert.Equal(t, "5", q.Get("limit"))
}

// TestCreateUser: the password goes to the forge in the body and never
// comes back: not in a result, an error (even one quoting it) or a log.
func TestCreateUser(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("POST /api/v1/admin/users", 201, alice)
	isErr, text := call(t, f, &logs, "create_site_user", map[string]any{"username": "alice", "email": "alice@example.org",
		"password": password, "must_change_password": false, "visibility": "private"})
	require.False(t, isErr, text)
	assert.JSONEq(t, aliceJSON, text)
	assert.Equal(t, map[string]any{"username": "alice", "email": "alice@example.org", "password": password,
		"must_change_password": false, "visibility": "private"}, body(t, last(t, f)))

	// A forge that quotes the password in its refusal.
	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/admin/users", 422, map[string]any{"message": "password " + password + " is too weak"})
	isErr, text = call(t, f2, &logs, "create_site_user", map[string]any{"username": "bob", "email": "b@example.org", "password": password})
	require.True(t, isErr)
	assert.Contains(t, text, "create user bob")
	assert.Contains(t, text, "password [password] is too weak")

	// Arguments refused before sending echo nothing either.
	isErr, text = call(t, f2, &logs, "create_site_user", map[string]any{"username": "bob", "email": "b@example.org",
		"password": password + string(bytes.Repeat([]byte("x"), 300))})
	require.True(t, isErr)
	assert.Contains(t, text, "invalid arguments for create_site_user")
	for _, s := range []string{text, logs.String()} {
		assert.NotContains(t, s, password)
	}
	assert.NotEmpty(t, logs.String())
}

// TestEditUser: only the given fields are sent; on Gitea, which requires
// them, the user's own login name and source go along (read first), on
// Forgejo nothing else is read; the password stays write-only.
func TestEditUser(t *testing.T) {
	for _, c := range []struct {
		forge, version string
		reads          bool
	}{
		{"Gitea", "1.26.0", true},
		{"Forgejo", "15.0.3+gitea-1.22.0", false},
	} {
		t.Run(c.forge, func(t *testing.T) {
			f := fakeforge.New(t)
			var logs bytes.Buffer
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
			f.JSON("GET /api/v1/users/alice", 200, alice)
			admin := map[string]any{}
			for k, v := range alice {
				admin[k] = v
			}
			admin["is_admin"] = true
			f.JSON("PATCH /api/v1/admin/users/alice", 200, admin)
			isErr, text := call(t, f, &logs, "edit_site_user", map[string]any{"user": "alice", "admin": true, "password": password})
			require.False(t, isErr, text)
			assert.Contains(t, text, `"is_admin":true`)
			want := map[string]any{"admin": true, "password": password}
			if c.reads {
				want["login_name"], want["source_id"] = "alice", 0.0
			}
			assert.Equal(t, want, body(t, last(t, f)))
			assert.Len(t, f.RequestsTo("GET", "/api/v1/users/alice"), map[bool]int{true: 1, false: 0}[c.reads])
			assert.NotContains(t, text, password)
			assert.NotContains(t, logs.String(), password)

			sent := len(f.Requests())
			isErr, text = call(t, f, &logs, "edit_site_user", map[string]any{"user": "alice"})
			require.True(t, isErr)
			assert.Contains(t, text, "nothing to change")
			assert.Len(t, f.Requests(), sent, "nothing sent")
		})
	}
}

func TestDeleteAndRenameUser(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("DELETE /api/v1/admin/users/alice", 204, nil)
	f.JSON("POST /api/v1/admin/users/alice/rename", 204, nil)
	f.JSON("DELETE /api/v1/admin/users/nobody", 404, map[string]any{"message": "user does not exist"})

	isErr, text := call(t, f, &logs, "delete_site_user", map[string]any{"user": "alice", "purge": true})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"user":"alice"}`, text)
	assert.Equal(t, "purge=true", last(t, f).RawQuery)
	isErr, text = call(t, f, &logs, "delete_site_user", map[string]any{"user": "alice"})
	require.False(t, isErr, text)
	assert.Empty(t, last(t, f).RawQuery, "no purge unless asked")
	isErr, text = call(t, f, &logs, "delete_site_user", map[string]any{"user": "nobody"})
	require.True(t, isErr)
	assert.Contains(t, text, "user nobody not found (404)")

	isErr, text = call(t, f, &logs, "rename_site_user", map[string]any{"user": "alice", "new_username": "alicia"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"renamed":true,"user":"alice","new_username":"alicia"}`, text)
	assert.Equal(t, map[string]any{"new_username": "alicia"}, body(t, last(t, f)))
}

// TestNotSiteAdmin: every admin tool answered 403 says that only a site
// administrator may do it (or names the scope the forge says is missing).
func TestNotSiteAdmin(t *testing.T) {
	args := map[string]map[string]any{}
	for _, d := range admin.Tools() {
		a := map[string]any{}
		for _, p := range d.Params {
			if !p.Required {
				continue
			}
			switch p.Type {
			case tool.TypeInteger:
				a[p.Name] = 1.0
			case tool.TypeBoolean:
				a[p.Name] = true
			default:
				a[p.Name] = "x"
			}
		}
		args[d.Name] = a
	}
	args["add_site_user_key"]["key"] = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgi2TBGx0M0Jt+ckTOLGV6/N79tyBwapTLBRxOkY6c9 x"
	args["edit_site_user"]["active"] = false
	for _, c := range []struct{ message, want string }{
		{"You must be a site administrator", "only a site administrator may do this: the token's user is not one"},
		{"token does not have at least one of required scope(s): [write:admin]", "read:admin (reads) or write:admin (changes) scope"},
	} {
		f := fakeforge.New(t)
		var logs bytes.Buffer
		// No version: the gate cannot tell which routes the forge lacks,
		// so every tool's request goes out.
		f.Handle("/api/v1/admin/", func(w http.ResponseWriter, _ *http.Request) {
			fakeforge.WriteJSON(w, 403, map[string]any{"message": c.message})
		})
		for _, d := range admin.Tools() {
			isErr, text := call(t, f, &logs, d.Name, args[d.Name])
			require.True(t, isErr, d.Name)
			assert.Contains(t, text, "permission denied (403)", d.Name)
			assert.Contains(t, text, c.want, d.Name)
		}
	}
}
