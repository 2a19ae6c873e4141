package tool

import (
	"context"
	"errors"
	"net/http"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// missingRepo re-labels a forge 404 of a tool that names a repository when
// the repository itself is what is missing. A forge answers a route under a
// repository that does not exist with the same 404 as a missing issue,
// pull request or file in one that does, so "issue o/nope#1 not found"
// read as if the issue were the problem (issue 28, B.5). On a 404 only, it
// asks the forge for the repository: when that is a 404 too, the error
// names the repository; otherwise the error stays as it was.
func missingRepo(ctx context.Context, c *forgejo.Client, d Def, a Args, err error) error {
	var fe *forgejo.Error
	if c == nil || !forgejo.IsNotFound(err) || !errors.As(err, &fe) || d.param("owner") == nil || d.param("repo") == nil {
		return err
	}
	owner, repo := a.String("owner"), a.String("repo")
	subject := RepoRef(a)
	if owner == "" || repo == "" || fe.Subject == subject {
		return err // already about the repository
	}
	p, perr := forgejo.Path("repos", owner, repo)
	if perr != nil {
		return err
	}
	probe := c.DoJSON(ctx, http.MethodGet, p, nil, nil, nil)
	if forgejo.IsNotFound(probe) {
		return forgejo.NotFoundAs(err, subject)
	}
	return err
}

// isURLError reports whether err says the forge URL is wrong.
func isURLError(err error) bool {
	var ue *forgejo.URLError
	return errors.As(err, &ue)
}
