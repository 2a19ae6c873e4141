package forgejo_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestParseWebURL(t *testing.T) {
	base, _ := url.Parse("https://forge.example")
	sub, _ := url.Parse("https://example.org/git")
	tests := []struct {
		name string
		base *url.URL
		raw  string
		want forgejo.WebTarget
		err  string
	}{
		{"repository", base, "https://forge.example/alice/demo", forgejo.WebTarget{Owner: "alice", Repo: "demo"}, ""},
		{"clone URL", base, "https://forge.example/alice/demo.git", forgejo.WebTarget{Owner: "alice", Repo: "demo"}, ""},
		{"trailing slash, query", base, "https://forge.example/alice/demo/?tab=x", forgejo.WebTarget{Owner: "alice", Repo: "demo"}, ""},
		{"issue", base, "https://forge.example/alice/demo/issues/12", forgejo.WebTarget{Owner: "alice", Repo: "demo", Index: 12}, ""},
		{"issue comment", base, "https://forge.example/alice/demo/issues/12#issuecomment-345", forgejo.WebTarget{Owner: "alice", Repo: "demo", Index: 12, Comment: 345}, ""},
		{"pull request files", base, "https://forge.example/alice/demo/pulls/7/files", forgejo.WebTarget{Owner: "alice", Repo: "demo", Index: 7}, ""},
		{"issue list", base, "https://forge.example/alice/demo/issues?state=closed", forgejo.WebTarget{Owner: "alice", Repo: "demo"}, ""},
		{"file on a branch", base, "https://forge.example/alice/demo/src/branch/main/docs/a%20b.md#L3", forgejo.WebTarget{Owner: "alice", Repo: "demo", Ref: "main", Path: "docs/a b.md"}, ""},
		{"file at a commit", base, "https://forge.example/alice/demo/src/commit/0123abc/go.mod", forgejo.WebTarget{Owner: "alice", Repo: "demo", Ref: "0123abc", Path: "go.mod"}, ""},
		{"raw file on a tag", base, "https://forge.example/alice/demo/raw/tag/v1.0/README.md", forgejo.WebTarget{Owner: "alice", Repo: "demo", Ref: "v1.0", Path: "README.md"}, ""},
		{"folder root", base, "https://forge.example/alice/demo/src/branch/dev", forgejo.WebTarget{Owner: "alice", Repo: "demo", Ref: "dev"}, ""},
		{"commit", base, "https://forge.example/alice/demo/commit/0123abcd", forgejo.WebTarget{Owner: "alice", Repo: "demo", SHA: "0123abcd"}, ""},
		{"run", base, "https://forge.example/alice/demo/actions/runs/4", forgejo.WebTarget{Owner: "alice", Repo: "demo", Run: 4}, ""},
		{"job", base, "https://forge.example/alice/demo/actions/runs/4/jobs/1", forgejo.WebTarget{Owner: "alice", Repo: "demo", Run: 4, Job: 1}, ""},
		{"release", base, "https://forge.example/alice/demo/releases/tag/v2.0", forgejo.WebTarget{Owner: "alice", Repo: "demo", Tag: "v2.0"}, ""},
		{"under a base path", sub, "https://example.org/git/alice/demo/issues/3", forgejo.WebTarget{Owner: "alice", Repo: "demo", Index: 3}, ""},
		{"port spelled out", base, "https://forge.example:443/alice/demo", forgejo.WebTarget{Owner: "alice", Repo: "demo"}, ""},

		{"another host", base, "https://evil.example/alice/demo/issues/1", forgejo.WebTarget{}, "not on the configured forge"},
		{"another scheme", base, "http://forge.example/alice/demo", forgejo.WebTarget{}, "not on the configured forge"},
		{"another port", base, "https://forge.example:8443/alice/demo", forgejo.WebTarget{}, "not on the configured forge"},
		{"host suffix", base, "https://forge.example.evil.example/alice/demo", forgejo.WebTarget{}, "not on the configured forge"},
		{"outside the base path", sub, "https://example.org/other/alice/demo", forgejo.WebTarget{}, "outside the forge's base path /git"},
		{"base path prefix only", sub, "https://example.org/gitx/alice/demo", forgejo.WebTarget{}, "outside the forge's base path"},
		{"user info", base, "https://me:pw@forge.example/alice/demo", forgejo.WebTarget{}, "user information"},
		{"no repository", base, "https://forge.example/alice", forgejo.WebTarget{}, "names no repository"},
		{"dot segment", base, "https://forge.example/alice/%2e%2e/x", forgejo.WebTarget{}, "not one a forge page has"},
		{"escaped slash", base, "https://forge.example/alice/de%2fmo", forgejo.WebTarget{}, "not one a forge page has"},
		{"bad name", base, "https://forge.example/al%20ice/demo", forgejo.WebTarget{}, "is not OWNER/REPO"},
		{"bad number", base, "https://forge.example/alice/demo/issues/x1", forgejo.WebTarget{}, "not a issue or pull request number"},
		{"not a URL", base, "alice/demo", forgejo.WebTarget{}, "is not a web URL"},
		{"ftp", base, "ftp://forge.example/alice/demo", forgejo.WebTarget{}, "is not a web URL"},
		{"no forge", nil, "https://forge.example/alice/demo", forgejo.WebTarget{}, "no forge is configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := forgejo.ParseWebURL(tt.raw, tt.base)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "pw@", "a password is never echoed")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseRepoRef(t *testing.T) {
	base, _ := url.Parse("https://forge.example")
	local, _ := url.Parse("http://127.0.0.1:3000")
	sub, _ := url.Parse("https://example.org/git")
	tests := []struct {
		name, ref   string
		base        *url.URL
		owner, repo string
		err         string
	}{
		{"owner/repo", "alice/demo", base, "alice", "demo", ""},
		{"host/owner/repo", "forge.example/alice/demo", base, "alice", "demo", ""},
		{"host case", "Forge.Example/alice/demo", base, "alice", "demo", ""},
		{"host with port", "127.0.0.1:3000/alice/demo", local, "alice", "demo", ""},
		{"host without its port", "127.0.0.1/alice/demo", local, "alice", "demo", ""},
		{"web URL", "https://forge.example/alice/demo/issues/3", base, "alice", "demo", ""},
		{"clone suffix", "alice/demo.git", base, "alice", "demo", ""},
		{"another host", "github.com/alice/demo", base, "", "", "not on the configured forge forge.example"},
		{"another port", "127.0.0.1:3001/alice/demo", local, "", "", "not on the configured forge"},
		{"another forge's URL", "https://github.com/alice/demo", base, "", "", "not on the configured forge"},
		{"host under a base path", "example.org/alice/demo", sub, "", "", "served under a path"},
		{"bare name", "demo", base, "", "", "wants OWNER/REPO"},
		{"four parts", "a/b/c/d", base, "", "", "wants OWNER/REPO"},
		{"empty owner", "/demo", base, "", "", "wants OWNER/REPO"},
		{"route changer", "alice/de?mo", base, "", "", "letters, digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			owner, repo, err := forgejo.ParseRepoRef(tt.ref, tt.base)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{tt.owner, tt.repo}, []string{owner, repo})
		})
	}
}

func FuzzParseWebURL(f *testing.F) {
	base, _ := url.Parse("https://forge.example/git")
	for _, s := range []string{"https://forge.example/git/a/b/issues/1#issuecomment-2", "https://forge.example/git/a/b/src/branch/x/y", "https://forge.example/git/a/b/actions/runs/1/jobs/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := forgejo.ParseWebURL(raw, base)
		if err != nil {
			return
		}
		u, perr := url.Parse(raw)
		require.NoError(t, perr)
		require.True(t, forgejo.SameOrigin(u, base), "a URL on another origin was read: %q", raw)
		require.NotEmpty(t, got.Owner)
		require.NotEmpty(t, got.Repo)
	})
}
