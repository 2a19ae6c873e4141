package actions_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The Actions tools whose routes one flavour, or one version, lacks
// (forgejo.Routes), proven on the recorded answers of the forge that has
// them and refused, before anything is sent, on the recorded forge that
// does not. No recorded forge has Forgejo's cancel route (added after
// 13.0.5): it is proven on Forgejo's v17 development description instead.

// oneSided is a call to a one-sided tool: the route it needs, and what the
// forge that has it answers (want in the result; isError when the recorded
// forge refused the recorded request).
type oneSided struct {
	tool, method, route string
	args                map[string]any
	has                 string // a recording, or "17.0.0-dev" for the description
	lacks               string // a recording
	want                string
	isError             bool
}

func oneSidedCalls() []oneSided {
	repo := func(kv ...any) map[string]any {
		m := map[string]any{"owner": "forgeadmin", "repo": "sweep-rec"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	const fj, gt = "forgejo-13.0.5", "gitea-1.26.0"
	const actions = "/repos/{owner}/{repo}/actions/"
	return []oneSided{
		{tool: "list_action_run_jobs", method: http.MethodGet, route: actions + "runs/{run_id}/jobs", args: repo("run_id", 2.0),
			has: gt, want: `"name":"test","status":"queued","labels":["docker"]`},
		{tool: "get_action_job_logs", method: http.MethodGet, route: actions + "jobs/{job_id}/logs", args: repo("job_id", 2.0),
			has: gt, lacks: fj, isError: true,
			want: `Actions job 2 in forgeadmin/sweep-rec has no log yet (status "queued"): no runner has started it; check that a runner with labels [docker] is online`},
		{tool: "list_run_artifacts", method: http.MethodGet, route: actions + "artifacts", args: repo(),
			has: gt, lacks: fj, want: `"items":[]`},
		{tool: "list_run_artifacts", method: http.MethodGet, route: actions + "runs/{run_id}/artifacts", args: repo("run_id", 2.0),
			has: gt, lacks: fj, want: `"items":[]`},
		{tool: "download_artifact", method: http.MethodGet, route: actions + "artifacts/{artifact_id}", args: repo("artifact_id", 1.0),
			has: gt, lacks: fj, isError: true, want: "artifact 1 in forgeadmin/sweep-rec not found (404): it does not exist or this token cannot see it: artifact not found"},
		{tool: "rerun_workflow_run", method: http.MethodPost, route: actions + "runs/{run}/rerun", args: repo("run_id", 2.0),
			has: gt, lacks: fj, isError: true, want: "this workflow run is not done"},
		{tool: "cancel_workflow_run", method: http.MethodPost, route: actions + "runs/{run_id}/cancel", args: repo("run_id", 2.0),
			has: "17.0.0-dev", lacks: gt, want: `"cancelled":2`},
		{tool: "cancel_workflow_run", method: http.MethodPost, route: actions + "runs/{run_id}/cancel", args: repo("run_id", 2.0),
			has: "17.0.0-dev", lacks: fj, want: `"cancelled":2`},
	}
}

func TestOneSidedActionsToolsWhereTheRouteIs(t *testing.T) {
	for _, c := range oneSidedCalls() {
		t.Run(c.tool+" on "+c.has, func(t *testing.T) {
			f := fakeforge.New(t)
			if c.has == "17.0.0-dev" {
				f.Mimic(describedForgejo(t, c.has))
			} else {
				f.Replay(recording(t, c.has), c.tool)
			}
			res := f.Call(t, actions.Tools(), c.tool, c.args)
			text := fakeforge.Text(t, res)
			assert.Equal(t, c.isError, res.IsError, text)
			assert.Contains(t, text, c.want)
			assert.NotContains(t, text, "no such route")
			if c.has != "17.0.0-dev" {
				assert.Empty(t, f.Unanswered())
				assert.True(t, sentTo(f.Served(), c.method), "the request reached the recorded forge")
			}
		})
	}
}

func TestOneSidedActionsToolsRefusedElsewhere(t *testing.T) {
	for _, c := range oneSidedCalls() {
		if c.lacks == "" {
			continue // taken another way where the route is missing (tasks_test.go)
		}
		t.Run(c.tool+" on "+c.lacks, func(t *testing.T) {
			rec := recording(t, c.lacks)
			d, ok := forgejo.RouteFor(c.method, c.route)
			require.True(t, ok, "%s %s is declared in forgejo.Routes", c.method, c.route)
			require.True(t, d.LackedBy(rec.Forge))
			want := (&forgejo.RouteError{Feature: d.Feature, Needs: d.Needs(), Instead: d.Instead, Forge: rec.Forge}).Error()

			f := fakeforge.New(t)
			f.Replay(rec, c.tool)
			res := f.Call(t, actions.Tools(), c.tool, c.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), want)
			assert.Contains(t, fakeforge.Text(t, res), "this forge ("+rec.Forge.String()+") has no such API route, so nothing was sent")
			for _, e := range f.Served() {
				assert.Equal(t, "/api/v1/version", e.Route(), "only the version probe is sent")
			}
		})
	}
}

// The Needs texts, as README and the refusals show them: which described
// forges have the route and which lack it, never "newer than" a version
// that a newer release still lacks.
func TestOneSidedNeeds(t *testing.T) {
	for route, want := range map[string]string{
		"GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs": "Forgejo 13.0.5 and 15.0.3 lack it; " +
			"of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 has it",
		"POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel": "Forgejo 13.0.5 and 15.0.3 lack it; " +
			"of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 lacks it",
		"POST /repos/{owner}/{repo}/actions/runs/{run}/rerun": "Forgejo 13.0.5, 15.0.3 and 17.0.0-dev lack it; Gitea 1.26.0 has it",
	} {
		method, r, _ := strings.Cut(route, " ")
		d, ok := forgejo.RouteFor(method, r)
		require.True(t, ok, route)
		assert.Equal(t, want, d.Needs(), route)
	}
}

func sentTo(served []*fakeforge.Exchange, method string) bool {
	for _, e := range served {
		if e.Method == method && e.Route() != "/api/v1/version" {
			return true
		}
	}
	return false
}

func describedForgejo(t *testing.T, version string) *fakeforge.Spec {
	t.Helper()
	all, err := fakeforge.LoadDescribed()
	require.NoError(t, err)
	for _, s := range all {
		if s.Flavour == string(forgejo.Forgejo) && strings.HasPrefix(s.Version, version) {
			return s
		}
	}
	t.Fatalf("no described Forgejo %s", version)
	return nil
}
