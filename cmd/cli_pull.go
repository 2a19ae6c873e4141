package cmd

import (
	"context"
	"fmt"
	"os"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The pull request of the checked-out branch: a tool about one pull
// request (its index is tool.PullIndex) called in a clone without an index
// works on the open pull request whose head is the branch checked out
// there, as `gh pr view` does. get_ci_status, which also takes a ref, reads
// the branch itself when no pull request has it as its head.

// pullScanPages bounds the open pull requests looked through for the
// branch's (pages of 50).
const pullScanPages = 5

// takesPull says whether d is about one pull request, by number.
func takesPull(d tool.Def) bool {
	p, ok := paramOf(d, "index")
	return ok && p.Description == tool.PullIndex().Description
}

// branchPull fills args' index with the number of the open pull request
// whose head is the branch checked out in the current folder, when d is
// about a pull request and the command line gave no index (nor, for
// get_ci_status, a ref). It says on standard error which one it took.
func branchPull(ctx context.Context, std IO, c *forgejo.Client, d tool.Def, args map[string]any, env Env) error {
	_, hasIndex := args["index"]
	_, hasRef := args["ref"]
	if !takesPull(d) || hasIndex || hasRef || c == nil || args["owner"] == nil || args["repo"] == nil {
		return nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	branch, ok := currentBranch(dir, env)
	if !ok {
		return nil
	}
	owner, repo := fmt.Sprint(args["owner"]), fmt.Sprint(args["repo"])
	matches, err := pullsWithHead(ctx, c, owner, repo, branch)
	if err != nil {
		return fmt.Errorf("finding the pull request of the branch %s in %s/%s: %v; give --index", clean(branch, false), owner, repo, err)
	}
	switch {
	case len(matches) == 1:
		args["index"] = matches[0].Index
		fmt.Fprintf(std.Err, "forgejo-mcp: pull request %s/%s#%d (the branch %s checked out here)\n", owner, repo, matches[0].Index, clean(branch, false))
	case len(matches) > 1:
		var nums []string
		for _, p := range matches {
			nums = append(nums, fmt.Sprintf("#%d", p.Index))
		}
		return fmt.Errorf("the branch %s is the head of several open pull requests in %s/%s (%s): give --index", clean(branch, false), owner, repo, strings.Join(nums, ", "))
	case hasParam(d, "ref"):
		args["ref"] = branch
		fmt.Fprintf(std.Err, "forgejo-mcp: no open pull request in %s/%s has the branch %s as its head: reading the branch\n", owner, repo, clean(branch, false))
	default:
		return fmt.Errorf("no open pull request in %s/%s has the branch %s (checked out here) as its head: give --index", owner, repo, clean(branch, false))
	}
	return nil
}

// pullsWithHead lists the open pull requests of owner/repo whose head
// branch is branch, looking through at most pullScanPages pages. One whose
// head is in owner/repo itself is preferred to a fork's of the same name.
func pullsWithHead(ctx context.Context, c *forgejo.Client, owner, repo, branch string) ([]*sdk.PullRequest, error) {
	var same, forks []*sdk.PullRequest
	for page := 1; page <= pullScanPages; page++ {
		prs, resp, err := c.SDK(ctx).ListRepoPullRequests(owner, repo, sdk.ListPullRequestsOptions{
			ListOptions: sdk.ListOptions{Page: page, PageSize: 50}, State: sdk.StateOpen})
		if err := forgejo.Fail(resp, err, "list pull requests of", owner+"/"+repo); err != nil {
			return nil, err
		}
		for _, p := range prs {
			if p == nil || p.Head == nil || p.Head.Ref != branch {
				continue
			}
			if r := p.Head.Repository; r != nil && strings.EqualFold(r.FullName, owner+"/"+repo) {
				same = append(same, p)
			} else {
				forks = append(forks, p)
			}
		}
		if len(prs) < 50 {
			break
		}
	}
	if len(same) > 0 {
		return same, nil
	}
	return forks, nil
}
