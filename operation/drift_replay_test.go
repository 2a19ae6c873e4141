package operation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/quota"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The replay drift test drives every tool against the real answers of
// Forgejo 13.0.5 and 15.0.3 and Gitea 1.26.0 (internal/fakeforge/recorded, replayed by
// fakeforge.Replay: matched by method and route, ids normalised), where the
// shaped drift tests drive them against answers generated from the API
// descriptions. The recordings are inputs nobody on this project wrote:
// nulls, fields the descriptions omit, and statuses they misstate.

// replayArgs are the arguments the recorded sweeps gave a tool, where
// sampleArgs' would ask for something the recorded objects lack (a label
// named "x"). The sequence numbers are the recordings' (alike in the
// first sweeps; replayArgsOn has a recording's own).
var replayArgs = map[string]map[string]any{
	"add_issue_labels":    {"labels": []any{"bug"}}, // seq 82–84: the repository's one label
	"remove_issue_labels": {"labels": []any{"bug"}}, // seq 85–87
	// gitea-1.26.0-sweep2 seq 1046: user2's line comment, replied to.
	"reply_to_pull_review_comment": {"comment_id": 4.0},
	// gitea-1.26.0-sweep2 seq 1051–1052: the pending review's comment deleted.
	"delete_pull_review_comment": {"comment_id": 10.0},
}

// replayUncovered are, per recording, the tools whose results the replay
// cannot check, and why. The lists only shrink: a tool the replay comes to
// cover on a recording must leave that recording's list (the "uncovered
// list only shrinks" subtest). The fifteen tools added after the first
// sweep were swept again on Gitea 1.26.0 (gitea-1.26.0-sweep2) and on
// Forgejo 13.0.5 (forgejo-13.0.5-sweep2, 14 of them; get_ci_status was
// answered by other tools' exchanges before), and Forgejo 15.0.3 was swept
// whole: every tool is covered on every full recording.
var replayUncovered = map[string]map[string]string{
	"forgejo-13.0.5": unionOf(actionsConfigUnswept(slices.Concat(forgejoRefuses, giteaOnly,
		runnerTools("list_%s_runners", "get_%s_runner", "delete_%s_runner", "register_%s_runner"))...),
		repoAdminUnswept()).with(ownerToolsUnswept).with(maintainerTools).with(quotaTools()).
		with(adminUnswept("list_site_runners", "get_site_runner", "delete_site_runner", "register_site_runner", "edit_site_runner",
			"list_site_workflow_runs", "list_site_action_jobs")),
	"forgejo-15.0.3": unionOf(actionsConfigUnswept(slices.Concat(forgejoRefuses, giteaOnly)...), repoAdminUnswept()).
		with(ownerToolsUnswept).with(maintainerTools).with(quotaTools()).
		with(adminUnswept("edit_site_runner", "list_site_workflow_runs", "list_site_action_jobs")),
	// gitea-1.26.0-sweep3 recorded issue 29's tools but these: a
	// registration token would put a live runner secret in the recording,
	// a transfer to accept or reject needs a second user's session, and
	// migrate_repo's source token would reach it.
	// The site administration tools and the feeds and LFS reads came after
	// it (the gate refuses the site runner registration and job search).
	"gitea-1.26.0": unswept{
		"get_repo_runner_registration_token": giteaSecret, "get_org_runner_registration_token": giteaSecret,
		"get_my_runner_registration_token": giteaSecret,
		"accept_repo_transfer":             "needs a transfer offered to another user, whose session the sweep does not have",
		"reject_repo_transfer":             "needs a transfer offered to another user, whose session the sweep does not have",
		"migrate_repo":                     "its source token would reach the recording",
	}.with(adminUnswept("register_site_runner", "search_site_runner_jobs", "create_site_user")).
		with([]string{"list_org_activity", "list_team_activity", "list_user_activity"}),
	// A partial recording (fakeforge.PartialRecordings): only the tools it
	// swept are driven, and all of them succeeded live.
	"forgejo-10.0.0-dev-456d05998231+gitea-1.22.0": {},
}

// giteaSecret is why the registration token tools stay unswept.
const giteaSecret = "its answer is a live runner registration token, which the recorder does not redact"

// quotaTools are the quota tools of issue 29 (operation/quota), which no
// recording of Forgejo has yet; on Gitea, which has no quota, the route
// gate refuses them before sending, which the replay counts as covered.
func quotaTools() []string {
	var out []string
	for _, d := range quota.Tools() {
		out = append(out, d.Name)
	}
	return out
}

// maintainerTools are the maintainer tools of issue 29 (content, merge,
// issue-admin, activity), which no recording has yet: scripts/record-sweep
// records them.
var maintainerTools = []string{"apply_diff_patch", "search_repo_content", "get_commit_pull_request", "delete_issue", "list_repo_comments", "list_repo_activity",
	"list_org_activity", "list_team_activity", "list_user_activity", "download_repo_file"}

// actionsConfigUnswept are the Actions secret and variable tools of
// issue 29, which no recording has yet: scripts/record-sweep records them
// (internal/recorder/sweep) on any forge.
// forgejoRefuses are issue 29's tools the route gate refuses on Forgejo
// before anything is sent: their replay there needs no recording (and so
// for the runner tools a recorded forge lacks, below).
var forgejoRefuses = []string{"enable_workflow", "disable_workflow"}

// giteaOnly are the tools whose routes only Gitea has (a package's
// versions, disabling a runner): refused before sending on every Forgejo.
var giteaOnly = append([]string{"list_package_versions", "get_latest_package_version"}, runnerTools("edit_%s_runner")...)

// runnerTools are the runner tools of every level named by the patterns.
func runnerTools(patterns ...string) []string {
	var out []string
	for _, p := range patterns {
		for _, level := range []string{"repo", "org", "my"} {
			out = append(out, fmt.Sprintf(p, level))
		}
	}
	return out
}

func actionsConfigUnswept(covered ...string) unswept {
	const notSwept = "not swept yet: scripts/record-sweep records it (issue 29)"
	out := unswept{
		"list_repo_action_secrets":    notSwept,
		"upsert_repo_action_secret":   notSwept,
		"delete_repo_action_secret":   notSwept,
		"list_repo_action_variables":  notSwept,
		"get_repo_action_variable":    notSwept,
		"create_repo_action_variable": notSwept,
		"update_repo_action_variable": notSwept,
		"delete_repo_action_variable": notSwept,
	}
	for _, name := range []string{"list_org_action_secrets", "upsert_org_action_secret", "delete_org_action_secret",
		"list_org_action_variables", "get_org_action_variable", "create_org_action_variable", "update_org_action_variable",
		"delete_org_action_variable", "upsert_my_action_secret", "delete_my_action_secret", "list_my_action_variables",
		"get_my_action_variable", "create_my_action_variable", "update_my_action_variable", "delete_my_action_variable",
		"list_workflows", "get_workflow", "enable_workflow", "disable_workflow",
		"list_packages", "get_package", "list_package_files", "delete_package", "link_package", "unlink_package",
		"list_package_versions", "get_latest_package_version", "edit_repo_runner", "edit_org_runner", "edit_my_runner",
		"get_repo_runner_registration_token", "list_repo_runners", "get_repo_runner", "delete_repo_runner", "register_repo_runner", "search_repo_runner_jobs", "get_org_runner_registration_token", "list_org_runners", "get_org_runner", "delete_org_runner", "register_org_runner", "search_org_runner_jobs", "get_my_runner_registration_token", "list_my_runners", "get_my_runner", "delete_my_runner", "register_my_runner", "search_my_runner_jobs"} {
		out[name] = notSwept
	}
	// dispatch_workflow reads the workflow file to check the inputs before
	// it dispatches; the recordings have the dispatch but not that read.
	out["dispatch_workflow"] = "reads the workflow file first since issue 29, which no recording has: " + notSwept
	for _, name := range covered {
		delete(out, name)
	}
	return out
}

// repoAdminUnswept are the repository administration tools of issue 29
// (operation/repoadmin) no recording has yet, but for get_repo_settings,
// which reads the repository the sweeps read, and the tools covered
// (refused before sending on a forge that lacks their route): scripts/record-sweep
// records them (internal/recorder/sweep) on any forge.
func repoAdminUnswept(covered ...string) unswept {
	out := unswept{}
	for _, d := range repoadmin.Tools() {
		if d.Name != "get_repo_settings" && !slices.Contains(covered, d.Name) {
			out[d.Name] = "not swept yet: scripts/record-sweep records it (issue 29)"
		}
	}
	return out
}

// unionOf is the union of lists of unswept tools.
func unionOf(lists ...unswept) unswept {
	out := unswept{}
	for _, l := range lists {
		maps.Copy(out, l)
	}
	return out
}

// unswept are tools no recording has yet, each with why.
type unswept map[string]string

// with adds names, as not swept yet.
func (u unswept) with(names []string) unswept {
	for _, n := range names {
		u[n] = "not swept yet: scripts/record-sweep records it (issue 29)"
	}
	return u
}

// ownerToolsUnswept are issue 29's webhooks of organisations and users,
// forks, pins, subscriptions, stars and blocked users, which no recording
// has yet: scripts/record-sweep records them (internal/recorder/sweep).
var ownerToolsUnswept = []string{
	"list_org_hooks", "get_org_hook", "create_org_hook", "edit_org_hook", "delete_org_hook",
	"list_my_hooks", "get_my_hook", "create_my_hook", "edit_my_hook", "delete_my_hook",
	"list_repo_forks", "get_fork_sync_status", "sync_fork",
	"list_pinned_issues", "pin_issue", "unpin_issue", "move_issue_pin",
	"watch_repo", "unwatch_repo", "check_repo_watch", "list_my_watched_repos", "list_repo_watchers",
	"subscribe_issue", "unsubscribe_issue", "check_issue_subscription", "list_issue_subscribers",
	"star_repo", "unstar_repo", "check_repo_star", "list_starred_repos", "list_repo_stargazers",
	"list_blocked_users", "block_user", "unblock_user",
}

// replayArgsOn are the arguments one recording's sweep gave a tool where
// they differ from replayArgs: the objects got other ids there.
var replayArgsOn = map[string]map[string]map[string]any{
	"gitea-1.26.0": {
		// gitea-1.26.0-sweep3 seq 2155–2156: the open pull request's head, found in the list.
		"get_commit_pull_request": {"sha": "29b7b3b58aa0ad7bb7c577335a66a75e0b9b7a0d"},
	},
	"forgejo-15.0.3": {
		"reply_to_pull_review_comment": {"comment_id": 21.0}, // seq 163–164: review 1's comment 21, replied to
		"delete_pull_review_comment":   {"comment_id": 26.0}, // seq 170
	},
}

// replayRun is one tool call against a replayed recording.
type replayRun struct {
	Result     *mcp.CallToolResult
	Answers    []fakeforge.Answer
	Unanswered []string
	// Decoded maps "METHOD /api/v1/path" of a raw request to the type its
	// answer was decoded into (SDK calls are not observed).
	Decoded map[string]reflect.Type
}

func driveReplay(t testing.TB, rec *fakeforge.Recording, d tool.Def, args map[string]any) replayRun {
	f := fakeforge.New(t)
	defer f.Close() // now, not at the test's end (fakeforge.New says why)
	f.Replay(rec, d.Name)
	var mu sync.Mutex
	decoded := map[string]reflect.Type{}
	c := f.Client().WithDecodeObserver(func(method, p string, out any) {
		mu.Lock()
		defer mu.Unlock()
		p, _, _ = strings.Cut(p, "?")
		p = "/" + strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(p, "/"), "api/v1"), "/")
		if out != nil {
			decoded[method+" /api/v1"+p] = reflect.TypeOf(out)
		}
	})
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second}
	res := r.Call(context.Background(), d, args)
	return replayRun{Result: res, Answers: f.Answers(), Unanswered: f.Unanswered(), Decoded: decoded}
}

func replayArgsOf(rec *fakeforge.Recording, d tool.Def) map[string]any {
	args := sampleArgs(d)
	for k, v := range replayArgs[d.Name] {
		args[k] = v
	}
	for k, v := range replayArgsOn[rec.Name][d.Name] {
		args[k] = v
	}
	return args
}

// replayed is the outcome of one tool against one recording.
type replayed struct {
	Tool   string
	Status string // "answered", "unanswered" or "refused"
	Run    replayRun
}

// replayAll drives every tool against every recording, and each partial
// recording's swept tools against it.
func replayAll(t *testing.T) map[*fakeforge.Recording][]replayed {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	partial, err := fakeforge.PartialRecordings()
	require.NoError(t, err)
	out := map[*fakeforge.Recording][]replayed{}
	for _, rec := range append(recs, partial...) {
		// A partial recording swept some tools only: the others would be
		// answered by nothing or by other tools' exchanges.
		only := map[string]bool{}
		if slices.Contains(partial, rec) {
			for _, name := range rec.Tools() {
				only[name] = true
			}
		}
		for _, d := range operation.All() {
			if d.Offline || len(only) > 0 && !only[d.Name] {
				continue
			}
			rr := driveReplay(t, rec, d, replayArgsOf(rec, d))
			status := "answered"
			switch {
			case refusedOn(d.Name, rec.Forge):
				status = "refused"
			case len(rr.Unanswered) > 0:
				status = "unanswered"
			}
			out[rec] = append(out[rec], replayed{Tool: d.Name, Status: status, Run: rr})
		}
	}
	return out
}

// TestToolsReplayRecordedAnswers drives every tool against each recorded
// forge and sorts it: answered (every request it sent had a recorded
// answer), unanswered (a route the sweep never recorded; the tool must be in
// replayUncovered) or refused (the version gate: nothing is sent). An
// answered tool whose answers were all 2xx must succeed, its structured
// result must validate against its outputSchema; a swept one must lose no
// field the forge sent (lostFields, but replayDrops), and no member its own
// types read may be one no recorded forge sent (readMembers, but
// replayUnsent). A tool the sweep did not call is answered by other tools'
// exchanges, which are no baseline for what it should show.
func TestToolsReplayRecordedAnswers(t *testing.T) {
	all := replayAll(t)
	defs := map[string]tool.Def{}
	for _, d := range operation.All() {
		defs[d.Name] = d
	}
	uncovered := map[string]map[string]bool{} // recording → tool
	unsent := map[string]map[string]bool{}    // "tool reads member" → recording → missing there
	dropped := map[string]bool{}              // replayDrops entries seen
	for rec, runs := range all {
		uncovered[rec.Name] = map[string]bool{}
		swept := rec.Tools()
		spec, err := rec.Spec()
		require.NoError(t, err)
		tools := map[string][]string{} // outcome → tool names
		matched := map[int]bool{}
		fieldsChecked := 0 // (tool call, field) pairs the forge sent and the result was checked to keep
		for _, r := range runs {
			tools[r.Status] = append(tools[r.Status], r.Tool)
			for _, a := range r.Run.Answers {
				matched[a.Exchange.Seq] = true
			}
			res := r.Run.Result
			switch r.Status {
			case "refused":
				if assert.True(t, res.IsError, "%s: %s answers although its route is missing", rec.Name, r.Tool) {
					assert.Contains(t, textOf(res), "nothing was sent", "%s: %s", rec.Name, r.Tool)
				}
				for _, a := range r.Run.Answers {
					assert.Equal(t, "/api/v1/version", a.Exchange.Route(), "%s: %s sent a request before refusing", rec.Name, r.Tool)
				}
				continue
			case "unanswered":
				uncovered[rec.Name][r.Tool] = true
				continue
			}
			if res.IsError {
				if allSucceeded(r.Run.Answers) {
					if !slices.Contains(swept, r.Tool) {
						uncovered[rec.Name][r.Tool] = true // answered only by other tools' exchanges, which do not fit
						tools["misfit"] = append(tools["misfit"], r.Tool)
						continue
					}
					t.Errorf("%s: %s fails where every recorded answer succeeded: %s", rec.Name, r.Tool, textOf(res))
				}
				tools["forge error"] = append(tools["forge error"], r.Tool)
				continue
			}
			tools["succeeded"] = append(tools["succeeded"], r.Tool)
			full, err := defs[r.Tool].OutputSchema()
			require.NoError(t, err)
			if full != nil && !defs[r.Tool].Unadvertised { // downloads have none (withoutOutput); unadvertised ones send none
				sc, ok := res.StructuredContent.(json.RawMessage)
				if assert.True(t, ok, "%s: %s has an outputSchema but no structured result", rec.Name, r.Tool) {
					assert.NoError(t, schemacheck.Validate(full, sc), "%s: %s: %s", rec.Name, r.Tool, sc)
				}
			}
			if !slices.Contains(swept, r.Tool) {
				tools["by others"] = append(tools["by others"], r.Tool)
				continue // answers cobbled from other calls are no baseline for what it should show
			}
			lost, checked := lostFields(full, r.Run)
			fieldsChecked += checked
			for _, name := range lost {
				if _, ok := replayDrops[r.Tool+" "+name]; ok {
					dropped[r.Tool+" "+name] = true
					continue
				}
				t.Errorf("%s: %s loses %q: the forge sent it, the outputSchema keeps it, the result has it empty or not at all", rec.Name, r.Tool, name)
			}
			for f, missing := range readMembers(spec, r.Run) {
				k := r.Tool + " reads " + f
				if unsent[k] == nil {
					unsent[k] = map[string]bool{}
				}
				unsent[k][rec.Name] = missing
			}
		}
		toolExchanges := 0
		for _, e := range rec.Exchanges {
			if e.IsTool() {
				toolExchanges++
			}
		}
		n := func(outcome string) int { return len(tools[outcome]) }
		t.Logf("%s: %d tools answered from the recording: %d succeeded (%d of them swept, their fields checked: %d fields; "+
			"%d answered by other tools' exchanges: %v), %d gave the recorded forge's error (%v), "+
			"%d failed on other tools' exchanges, not swept themselves (%v); %d unanswered (%v); "+
			"%d refused by the version gate (%v). %d of the recording's %d exchanges (%d of tool calls) matched a request",
			rec.Name, n("answered"), n("succeeded"), n("succeeded")-n("by others"), fieldsChecked, n("by others"), tools["by others"],
			n("forge error"), tools["forge error"], n("misfit"), tools["misfit"], n("unanswered"), tools["unanswered"], n("refused"), tools["refused"],
			len(matched), len(rec.Exchanges), toolExchanges)
	}
	// A member a tool's own type reads that one forge sends and the other
	// does not is how the tools read both flavours (Forgejo's "started",
	// Gitea's "started_at"); one that no recorded forge sends is a name
	// nobody sends.
	var never []string
	for k, by := range unsent {
		all := true
		for _, missing := range by {
			all = all && missing
		}
		if all {
			never = append(never, k)
		}
	}
	sort.Strings(never)
	for _, k := range never {
		if _, ok := replayUnsent[k]; !ok {
			t.Errorf("%s, which no recorded forge sent", k)
		}
	}
	for k, why := range replayUnsent {
		assert.Contains(t, never, k, "replayUnsent lists %q (%s), which a recorded forge sends or the tool no longer reads", k, why)
	}
	for k, why := range replayDrops {
		assert.True(t, dropped[k], "replayDrops lists %q (%s), which the tool no longer drops", k, why)
	}
	t.Run("uncovered list only shrinks", func(t *testing.T) {
		for rec, tools := range uncovered {
			listed, ok := replayUncovered[rec]
			if !assert.True(t, ok, "replayUncovered has no list for recording %s", rec) {
				continue
			}
			for name := range tools {
				assert.Contains(t, listed, name, "%s cannot be replayed on %s: add it to replayUncovered[%q] with why", name, rec, rec)
			}
			for name, why := range listed {
				assert.True(t, tools[name], "%s is covered by the replay of %s now: remove it from replayUncovered[%q] (%s)", name, rec, rec, why)
			}
		}
		for rec := range replayUncovered {
			assert.Contains(t, uncovered, rec, "replayUncovered lists tools of %s, which is no recording", rec)
		}
	})
}

// allSucceeded reports whether every recorded answer a run got was 2xx.
func allSucceeded(answers []fakeforge.Answer) bool {
	for _, a := range answers {
		if a.Exchange.Status/100 != 2 {
			return false
		}
	}
	return true
}

// replayDrops are fields a tool's outputSchema has (another tool of the
// same shape shows them) that its result leaves out on purpose although
// the recorded forge sent them: "tool field" and why.
var replayDrops = map[string]string{
	"list_repo_issues body":                 "lists leave bodies out (issue.Issue); get_issue_by_index shows it",
	"search_issues body":                    "lists leave bodies out (issue.Issue); get_issue_by_index shows it",
	"update_issue body":                     "an edit's answer leaves the body out: the caller sent it, get_issue_by_index shows it",
	"list_repo_pull_requests body":          "lists leave bodies out (pull.Pull); get_pull_request_by_index shows it",
	"update_pull_request body":              "a write's answer leaves the body out: the caller sent it",
	"merge_pull_request body":               "the merged pull request is shown compact, as in lists",
	"update_pull_request_branch body":       "the updated pull request is shown compact, as in lists (forgejo-15.0.3 seq 265: the only sweep whose pull request had a body)",
	"list_releases body":                    "lists leave notes out (release.Release); get_release shows them",
	"list_releases author":                  "lists leave the publisher out; get_release shows it",
	"create_org_team units":                 "units are shown only where they differ from the team's permission (issue 19: the same on both forges)",
	"list_org_teams units":                  "units are shown only where they differ from the team's permission",
	"search_org_teams units":                "units are shown only where they differ from the team's permission",
	"list_repo_teams units":                 "units are shown only where they differ from the team's permission (org.TeamAccess; gitea-1.26.0-sweep3 seq 2179)",
	"check_repo_team units":                 "units are shown only where they differ from the team's permission (org.TeamAccess)",
	"add_repo_team units":                   "units are shown only where they differ from the team's permission (org.TeamAccess)",
	"list_issue_attachments type":           "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"get_issue_attachment type":             "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"edit_issue_attachment type":            "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"create_issue_attachment type":          "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"list_comment_attachments type":         "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"get_comment_attachment type":           "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"edit_comment_attachment type":          "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"create_comment_attachment type":        "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"list_release_attachments type":         "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"get_release_attachment type":           "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"edit_release_attachment type":          "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"create_release_attachment type":        "Forgejo's type \"attachment\" is the ordinary case, left out so both forges read the same; only \"external\" is shown (attachment.Meta)",
	"get_file_content type":                 "a file's content is a file; type tells a directory listing's entries apart",
	"add_pull_review_comments submitted_at": "a PENDING review is not submitted: both forges send its creation time as submitted_at (gitea-1.26.0-sweep2 seq 1045), which would read as sent (pull.compactReview)",
	"list_action_run_jobs id":               "on a forge without the jobs route the run is read for its number, commit and page only; the recorded task lists were empty (no runner took a job)",
	"list_action_run_jobs status":           "on a forge without the jobs route the run is read for its number, commit and page only; the recorded task lists were empty (no runner took a job)",
	"list_action_run_jobs html_url":         "on a forge without the jobs route the run is read for its number, commit and page only; the recorded task lists were empty (no runner took a job)",
	"get_ci_status id":                      "the pull request is read for its head commit only; id, title and html_url in the outputSchema are a run's (the recorded head had no runs)",
	"get_ci_status title":                   "the pull request is read for its head commit only; id, title and html_url in the outputSchema are a run's (the recorded head had no runs)",
	"get_ci_status html_url":                "the pull request is read for its head commit only; id, title and html_url in the outputSchema are a run's (the recorded head had no runs)",
}

// replayUnsent are members a tool's own type reads that no recorded forge
// sent: "tool reads METHOD route Type.member" and why it still reads it.
var replayUnsent = map[string]string{
	// Actions shapes (operation/actions): the tool reads both flavours'
	// names; these two no recorded run carried.
	"get_workflow_run reads GET /repos/{}/{}/actions/runs/{} rawRun.conclusion":                    "Gitea sends conclusion only once a run completed; the sweep's run never ran",
	"list_workflow_runs reads GET /repos/{}/{}/actions/runs rawRunList.workflow_runs[].conclusion": "Gitea sends conclusion only once a run completed; the sweep's run never ran",
	"get_workflow_run reads GET /repos/{}/{}/actions/runs/{} rawRun.duration":                      "both Forgejo descriptions have ActionRun.duration; 13.0.5 left it out of a run that never started",
	"list_workflow_runs reads GET /repos/{}/{}/actions/runs rawRunList.workflow_runs[].duration":   "both Forgejo descriptions have ActionRun.duration; 13.0.5 left it out of a run that never started",
	// Both flavours' names of a run where the jobs route is missing.
	"list_action_run_jobs reads GET /repos/{}/{}/actions/runs/{} rawRunRef.run_number": "Gitea's name, read should a Gitea lack the jobs route; only Forgejo runs were read so (the live test's proxy reads a Gitea run)",
	"list_action_run_jobs reads GET /repos/{}/{}/actions/runs/{} rawRunRef.head_sha":   "Gitea's name, read should a Gitea lack the jobs route; only Forgejo runs were read so (the live test's proxy reads a Gitea run)",
	// Forgejo's names (rawRunner, block.listed), which no recorded Forgejo
	// sent: its sweeps registered no runner and blocked no one.
	"get_repo_runner reads GET /repos/{}/{}/actions/runners/{} rawRunner.description":    "Forgejo 15's runner has a description; Gitea's has none, and no Forgejo sweep had a runner",
	"get_repo_runner reads GET /repos/{}/{}/actions/runners/{} rawRunner.version":        "Forgejo 15's runner has a version; Gitea's has none, and no Forgejo sweep had a runner",
	"edit_repo_runner reads PATCH /repos/{}/{}/actions/runners/{} rawRunner.description": "rawRunner reads both flavours; only Gitea has the PATCH, and its runner has no description",
	"edit_repo_runner reads PATCH /repos/{}/{}/actions/runners/{} rawRunner.version":     "rawRunner reads both flavours; only Gitea has the PATCH, and its runner has no version",
	"list_blocked_users reads GET /user/blocks listed[].block_id":                        "Forgejo's BlockedUser (its list_blocked route); listed reads both flavours, and no Forgejo sweep blocked anyone",
	"list_blocked_users reads GET /user/blocks listed[].created_at":                      "Forgejo's BlockedUser (its list_blocked route); listed reads both flavours, and no Forgejo sweep blocked anyone",
	// One type for a page fetched and a page listed.
	"list_wiki_pages reads GET /repos/{}/{}/wiki/pages rawPage[].content_base64": "rawPage also decodes get_wiki_page's answer; a listed page has no content",
	"list_wiki_pages reads GET /repos/{}/{}/wiki/pages rawPage[].commit_count":   "rawPage also decodes get_wiki_page's answer; a listed page has no commit count",
}
