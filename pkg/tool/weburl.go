package tool

import (
	"fmt"
	"net/url"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// A web URL in place of a tool's repository arguments: every tool that
// takes owner and repo also takes url, a page of the configured forge
// (forgejo.ParseWebURL), which fills owner, repo and whatever else the
// page names (an issue's number, a file's ref and path, a commit, a run).
// It is not advertised in each tool's input schema (the default
// selection's tools/list is budgeted, and it would be one more line per
// tool); the server's instructions and --cli help say it once.

// URLArg is the argument a web URL is given in.
const URLArg = "url"

// urlPart is one thing a web URL can name, and the parameters it fills,
// the first a tool has. A strict part the tool takes no parameter for is
// refused: an issue's URL given to a tool about its repository would
// otherwise act on the repository without a word.
type urlPart struct {
	what   string
	params []string
	strict bool
	value  func(forgejo.WebTarget) any
}

// urlParts are read in this order; a zero value is not named.
var urlParts = []urlPart{
	{"the owner", []string{"owner"}, true, func(t forgejo.WebTarget) any { return t.Owner }},
	{"the repository", []string{"repo"}, true, func(t forgejo.WebTarget) any { return t.Repo }},
	{"issue or pull request #%v", []string{"index"}, true, func(t forgejo.WebTarget) any { return t.Index }},
	{"ref %v", []string{"ref", "sha", "branch"}, true, func(t forgejo.WebTarget) any { return t.Ref }},
	{"path %v", []string{"path"}, true, func(t forgejo.WebTarget) any { return t.Path }},
	{"commit %v", []string{"sha", "ref"}, true, func(t forgejo.WebTarget) any { return t.SHA }},
	{"run %v", []string{"run_id"}, true, func(t forgejo.WebTarget) any { return t.Run }},
	{"job %v", []string{"job_id"}, true, func(t forgejo.WebTarget) any { return t.Job }},
	{"tag %v", []string{"tag", "tag_name"}, true, func(t forgejo.WebTarget) any { return t.Tag }},
	// A comment anchor is where the page was scrolled to: a tool about the
	// issue reads the issue.
	{"comment %v", []string{"comment_id"}, false, func(t forgejo.WebTarget) any { return t.Comment }},
}

// TakesURL says whether d reads a web URL in place of its repository
// arguments: it takes owner and repo, and url is none of its own names
// (create_repo_hook's url is the hook's target).
func (d Def) TakesURL() bool {
	if d.param("owner") == nil || d.param("repo") == nil || d.param(URLArg) != nil {
		return false
	}
	_, aliased := d.Aliases[URLArg]
	return !aliased
}

// fromURL is raw with a web URL in it read (FillFromURL) against the
// call's forge, in a copy.
func (d Def) fromURL(raw any, client *forgejo.Client) (any, error) {
	m, ok := raw.(map[string]any)
	if !ok || m[URLArg] == nil || !d.TakesURL() {
		return raw, nil
	}
	if client == nil {
		return nil, fmt.Errorf("%s needs a forge to read a url against: set --url or FORGEJO_URL", d.Name)
	}
	cp := make(map[string]any, len(m))
	for k, v := range m {
		cp[k] = v
	}
	return cp, d.FillFromURL(cp, client.BaseURL())
}

// FillFromURL replaces args' url with the arguments the page it names
// stands for, read against the forge at base; an argument also given
// must agree. Nothing happens without a url or for a tool that does not
// take one.
func (d Def) FillFromURL(args map[string]any, base *url.URL) error {
	raw, ok := args[URLArg]
	if !ok || !d.TakesURL() {
		return nil
	}
	s, ok := raw.(string)
	if !ok {
		return fmt.Errorf("%s: url must be a string, a web URL of the forge", d.Name)
	}
	t, err := forgejo.ParseWebURL(s, base)
	if err != nil {
		return fmt.Errorf("%s: url: %v", d.Name, err)
	}
	if t.Comment > 0 && d.param("comment_id") != nil && d.param("index") == nil {
		t.Index = 0 // a comment's page: the comment is what a comment tool reads
	}
	fill := map[string]any{}
	for _, part := range urlParts {
		v := part.value(t)
		if isZero(v) {
			continue
		}
		name := ""
		for _, p := range part.params {
			if _, taken := fill[p]; d.param(p) != nil && !taken {
				name = p
				break
			}
		}
		if name == "" {
			if part.strict {
				what := part.what
				if strings.Contains(what, "%v") {
					what = fmt.Sprintf(what, v)
				}
				return fmt.Errorf("%s: the url names %s, which %s does not take; give the URL of what it works on", d.Name, what, d.Name)
			}
			continue
		}
		fill[name] = v
	}
	for name, v := range fill {
		if given, ok := args[name]; ok && fmt.Sprint(given) != fmt.Sprint(v) {
			return fmt.Errorf("%s: %s is %v, but the url names %v: give one of them", d.Name, name, given, v)
		}
		args[name] = v
	}
	delete(args, URLArg)
	return nil
}

func isZero(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x) == ""
	case int64:
		return x == 0
	}
	return v == nil
}
