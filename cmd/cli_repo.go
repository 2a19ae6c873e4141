package cmd

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// repoContext fills a tool's owner and repo the way repoContextHelp
// documents: --owner and --repo (or --args) as given; else -R OWNER/REPO
// (--repo with a slash); else, for a tool that needs both, the current
// directory's git remote on the configured forge. Nothing found leaves
// them out, and the tool says they are required.
func repoContext(fs *pflag.FlagSet, d tool.Def, args map[string]any, forge *url.URL, env Env) error {
	if !hasParam(d, "owner") || !hasParam(d, "repo") {
		return nil
	}
	if value, _ := args["repo"].(string); fs.Changed("repo") && strings.Contains(value, "/") {
		owner, name, _ := strings.Cut(value, "/")
		if owner == "" || name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("-R wants OWNER/REPO, got %q", value)
		}
		if fs.Changed("owner") {
			return fmt.Errorf("-R %s names the owner already: leave out --owner, or give --repo just the repository's name", value)
		}
		args["owner"], args["repo"] = owner, name
		return nil
	}
	_, hasOwner := args["owner"]
	_, hasRepo := args["repo"]
	if p, _ := paramOf(d, "owner"); hasOwner || hasRepo || !p.Required {
		return nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	owner, repo, _, ok := remoteRepo(dir, forge, env)
	if !ok {
		where := "the configured forge"
		if forge != nil {
			where = forge.String()
		}
		return fmt.Errorf("%s needs a repository: give -R OWNER/REPO (or --owner and --repo), or run it in a clone whose git remote is on %s", d.Name, where)
	}
	args["owner"], args["repo"] = owner, repo
	return nil
}
