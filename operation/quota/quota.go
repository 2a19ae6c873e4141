// Package quota has the tools of Forgejo's quota subsystem: for any user,
// the quota of their account or an organisation, what counts towards it
// and whether a kind of write would pass (toolset quota); for a site
// administrator, the quota groups, rules and their members (toolset
// admin). Gitea has no quota: the route gate refuses every tool there
// before anything is sent (pkg/forgejo/compat_quota.go).
//
// The SDK covers only the token's user's quota; every tool takes the raw
// route (forgejo.Client.DoJSON), so the user's and an organisation's
// quota go one way and the results have one shape.
package quota

import (
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the quota of your account or an organisation: not in the
// default selection, and not site administration (that is admin's).
var Toolset = tool.Toolset{ID: "quota", Description: "Storage quota (Forgejo): your or an organisation's quota, what counts towards it, whether a write would pass"}

// Tools returns the quota toolset's tools, then the quota tools of the
// admin toolset.
func Tools() []tool.Def {
	return append(usageTools(), adminTools()...)
}

// Subjects are what a quota rule limits, as Forgejo names them
// (models/quota/limit_subject.go): sizes in bytes, each kind alone or a
// sum of kinds ("all" ones).
var Subjects = []string{
	"size:all", "size:repos:all", "size:repos:public", "size:repos:private",
	"size:git:all", "size:git:lfs",
	"size:assets:all", "size:assets:attachments:all", "size:assets:attachments:issues", "size:assets:attachments:releases",
	"size:assets:artifacts", "size:assets:packages:all", "size:assets:wiki",
}

// Rule is a quota rule: the subjects it limits, together, to Limit bytes.
type Rule struct {
	// Name is shown to site administrators only.
	Name     string   `json:"name,omitempty"`
	Limit    int64    `json:"limit_bytes"`
	Subjects []string `json:"subjects"`
}

// Group is a quota group: rules that apply together to its users.
type Group struct {
	Name  string `json:"name,omitempty"`
	Rules []Rule `json:"rules"`
}

// Quota is an account's quota: the groups it is in and what it uses, in
// bytes.
type Quota struct {
	Groups []Group `json:"groups"`
	Used   Used    `json:"used"`
}

// Used is the bytes an account uses, per kind.
type Used struct {
	ReposPublic         int64 `json:"repos_public"`
	ReposPrivate        int64 `json:"repos_private"`
	GitLFS              int64 `json:"git_lfs"`
	AttachmentsIssues   int64 `json:"attachments_issues"`
	AttachmentsReleases int64 `json:"attachments_releases"`
	Artifacts           int64 `json:"artifacts"`
	Packages            int64 `json:"packages"`
}

// The forge's shapes (QuotaInfo, QuotaGroup, QuotaRuleInfo, QuotaUsed…).
type (
	wireRule struct {
		Name     string   `json:"name"`
		Limit    int64    `json:"limit"`
		Subjects []string `json:"subjects"`
	}
	wireGroup struct {
		Name  string      `json:"name"`
		Rules []*wireRule `json:"rules"`
	}
	wireInfo struct {
		Groups []*wireGroup `json:"groups"`
		Used   *wireUsed    `json:"used"`
	}
	wireUsed struct {
		Size *wireSize `json:"size"`
	}
	wireSize struct {
		Assets *wireAssets `json:"assets"`
		Git    *struct {
			LFS int64 `json:"LFS"`
		} `json:"git"`
		Repos *struct {
			Private int64 `json:"private"`
			Public  int64 `json:"public"`
		} `json:"repos"`
	}
	wireAssets struct {
		Artifacts   int64 `json:"artifacts"`
		Attachments *struct {
			Issues   int64 `json:"issues"`
			Releases int64 `json:"releases"`
		} `json:"attachments"`
		Packages *struct {
			All int64 `json:"all"`
		} `json:"packages"`
	}
)

func compactRule(r *wireRule) Rule {
	out := Rule{Name: r.Name, Limit: r.Limit, Subjects: r.Subjects}
	if out.Subjects == nil {
		out.Subjects = []string{}
	}
	return out
}

func compactGroup(g *wireGroup) Group {
	return Group{Name: g.Name, Rules: tool.Map(g.Rules, compactRule)}
}

func compactQuota(q *wireInfo) Quota {
	out := Quota{Groups: tool.Map(q.Groups, compactGroup)}
	if q.Used == nil || q.Used.Size == nil {
		return out
	}
	s := q.Used.Size
	if s.Repos != nil {
		out.Used.ReposPublic, out.Used.ReposPrivate = s.Repos.Public, s.Repos.Private
	}
	if s.Git != nil {
		out.Used.GitLFS = s.Git.LFS
	}
	if a := s.Assets; a != nil {
		out.Used.Artifacts = a.Artifacts
		if a.Attachments != nil {
			out.Used.AttachmentsIssues, out.Used.AttachmentsReleases = a.Attachments.Issues, a.Attachments.Releases
		}
		if a.Packages != nil {
			out.Used.Packages = a.Packages.All
		}
	}
	return out
}
