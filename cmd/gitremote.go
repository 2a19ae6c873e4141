package cmd

import (
	"bufio"
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The repository a shell is in: its git configuration is read directly
// (no git process, nothing to install), following a worktree's or
// submodule's .git file to the shared configuration, and each remote's URL
// is matched against the configured forge: https or http on the forge's
// host, port and path prefix, or ssh (ssh://host/… or host:…) on its host.
// url.<base>.insteadOf rewrites and include files are not followed.

// gitRemote is one remote of the repository.
type gitRemote struct{ name, url string }

// remoteRepo is the owner and repository a remote of the repository
// holding dir points at on forge, or ok false. The remote named origin is
// preferred, then upstream, then the others by name.
func remoteRepo(dir string, forge *url.URL, env Env) (owner, repo, remote string, ok bool) {
	config := gitConfigPath(dir, env)
	if config == "" {
		return "", "", "", false
	}
	b, err := os.ReadFile(config)
	if err != nil {
		return "", "", "", false
	}
	remotes := parseRemotes(b)
	rank := func(n string) int {
		switch n {
		case "origin":
			return 0
		case "upstream":
			return 1
		}
		return 2
	}
	sort.SliceStable(remotes, func(i, j int) bool {
		if ri, rj := rank(remotes[i].name), rank(remotes[j].name); ri != rj {
			return ri < rj
		}
		return remotes[i].name < remotes[j].name
	})
	for _, r := range remotes {
		if o, n, ok := matchRemote(r.url, forge); ok {
			return o, n, r.name, true
		}
	}
	return "", "", "", false
}

// gitConfigPath finds the configuration of the repository holding dir:
// $GIT_DIR's, or the nearest .git directory's, or, for a .git file
// (worktree, submodule), that of the directory it names, or of the common
// directory that one shares.
func gitConfigPath(dir string, env Env) string {
	_, common := gitDirs(dir, env)
	if common == "" {
		return ""
	}
	return filepath.Join(common, "config")
}

// gitDirs finds the git directory of the repository holding dir (a
// worktree's own, which has its HEAD) and the common directory it shares
// (which has the configuration); "" when dir is in no repository.
func gitDirs(dir string, env Env) (gitDir, common string) {
	gitDir = env("GIT_DIR")
	if gitDir != "" && !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(dir, gitDir)
	}
	for d := dir; gitDir == ""; {
		p := filepath.Join(d, ".git")
		if st, err := os.Stat(p); err == nil {
			if st.IsDir() {
				gitDir = p
				break
			}
			b, err := os.ReadFile(p)
			target, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if err != nil || !found {
				return "", ""
			}
			gitDir = strings.TrimSpace(target)
			if !filepath.IsAbs(gitDir) {
				gitDir = filepath.Join(d, gitDir)
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
	common = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	return gitDir, common
}

// currentBranch is the branch checked out in the repository holding dir,
// as the forge knows it: the branch it tracks (branch.NAME.merge) when
// set, else its own name; ok is false on a detached HEAD or outside a
// repository.
func currentBranch(dir string, env Env) (branch string, ok bool) {
	gitDir, common := gitDirs(dir, env)
	if gitDir == "" {
		return "", false
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	name, found := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
	if !found || name == "" {
		return "", false
	}
	if config, err := os.ReadFile(filepath.Join(common, "config")); err == nil {
		if merge, found := strings.CutPrefix(gitConfigValue(config, "branch", name, "merge"), "refs/heads/"); found && merge != "" {
			return merge, true
		}
	}
	return name, true
}

// gitConfigValue is the first value of key in the [section "sub"] of a
// git configuration file, "" when there is none.
func gitConfigValue(config []byte, section, sub, key string) string {
	for _, e := range gitConfigEntries(config) {
		if strings.EqualFold(e.section, section) && e.sub == sub && strings.EqualFold(e.key, key) {
			return e.value
		}
	}
	return ""
}

// parseRemotes reads the url of each [remote "NAME"] section of a git
// configuration file (the first url of a remote: the one git fetches).
func parseRemotes(config []byte) []gitRemote {
	var out []gitRemote
	seen := map[string]bool{}
	for _, e := range gitConfigEntries(config) {
		if !strings.EqualFold(e.section, "remote") || e.sub == "" || seen[e.sub] || !strings.EqualFold(e.key, "url") {
			continue
		}
		seen[e.sub] = true
		out = append(out, gitRemote{e.sub, e.value})
	}
	return out
}

// gitEntry is one key = value line of a git configuration file, in its
// [section "sub"].
type gitEntry struct{ section, sub, key, value string }

// gitConfigEntries reads the key = value lines of a git configuration
// file with the section they are in (comments and blank lines skipped, a
// quoted value unquoted; include files are not followed).
func gitConfigEntries(config []byte) []gitEntry {
	var out []gitEntry
	var section, sub string
	sc := bufio.NewScanner(bytes.NewReader(config))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section, sub = "", ""
			if end := strings.IndexByte(line, ']'); end >= 0 {
				head := strings.TrimSpace(line[1:end])
				var found bool
				section, sub, found = strings.Cut(head, " ")
				if found {
					sub = strings.Trim(strings.TrimSpace(sub), `"`)
				}
			}
			continue
		}
		key, value, found := strings.Cut(line, "=")
		if !found || section == "" {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		out = append(out, gitEntry{section, sub, strings.TrimSpace(key), value})
	}
	return out
}

// matchRemote returns the owner and repository of a remote URL that
// points at forge.
func matchRemote(remote string, forge *url.URL) (owner, repo string, ok bool) {
	if forge == nil {
		return "", "", false
	}
	var host, path string
	sshLike := false
	if strings.Contains(remote, "://") {
		u, err := url.Parse(remote)
		if err != nil {
			return "", "", false
		}
		switch u.Scheme {
		case "http", "https":
			if u.Scheme != forge.Scheme || portOf(u) != portOf(forge) {
				return "", "", false
			}
		case "ssh", "git+ssh", "ssh+git":
			sshLike = true
		default:
			return "", "", false
		}
		host, path = u.Hostname(), u.Path
	} else {
		// scp-like: [user@]host:owner/repo.git (no slash before the colon).
		colon := strings.IndexByte(remote, ':')
		if colon < 0 || strings.Contains(remote[:colon], "/") {
			return "", "", false
		}
		host, path, sshLike = remote[:colon], remote[colon+1:], true
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		host = strings.Trim(host, "[]")
	}
	if !strings.EqualFold(host, forge.Hostname()) {
		return "", "", false
	}
	prefix := strings.Trim(forge.Path, "/")
	path = strings.Trim(path, "/")
	if prefix != "" {
		rest, found := strings.CutPrefix(path, prefix+"/")
		switch {
		case found:
			path = rest
		case !sshLike:
			return "", "", false // over http the prefix is part of every path
		}
	}
	owner, repo, found := strings.Cut(path, "/")
	repo = strings.TrimSuffix(repo, ".git")
	if !found || !validName(owner) || !validName(repo) {
		return "", "", false
	}
	return owner, repo, true
}

// portOf is u's port, the scheme's default when none is given.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "http" {
		return "80"
	}
	return "443"
}

// validName is what the forge accepts as an owner or repository name
// (tool.Owner's pattern): letters, digits, '-', '_' and '.'.
func validName(s string) bool {
	if s == "" || len(s) > 100 || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
