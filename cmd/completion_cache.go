package cmd

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/complete"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Each TAB is a new process, so what completion looked up on the forge is
// kept on disk for a minute: in the user's cache folder
// ($XDG_CACHE_HOME/forgejo-mcp/completion, else ~/.cache/…), a 0700
// folder of 0600 files, at most shellCacheEntries of them, each read back
// with the same checks as the profiles (this user's own regular file in
// folders nobody else can change). An entry is keyed by the forge, the
// token's source (a hash of the token, or the profile's name and token
// command, so a profile's command need not run to find its entries), the
// lookup and its arguments: the second TAB of `-R alice/<TAB>` asks the
// forge nothing, and a profile's token command (a password manager)
// runs once a minute at most, not at every TAB. Names of private
// repositories are what it holds, hence the private files and the short
// life.

const (
	shellCacheTTL     = time.Minute
	shellCacheEntries = 64
)

// shellEntry is one cached lookup.
type shellEntry struct {
	Expires time.Time `json:"expires"`
	// Whole: Values is the forge's whole list, for any prefix; else the
	// values matching the prefix it was asked with.
	Whole  bool     `json:"whole"`
	Values []string `json:"values"`
}

// shellCache is the folder; "" caches nothing.
type shellCache string

func newShellCache(env Env) shellCache {
	base := env("XDG_CACHE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		h := env("HOME")
		if h == "" {
			return ""
		}
		base = filepath.Join(h, ".cache")
	}
	return shellCache(filepath.Join(base, "forgejo-mcp", "completion"))
}

func (sc shellCache) path(key string) string { return filepath.Join(string(sc), key+".json") }

// get returns a live entry's values for prefix.
func (sc shellCache) get(key string, now time.Time) (shellEntry, bool) {
	if sc == "" {
		return shellEntry{}, false
	}
	b, err := readPrivate(sc.path(key), 0o077, "others can read what completion looked up")
	if err != nil {
		return shellEntry{}, false
	}
	var e shellEntry
	if json.Unmarshal(b, &e) != nil || now.After(e.Expires) {
		return shellEntry{}, false
	}
	return e, true
}

// put stores an entry, then drops the expired ones and the oldest past
// shellCacheEntries.
func (sc shellCache) put(key string, e shellEntry, now time.Time) {
	if sc == "" {
		return
	}
	b, err := json.Marshal(e)
	if err != nil || writePrivate(sc.path(key), b) != nil {
		return
	}
	ents, err := os.ReadDir(string(sc))
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var live []file
	for _, de := range ents {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if now.Sub(info.ModTime()) > shellCacheTTL {
			_ = os.Remove(filepath.Join(string(sc), de.Name()))
			continue
		}
		live = append(live, file{de.Name(), info.ModTime()})
	}
	sort.Slice(live, func(i, j int) bool { return live[i].mod.After(live[j].mod) })
	for _, f := range live[min(len(live), shellCacheEntries):] {
		_ = os.Remove(filepath.Join(string(sc), f.name))
	}
}

// shellKey names a lookup of one identity.
func shellKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// completionForge is the forge completion would ask and who it would ask
// as, found without running a profile's token command: the URL from
// --url, FORGEJO_URL or the profile, and id, the token's source. ok is
// false when no forge is configured.
func completionForge(cfg *Config, env Env) (forge *url.URL, id string, ok bool) {
	raw := strings.TrimSpace(cfg.RawURL)
	if raw != "" {
		token := strings.TrimSpace(env("FORGEJO_ACCESS_TOKEN"))
		if cfg.TokenFile != "" {
			b, err := os.ReadFile(cfg.TokenFile)
			if err != nil {
				return nil, "", false
			}
			token = strings.TrimSpace(string(b))
		}
		id = "token:" + shellKey(token)
	} else {
		dir, err := configDir(env)
		if err != nil {
			return nil, "", false
		}
		store, err := loadProfiles(dir)
		if err != nil {
			return nil, "", false
		}
		name := cfg.Profile
		if name == "" {
			name = store.Default
		}
		p, found := store.Profiles[name]
		if !found {
			return nil, "", false
		}
		raw, id = p.URL, "profile:"+name+":command:"+p.TokenCommand
		if p.TokenCommand == "" {
			b, err := readPrivate(tokenPath(dir, name), 0o077, "others can read the token")
			if err != nil {
				return nil, "", false
			}
			id = "profile:" + name + ":token:" + shellKey(strings.TrimSpace(string(b)))
		}
	}
	u, err := forgejo.ParseBaseURL(raw)
	if err != nil {
		return nil, "", false
	}
	return u, id, true
}

// forgeLookups answers completion lookups from the cache, and from the
// forge (the profile applied, its token command run, once) on a miss.
type forgeLookups struct {
	cfg   *Config
	env   Env
	forge string
	id    string
	cache shellCache
	now   time.Time

	once      sync.Once
	completer *complete.Completer
}

// values completes lookup name from prefix with args, as
// complete.Completer.Values does.
func (fl *forgeLookups) values(ctx context.Context, name, prefix string, args map[string]string, pulls bool) []string {
	keyParts := []string{fl.id, fl.forge, name, strings.Join(sortedPairs(args), "&"), boolWord(pulls)}
	if e, ok := fl.cache.get(shellKey(keyParts...), fl.now); ok && e.Whole {
		return complete.Match(e.Values, prefix)
	}
	prefixKey := shellKey(append(keyParts, "prefix", strings.ToLower(prefix))...)
	if e, ok := fl.cache.get(prefixKey, fl.now); ok {
		return e.Values
	}
	fl.once.Do(func() {
		cfg := *fl.cfg
		if cfg.applyProfile(ctx, fl.env) != nil || cfg.resolve(fl.env, false) != nil || cfg.URL == nil {
			return
		}
		fl.completer = complete.New(complete.Options{Client: cfg.runner(slog.New(slog.DiscardHandler)).Client, Plain: true})
	})
	if fl.completer == nil {
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	vals, whole := fl.completer.Lookup(lctx, name, prefix, args, pulls)
	if vals == nil {
		return nil // a failure is not kept
	}
	if whole {
		fl.cache.put(shellKey(keyParts...), shellEntry{Expires: fl.now.Add(shellCacheTTL), Whole: true, Values: vals}, fl.now)
		return complete.Match(vals, prefix)
	}
	fl.cache.put(prefixKey, shellEntry{Expires: fl.now.Add(shellCacheTTL), Values: vals}, fl.now)
	return vals
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func boolWord(b bool) string {
	if b {
		return "pulls"
	}
	return "issues"
}
