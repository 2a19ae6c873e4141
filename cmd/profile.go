package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Profiles are forges stored by `forgejo-mcp login`, so a shell needs no
// URL or token in its environment. The configuration directory holds
// config.json (profiles: URL, CA file, token command; the default) and
// tokens/NAME, one 0600 file per profile that stores its token; a profile
// with a token command stores none and runs the command at each start
// instead (a password manager's "pass show forge"). Both files and the
// directory are created private; a token file or a configuration that
// others can read or write is refused, as ssh refuses a key.

// Profile is one stored forge.
type Profile struct {
	URL    string `json:"url"`
	CAFile string `json:"ca_file,omitempty"`
	// TokenCommand prints the token on its standard output; run with
	// sh -c at each start. Empty: the token is in tokens/NAME.
	TokenCommand string `json:"token_command,omitempty"`
}

// profileStore is config.json.
type profileStore struct {
	Default  string             `json:"default,omitempty"`
	Profiles map[string]Profile `json:"profiles"`
}

// tokenCommandTimeout bounds a profile's token command.
const tokenCommandTimeout = 30 * time.Second

// configDir is where profiles live: $XDG_CONFIG_HOME/forgejo-mcp, else
// ~/.config/forgejo-mcp (%AppData%\forgejo-mcp on Windows).
func configDir(env Env) (string, error) {
	if d := env("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "forgejo-mcp"), nil
	}
	if runtime.GOOS == "windows" {
		if d := env("AppData"); d != "" {
			return filepath.Join(d, "forgejo-mcp"), nil
		}
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".config", "forgejo-mcp"), nil
	}
	return "", errors.New("no configuration directory: set HOME or XDG_CONFIG_HOME")
}

// validProfileName keeps a name usable as a file name and on a command
// line: letters, digits, '.', '_' and '-', not starting with '.' or '-'.
func validProfileName(name string) error {
	ok := name != "" && len(name) <= 64 && name[0] != '.' && name[0] != '-'
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("profile name %q: use up to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'", name)
	}
	return nil
}

// loadProfiles reads config.json from dir; a missing file is no profiles.
func loadProfiles(dir string) (*profileStore, error) {
	store := &profileStore{Profiles: map[string]Profile{}}
	path := filepath.Join(dir, "config.json")
	b, err := readPrivate(path, 0o022, "others can change it, and it says which command gives the token")
	if errors.Is(err, fs.ErrNotExist) {
		return store, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, store); err != nil {
		return nil, fmt.Errorf("%s is not valid: %v", path, err)
	}
	if store.Profiles == nil {
		store.Profiles = map[string]Profile{}
	}
	return store, nil
}

// save writes config.json, private, through a temporary file.
func (s *profileStore) save(dir string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writePrivate(filepath.Join(dir, "config.json"), append(b, '\n'))
}

// writePrivate writes b to path (mode 0600, in a 0700 directory) by
// renaming a complete temporary file into place.
func writePrivate(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		_ = tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxPrivateBytes bounds config.json and a token file.
const maxPrivateBytes = 1 << 20

// readPrivate reads a file of the configuration folder that only this user
// may have written (openPrivate): config.json (mask 0o022: others may not
// write it) or a token (0o077: nor read it).
func readPrivate(path string, mask fs.FileMode, why string) ([]byte, error) {
	f, err := openPrivate(path, mask, why)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("reading %s: %v", path, pe.Err)
		}
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPrivateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", path, err)
	}
	if len(b) > maxPrivateBytes {
		return nil, fmt.Errorf("%s is larger than %d KiB: not a configuration file", path, maxPrivateBytes>>10)
	}
	return b, nil
}

func tokenPath(dir, name string) string { return filepath.Join(dir, "tokens", name) }

// token is the profile's token: its token command's output, or its file.
func (p Profile) token(ctx context.Context, dir, name string) (string, error) {
	if p.TokenCommand != "" {
		return runTokenCommand(ctx, p.TokenCommand)
	}
	path := tokenPath(dir, name)
	b, err := readPrivate(path, 0o077, "others can read the token")
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("profile %s: cannot read its token: %v; run forgejo-mcp login --profile %s again", name, errors.Unwrap(err), name)
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// runTokenCommand runs a token command with sh -c (cmd /C on Windows) and
// returns the first line it prints. Its standard error is kept to say why
// it failed; its output is never shown.
func runTokenCommand(ctx context.Context, command string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, tokenCommandTimeout)
	defer cancel()
	shell, flag := "sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.CommandContext(ctx, shell, flag, command)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return "", fmt.Errorf("the token command %q failed (%v): %s", command, err, msg)
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("the token command %q printed no token", command)
	}
	return line, nil
}

// applyProfile fills the forge and token from a profile when neither
// --url nor FORGEJO_URL gives a forge: the named one (--profile or
// FORGEJO_MCP_PROFILE), else the default. A URL from flags or environment
// wins (the environment still wins over stored configuration); a token set
// without a URL is refused rather than sent to a profile's forge.
func (c *Config) applyProfile(ctx context.Context, env Env) error {
	if strings.TrimSpace(c.RawURL) != "" {
		if c.Profile != "" {
			c.notes = append(c.notes, fmt.Sprintf("profile %s is not used: the forge is set by --url or FORGEJO_URL, which win over profiles", c.Profile))
		}
		return nil
	}
	dir, err := configDir(env)
	if err != nil {
		if c.Profile != "" {
			return usagef("--profile %s: %v", c.Profile, err)
		}
		return nil
	}
	store, err := loadProfiles(dir)
	if err != nil {
		return usagef("%v", err)
	}
	name := c.Profile
	if name == "" {
		name = store.Default
	}
	if name == "" {
		return nil
	}
	p, ok := store.Profiles[name]
	if !ok {
		return usagef("no profile %q%s; forgejo-mcp login --list shows the stored ones", name, didYouMeanWord(name, store.names()))
	}
	if c.TokenFile != "" || strings.TrimSpace(env("FORGEJO_ACCESS_TOKEN")) != "" {
		return usagef("a token is set (FORGEJO_ACCESS_TOKEN or --token-file) but no forge URL: set FORGEJO_URL or --url for it, or unset it to use profile %s and its own token", name)
	}
	token, err := p.token(ctx, dir, name)
	if err != nil {
		return usagef("%v", err)
	}
	c.RawURL, c.profileToken, c.Profile = p.URL, token, name
	if c.CAFile == "" {
		c.CAFile = p.CAFile
	}
	return nil
}

func (s *profileStore) names() []string {
	out := make([]string, 0, len(s.Profiles))
	for n := range s.Profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
