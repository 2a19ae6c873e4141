package testforge

import (
	"fmt"
	"net/http"
	"testing"
)

// AddCollaborator gives user permission ("read", "write", "admin") on
// owner/repo.
func (f *Forge) AddCollaborator(t testing.TB, owner, repo, user, permission string) {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPut, fmt.Sprintf("%s/collaborators/%s", repoPath(owner, repo), user), map[string]any{"permission": permission}, &raw)
	expect(t, "adding collaborator", status, http.StatusNoContent, raw)
}
