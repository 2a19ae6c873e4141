package demos

import (
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// forgeDiffs returns the blocks of document d (by index) whose output
// honestly differs on the live forge from what the document says, which
// is what Gitea 1.26 and Forgejo 13.0.5 print, each with what this forge
// must print there instead. The documents stay as they are; a forge that
// answers otherwise anywhere else still fails them.
//
// Forgejo 10 has Actions but no API to list runs: get_ci_status shows the
// statuses and says in its note that runs are not shown.
func forgeDiffs(t *testing.T, f *testforge.Forge, owner, repo string, d *doc) map[int]string {
	t.Helper()
	if !f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/runs") {
		return nil
	}
	out := map[int]string{}
	note := "Actions runs are not shown: list workflow runs of " + owner + "/" + repo + ": " + missingRuns(f.Identify(t)) + "; "
	for i, b := range d.blocks {
		if !strings.Contains(b.code, "get_ci_status") || !strings.Contains(b.code, "field note") {
			continue
		}
		// The note is the first thing such a block prints.
		if first, rest, ok := strings.Cut(b.output, "\n"); ok && strings.HasPrefix(first, "no check has reported") {
			out[i] = note + first + "\n" + rest
		}
	}
	return out
}

// missingRuns is why get_ci_status shows no runs on forge id: refused
// before sending where the compatibility table knows its version lacks the
// runs route (Forgejo 10), the router's 404 where it does not.
func missingRuns(id testforge.Identity) string {
	d, _ := forgejo.RouteFor(http.MethodGet, "/repos/{owner}/{repo}/actions/runs")
	fg := forgejo.Forge{Flavour: forgejo.Flavour(id.Flavour()), Version: id.Version}
	if d.LackedBy(fg) {
		return (&forgejo.RouteError{Feature: d.Feature, Needs: d.Needs(), Forge: fg}).Error()
	}
	return "this forge (" + id.String() + ") has no such API route (its router answered 404 page not found, " +
		"so nothing was looked up and this says nothing about whether it exists); " + d.Needs()
}
