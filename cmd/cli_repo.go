package cmd

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// repoFrom says where a call's repository came from when the command line
// did not name it: the git remote (by name) of the clone it ran in, and
// the clone's checked-out branch, for the pull request of that branch.
type repoFrom struct {
	remote string // "" when the command line named the repository
	dir    string // the clone's folder
}

// repoContext fills a tool's owner and repo the way repoContextHelp
// documents: a web URL (the positional argument, or url in --args) fills
// what its page names; --owner and --repo (or --args) as given; else -R
// OWNER/REPO, HOST/OWNER/REPO or the repository's web URL (--repo with a
// slash); else, for a tool that needs both, the current directory's git
// remote on the configured forge. Nothing found leaves them out, and the
// tool says they are required.
func repoContext(fs *pflag.FlagSet, d tool.Def, args map[string]any, forge *url.URL, env Env) (repoFrom, error) {
	if !hasParam(d, "owner") || !hasParam(d, "repo") {
		return repoFrom{}, nil
	}
	if _, ok := args[tool.URLArg]; ok && d.TakesURL() {
		if forge == nil {
			return repoFrom{}, fmt.Errorf("a web URL is read against the configured forge, and none is: set --url or FORGEJO_URL, or log in")
		}
		return repoFrom{}, d.FillFromURL(args, forge)
	}
	if value, _ := args["repo"].(string); fs.Changed("repo") && strings.Contains(value, "/") {
		owner, name, err := forgejo.ParseRepoRef(value, forge)
		if err != nil {
			return repoFrom{}, err
		}
		if fs.Changed("owner") {
			return repoFrom{}, fmt.Errorf("-R %s names the owner already: leave out --owner, or give --repo just the repository's name", value)
		}
		args["owner"], args["repo"] = owner, name
		return repoFrom{}, nil
	}
	_, hasOwner := args["owner"]
	_, hasRepo := args["repo"]
	if p, _ := paramOf(d, "owner"); hasOwner || hasRepo || !p.Required {
		return repoFrom{}, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return repoFrom{}, nil
	}
	owner, repo, remote, ok := remoteRepo(dir, forge, env)
	if !ok {
		where := "the configured forge"
		if forge != nil {
			where = forge.String()
		}
		return repoFrom{}, fmt.Errorf("%s needs a repository: give -R OWNER/REPO (or --owner and --repo, or a web URL), or run it in a clone whose git remote is on %s", d.Name, where)
	}
	args["owner"], args["repo"] = owner, repo
	return repoFrom{remote: remote, dir: dir}, nil
}

// note says on standard error which repository a write acts on when the
// git remote chose it, under --yes too: a clone's remotes are easy to
// forget, and a write to the wrong repository is not undone by reading
// the output.
func (from repoFrom) note(std IO, d tool.Def, args map[string]any) {
	if from.remote == "" || d.Annotations.ReadOnly {
		return
	}
	fmt.Fprintf(std.Err, "forgejo-mcp: %s acts on %v/%v (from the git remote %s)\n", d.Name, args["owner"], args["repo"], clean(from.remote, false))
}
