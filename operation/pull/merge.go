package pull

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Merging when CI is green, and keeping a branch mergeable. The forge
// schedules a merge (merge_when_checks_succeed) when its base branch's
// protection rule requires status checks that have not all passed yet; with
// no such requirement, or with every required check passed, Gitea 1.26 and
// Forgejo merge at once. Right after a pull request is opened or pushed to,
// the forge answers 405 "Please try again later" until it has computed
// whether it can merge; postMerge waits that out.

// MergeToolset holds the merge tools beyond merge_pull_request, out of the
// default selection to keep it lean.
var MergeToolset = tool.Toolset{ID: "merge", Description: "Beyond merge_pull_request: cancel an auto-merge, update a PR branch from its base, find a commit's PR"}

// autoMergeParam is merge_pull_request's switch for merging once the
// checks pass.
func autoMergeParam() tool.Param {
	return tool.Bool("auto_merge", "Merge when required checks pass")
}

// AutoMerge is merge_pull_request's result with auto_merge (merged at
// once, or scheduled), and without it when the merged pull request could
// not be read back.
type AutoMerge struct {
	Number    int64  `json:"number"`
	Merged    bool   `json:"merged"`
	Scheduled bool   `json:"scheduled"`
	Note      string `json:"note"`
}

func mergeTools() []tool.Def {
	return []tool.Def{
		commitPullTool(),
		{
			Name: "cancel_auto_merge", Title: "Cancel an auto-merge", Toolset: MergeToolset,
			Description: "Cancel a pull request's scheduled merge (merge_pull_request auto_merge)",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex()},
			Annotations: tool.Destroy(true), Handler: cancelAutoMerge,
			Output: tool.Shape{"number": int64(0), "cancelled": true},
		},
		{
			// Destructive: a rebase rewrites the head branch's commits.
			Name: "update_pull_request_branch", Title: "Update a pull request's branch", Toolset: MergeToolset,
			Description: "Bring a PR's head branch up to date with its base, by a merge commit or a rebase",
			Params: []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(),
				tool.Str("style", "How", tool.Default("merge"), tool.OneOf("merge", "rebase"))},
			Annotations: tool.Destroy(false), Handler: updateBranch, Output: Pull{},
		},
	}
}

// autoMergeWait is how long autoMerged watches a scheduled merge that no
// rule holds back: the forge merges it within seconds.
var autoMergeWait = 3 * time.Second

// autoMerged reads the pull request after an auto_merge request: merged at
// once, or scheduled. Without a protection rule that requires status
// checks Gitea 1.26 merges a scheduled pull request within seconds whatever
// its checks say (it answers "scheduled" first), so the result then waits
// for that merge and, if it has not happened yet, says so. Forgejo 10
// merges it only once the head commit's statuses pass, required or not.
func autoMerged(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	out := AutoMerge{Number: a.Int("index")}
	pr, resp, err := c.SDK(ctx).GetPullRequest(a.String("owner"), a.String("repo"), a.Int("index"))
	if err := forgejo.Fail(resp, err, "get", ref(a)); err != nil {
		return nil, fmt.Errorf("the merge was scheduled or done, but reading the pull request back failed: %w", err)
	}
	required, contexts, known := requiredChecks(ctx, c, a, pr)
	deadline := time.Now().Add(autoMergeWait)
	for !pr.HasMerged && known && !required && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			deadline = time.Now()
		case <-time.After(250 * time.Millisecond):
		}
		if next, resp, err := c.SDK(ctx).GetPullRequest(a.String("owner"), a.String("repo"), a.Int("index")); forgejo.Fail(resp, err, "get", "") == nil {
			pr = next
		}
	}
	switch {
	case pr.HasMerged:
		out.Merged = true
		out.Note = "merged at once: no protection rule of the base branch requires status checks, or all it requires had passed"
	case known && !required:
		out.Scheduled = true
		out.Note = "scheduled, and no protection rule of the base branch requires status checks: Gitea merges it within seconds " +
			"whatever its checks say; Forgejo 10 waits until the head commit's statuses pass; cancel_auto_merge cancels"
	case len(contexts) > 0:
		out.Scheduled = true
		out.Note = fmt.Sprintf("scheduled: the forge merges it when the required checks (%s) pass; get_ci_status shows them, cancel_auto_merge cancels",
			strings.Join(contexts, ", "))
	default:
		out.Scheduled = true
		out.Note = "scheduled: the forge merges it when the checks the base branch's protection rule requires pass; get_ci_status shows them, cancel_auto_merge cancels"
	}
	return tool.JSON(out)
}

// requiredChecks reads whether the base branch of pr requires status
// checks, and which; known is false when that cannot be read (a branch
// name with a slash is never put in a route).
func requiredChecks(ctx context.Context, c *forgejo.Client, a tool.Args, pr *sdk.PullRequest) (required bool, contexts []string, known bool) {
	if pr.Base == nil || pr.Base.Ref == "" || strings.ContainsAny(pr.Base.Ref, `/\`) {
		return false, nil, false
	}
	p, err := tool.RepoRoute(a, "branches", pr.Base.Ref)
	if err != nil {
		return false, nil, false
	}
	var b sdk.Branch
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &b); err != nil {
		return false, nil, false
	}
	return b.EnableStatusCheck, b.StatusCheckContexts, true
}

// alreadyScheduled rewrites the forge's 409 to an auto_merge request when
// it says a merge is already scheduled (a 409 also answers a head that
// moved, or conflicts).
func alreadyScheduled(err error, a tool.Args) error {
	var fe *forgejo.Error
	if a.Bool("auto_merge") && errors.As(err, &fe) && fe.Status == http.StatusConflict &&
		strings.Contains(strings.ToLower(fe.Message), "scheduled") {
		return fmt.Errorf("%s already has a scheduled merge: cancel_auto_merge cancels it, to schedule another", ref(a))
	}
	return err
}

func cancelAutoMerge(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "merge")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		err = forgejo.Relabel(err, "cancel the auto-merge of", ref(a))
		if !forgejo.IsNotFound(err) {
			return nil, err
		}
		// 404 for a missing PR and for one with nothing scheduled.
		if _, resp, gerr := c.SDK(ctx).GetPullRequest(a.String("owner"), a.String("repo"), a.Int("index")); gerr == nil {
			return nil, fmt.Errorf("%s has no scheduled merge to cancel", ref(a))
		} else if ferr := forgejo.Fail(resp, gerr, "get", ref(a)); !forgejo.IsNotFound(ferr) {
			return nil, err
		}
		return nil, notAPull(ctx, c, a, err)
	}
	return tool.JSON(map[string]any{"number": a.Int("index"), "cancelled": true})
}

func updateBranch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "update")
	if err != nil {
		return nil, err
	}
	style := a.String("style")
	if err := c.DoJSON(ctx, http.MethodPost, p, url.Values{"style": {style}}, nil, nil); err != nil {
		err = forgejo.Relabel(err, "update the branch of", ref(a))
		var fe *forgejo.Error
		switch status := forgejo.StatusOf(err); {
		case status == http.StatusConflict:
			return nil, fmt.Errorf("%w: the base's changes conflict with the branch; resolve them in the branch (change_files), then update again", err)
		case status == http.StatusUnprocessableEntity && errors.As(err, &fe) && fe.Message == "":
			return nil, fmt.Errorf("%s is merged or closed: its branch is not updated", ref(a))
		case status == http.StatusForbidden:
			return nil, fmt.Errorf("%w: this token may not push to the head branch by %s (a protected branch, or a fork that does not allow edits by maintainers)", err, style)
		}
		return nil, notAPull(ctx, c, a, err)
	}
	pr, resp, err := c.SDK(ctx).GetPullRequest(a.String("owner"), a.String("repo"), a.Int("index"))
	if err := forgejo.Fail(resp, err, "get", ref(a)); err != nil {
		return nil, fmt.Errorf("the branch was updated, but reading the pull request back failed: %w", err)
	}
	return tool.JSON(compact(pr, false))
}
