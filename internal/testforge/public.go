package testforge

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// NewPublicRepo creates a fresh public repository owned by f.User, with a
// README on main, deleted when the test ends: where strangers may write
// issues and comments, the ground of the trust tests.
func (f *Forge) NewPublicRepo(t testing.TB) (owner, name string) {
	t.Helper()
	req := map[string]any{
		"name":           "pub-" + sanitize(t.Name(), 40) + "-" + randomHex(t, 4),
		"description":    "public test repo of " + t.Name(),
		"private":        false,
		"auto_init":      true,
		"default_branch": "main",
	}
	var raw []byte
	status := f.Do(t, http.MethodPost, "/user/repos", req, &raw)
	expect(t, "creating public repo", status, http.StatusCreated, raw)
	var repo struct {
		Name  string `json:"name"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
	}
	if err := json.Unmarshal(raw, &repo); err != nil {
		t.Fatalf("testforge: decoding created repo: %v", err)
	}
	owner, name = repo.Owner.Login, repo.Name
	t.Cleanup(func() {
		var raw []byte
		status := f.Do(t, http.MethodDelete, repoPath(owner, name), nil, &raw)
		if status != http.StatusNoContent && status != http.StatusNotFound {
			t.Errorf("testforge: deleting repo %s/%s: status %d: %s", owner, name, status, raw)
		}
	})
	return owner, name
}

// AddCollaborator gives user permission ("read", "write", "admin") on
// owner/repo.
func (f *Forge) AddCollaborator(t testing.TB, owner, repo, user, permission string) {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPut, fmt.Sprintf("%s/collaborators/%s", repoPath(owner, repo), user), map[string]any{"permission": permission}, &raw)
	expect(t, "adding collaborator", status, http.StatusNoContent, raw)
}
