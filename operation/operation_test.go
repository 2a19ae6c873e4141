package operation_test

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func TestInventoryIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range operation.All() {
		t.Run(d.Name, func(t *testing.T) {
			assert.False(t, seen[d.Name], "unique name")
			seen[d.Name] = true
			assert.Regexp(t, snakeCase, d.Name)
			assert.NotEmpty(t, d.Toolset.ID)
			assert.NotEmpty(t, d.Description)
			assert.NotNil(t, d.Handler)
			assert.False(t, d.Annotations.ReadOnly && d.Annotations.Destructive, "read-only tools cannot be destructive")
			params := map[string]bool{}
			for _, p := range d.Params {
				assert.Regexp(t, snakeCase, p.Name)
				assert.NotEmpty(t, p.Description, "param %s has a description", p.Name)
				assert.False(t, params[p.Name], "param %s declared once", p.Name)
				params[p.Name] = true
			}
			_, err := d.Parse(sampleArgs(d))
			assert.NoError(t, err, "required arguments alone are enough")
		})
	}
}

// TestToolsetsAreDeclaredOnce checks that every tool of a toolset carries
// the same metadata (one declaration per package, not a string per tool),
// and that --toolsets help lists each with its description.
func TestToolsetsAreDeclaredOnce(t *testing.T) {
	byID := map[string]tool.Toolset{}
	for _, d := range operation.All() {
		if first, ok := byID[d.Toolset.ID]; ok {
			assert.Equal(t, first, d.Toolset, "%s: one toolset value per ID", d.Name)
			continue
		}
		byID[d.Toolset.ID] = d.Toolset
		assert.Regexp(t, `^[a-z]+(-[a-z]+)*$`, d.Toolset.ID)
		assert.NotEmpty(t, d.Toolset.Description, "toolset %s has a description", d.Toolset.ID)
	}
	assert.Len(t, tool.ToolsetsOf(operation.All()), len(byID))
	help := operation.ToolsetHelp(operation.All())
	for id, ts := range byID {
		assert.Regexp(t, `(?m)^  `+regexp.QuoteMeta(id)+` +`+regexp.QuoteMeta(ts.Description)+`( \(default\))?( \(only when named: all leaves it out\))?$`, help)
	}
}

// TestSnapshot fails when a tool's schema changes without its snapshot
// being regenerated (make docs): a schema change is a change for clients.
// Each tool has its own file, so a diff names the tool it changes.
func TestSnapshot(t *testing.T) {
	snaps, err := operation.Snapshots(operation.All())
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(operation.SnapshotDir, "*.json"))
	require.NoError(t, err)
	for _, f := range files {
		_, ok := snaps[filepath.Base(f)]
		assert.True(t, ok, "%s is the snapshot of a tool that no longer exists: run make docs", f)
	}
	for name, got := range snaps {
		want, err := os.ReadFile(filepath.Join(operation.SnapshotDir, name))
		if !assert.NoError(t, err, "no snapshot for %s: run make docs", name) {
			continue
		}
		assert.Equal(t, string(want), string(got), "schema of %s drifted: run make docs and review the diff", name)
	}
}

// TestGeneratedDocs fails when a section make docs writes (README.md's
// toolsets and scopes, docs/tools.md, docs/scopes.md,
// docs/compatibility.md) drifted from the inventory.
func TestGeneratedDocs(t *testing.T) {
	for _, g := range operation.GeneratedDocs(operation.All()) {
		doc, err := os.ReadFile(filepath.Join("..", g.Path))
		require.NoError(t, err)
		got, err := g.Update(doc)
		require.NoError(t, err, g.Path)
		assert.Equal(t, string(doc), string(got), "%s drifted: run make docs", g.Path)
	}
}

// sampleArgs synthesises valid values for a tool's required parameters.
func sampleArgs(d tool.Def) map[string]any {
	special := map[string]any{
		"content":  base64.StdEncoding.EncodeToString([]byte("hello")),
		"filename": "hello.txt",
		"files":    []any{map[string]any{"operation": "create", "path": "hello.txt", "content": "hello"}},
		"comments": []any{map[string]any{"path": "hello.txt", "new_line": 1.0, "body": "hello"}},
		"diff":     "diff --git a/hello.txt b/hello.txt\n--- a/hello.txt\n+++ b/hello.txt\n@@ -1 +1 @@\n-hello\n+hi\n",
	}
	args := map[string]any{}
	for k, v := range sampleExtras[d.Name] {
		args[k] = v
	}
	for _, p := range d.Params {
		if _, given := args[p.Name]; !p.Required || given {
			continue
		}
		if v, ok := special[p.Name]; ok {
			args[p.Name] = v
			continue
		}
		switch p.Type {
		case tool.TypeInteger:
			v := int64(1)
			if p.Min != nil && *p.Min > v {
				v = *p.Min
			}
			args[p.Name] = float64(v)
		case tool.TypeBoolean:
			args[p.Name] = false
		case tool.TypeList:
			args[p.Name] = []any{"x"}
			if len(p.Enum) > 0 {
				args[p.Name] = []any{p.Enum[0]}
			}
		default:
			if len(p.Enum) > 0 {
				args[p.Name] = p.Enum[0]
			} else {
				args[p.Name] = "x"
			}
		}
	}
	return args
}

// sampleExtras are optional arguments some tools need to reach the forge:
// one of a group of optional parameters, or a body an event requires.
var sampleExtras = map[string]map[string]any{
	"create_pull_review":      {"body": "x"},
	"edit_repo":               {"description": "x"},
	"edit_tag_protection":     {"name_pattern": "x"},
	"edit_quota_rule":         {"limit_bytes": 1.0},
	"delete_repo":             {"owner": "x", "repo": "x", "confirm": "x/x"},
	"create_deploy_key":       {"key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgi2TBGx0M0Jt+ckTOLGV6/N79tyBwapTLBRxOkY6c9 x"},
	"get_ci_status":           {"index": 1.0},
	"create_review_requests":  {"reviewers": []any{"x"}},
	"delete_review_requests":  {"reviewers": []any{"x"}},
	"get_commit_pull_request": {"sha": "c0ffee0"},
	"add_site_user_key":       {"key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgi2TBGx0M0Jt+ckTOLGV6/N79tyBwapTLBRxOkY6c9 x"},
	"edit_site_user":          {"full_name": "x"},
	// The comment the mimicking fakes list (fakeforge.ExampleInt).
	"reply_to_pull_review_comment": {"comment_id": float64(fakeforge.ExampleInt)},
}

// sampleAnswers are forge answers some tools need to reach their write
// with sampleArgs, where answering {} everywhere is not enough: the flavour
// (which picks the route) or the object they read first.
var sampleAnswers = map[string]map[string]any{
	"add_pull_review_comments":   {"GET /api/v1/version": forgejoVersion},
	"delete_pull_review_comment": {"GET /api/v1/version": forgejoVersion},
	"reply_to_pull_review_comment": {"GET /api/v1/version": forgejoVersion,
		"GET /api/v1/repos/x/x/pulls/1/reviews/1/comments": []any{map[string]any{"id": fakeforge.ExampleInt, "path": "a.go", "position": 1}}},
	"subscribe_issue":   {"GET /api/v1/user": map[string]any{"login": "me"}},
	"unsubscribe_issue": {"GET /api/v1/user": map[string]any{"login": "me"}},
	// A workflow file that is no mapping: its inputs go unchecked and the
	// dispatch is sent (a checked one would refuse the sample inputs).
	"dispatch_workflow": {"GET /api/v1/repos/x/x/raw/{path...}": "not a workflow"},
	// Gitea hands out a runner registration token on POST (Forgejo on GET).
	"get_repo_runner_registration_token": {"GET /api/v1/version": giteaVersion},
	"get_org_runner_registration_token":  {"GET /api/v1/version": giteaVersion},
	"get_my_runner_registration_token":   {"GET /api/v1/version": giteaVersion},
	"get_site_runner_registration_token": {"GET /api/v1/version": giteaVersion},
}

var giteaVersion = map[string]any{"version": "1.26.0"}

var forgejoVersion = map[string]any{"version": "11.0.0+gitea-1.22.0"}

// additiveUpdates are the tools that PUT or PATCH and still only add:
// each with why it is not destructive (the MCP spec: destructiveHint false
// means the tool's updates are only additive).
var additiveUpdates = map[string]string{
	"enable_workflow":      "PUT switches a workflow back on; nothing is lost (disable_workflow is the destructive one)",
	"add_team_member":      "PUT creates the membership; nothing that existed changes",
	"add_team_repo":        "PUT creates the team's access to the repository; nothing that existed changes",
	"add_repo_topic":       "PUT adds one topic; the others stay",
	"add_quota_group_rule": "PUT adds one rule to the group; its other rules stay",
	"add_quota_group_user": "PUT puts one user in the group; its other users and the user's other groups stay",
	"add_repo_team":        "PUT gives the team access at its own permission; nothing that existed changes",
	"mark_notification_read": "only the thread's read flag changes, as opening it in the web UI does; " +
		"no content is lost",
	"mark_all_notifications_read":  "only read flags change, as for mark_notification_read",
	"mark_repo_notifications_read": "only read flags change, as for mark_notification_read",
	"star_repo":                    "PUT adds the user's star; nothing that existed changes",
	"watch_repo":                   "PUT adds the user's watch; nothing that existed changes",
	"subscribe_issue":              "PUT adds the user's subscription; nothing that existed changes",
}

// destructivePosts are the tools that are destructive although they only
// POST: each with what they destroy.
var destructivePosts = map[string]string{
	"merge_pull_request":         "the merge rewrites the base branch and closes the pull request for good; it cannot be undone",
	"cancel_workflow_run":        "cancelled jobs stop and cannot be resumed, only run again",
	"change_files":               "one POST that may overwrite and delete files",
	"set_user_quota_groups":      "one POST that replaces every quota group the user is in",
	"apply_diff_patch":           "one POST that may overwrite and delete files, as change_files",
	"dismiss_pull_review":        "it voids another user's approval or change request for the merge rules",
	"update_pull_request_branch": "a rebase replaces the head branch's commits; a merge adds one the author did not write",
	"transfer_repo":              "the owner gives the repository away: its URL changes and its old owner may lose access",
	"reject_repo_transfer":       "the offered transfer is dropped; only its sender can offer it again",
	"convert_mirror_repo":        "mirroring stops for good: a repository cannot become a mirror again",
	"sync_push_mirrors":          "the push is forced: the remote's branches and tags are overwritten by the repository's",
	"sync_mirror":                "the mirror's branches and tags are overwritten by its origin's",
	"rename_site_user":           "the login changes: links and git remotes under the old name stop working, and the old name is free for anyone to take",
}

// TestAnnotationsMatchBehaviour calls every tool against a fake forge that
// accepts anything, and checks the HTTP methods it sent against what its
// annotations promise: a read-only tool only reads, a write tool writes,
// only destructive tools delete, and a tool that overwrites an existing
// object (PUT or PATCH) is destructive unless it is a listed additive one.
func TestAnnotationsMatchBehaviour(t *testing.T) {
	for _, d := range operation.All() {
		if d.Offline {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle("/", func(w http.ResponseWriter, r *http.Request) {
				fakeforge.WriteJSON(w, http.StatusOK, map[string]any{})
			})
			for pattern, body := range sampleAnswers[d.Name] {
				f.JSON(pattern, http.StatusOK, body)
			}
			f.Call(t, operation.All(), d.Name, sampleArgs(d))
			reqs := f.Requests()
			require.NotEmpty(t, reqs, "the tool reached the forge")
			methods := map[string]bool{}
			for _, r := range reqs {
				methods[r.Method] = true
			}
			if d.Annotations.ReadOnly {
				for m := range methods {
					assert.Contains(t, []string{http.MethodGet, http.MethodHead}, m, "read-only tool sent %s", m)
				}
				return
			}
			assert.True(t, methods[http.MethodPost] || methods[http.MethodPut] || methods[http.MethodPatch] || methods[http.MethodDelete],
				"a write tool writes; sent %v", methods)
			if methods[http.MethodDelete] {
				assert.True(t, d.Annotations.Destructive, "a tool that deletes is marked destructive")
			}
			if (methods[http.MethodPut] || methods[http.MethodPatch]) && additiveUpdates[d.Name] == "" {
				assert.True(t, d.Annotations.Destructive, "a tool that overwrites (PUT/PATCH) is marked destructive; sent %v", methods)
			}
			if d.Annotations.Destructive && destructivePosts[d.Name] == "" {
				assert.True(t, methods[http.MethodDelete] || methods[http.MethodPut] || methods[http.MethodPatch],
					"a destructive tool deletes or overwrites; sent %v", methods)
			}
		})
	}
}

// TestAnnotationExceptionsExist keeps the exception lists honest: every
// entry names a tool that exists and still behaves as the list says.
func TestAnnotationExceptionsExist(t *testing.T) {
	for _, list := range []map[string]string{additiveUpdates, destructivePosts} {
		for name := range list {
			d, ok := tool.Find(operation.All(), name)
			if assert.True(t, ok, "%s is a tool", name) {
				_, listed := destructivePosts[name]
				assert.Equal(t, listed, d.Annotations.Destructive, "%s is annotated as its list says", name)
			}
		}
	}
}
