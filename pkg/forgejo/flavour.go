package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Flavour is the forge software behind the API: Forgejo, or Gitea, from
// which Forgejo forked and whose routes it mostly shares.
type Flavour string

// The flavours this server knows.
const (
	Forgejo Flavour = "Forgejo"
	Gitea   Flavour = "Gitea"
)

// Forge is the flavour and version of the forge a client talks to.
type Forge struct {
	Flavour Flavour `json:"flavour"`
	Version string  `json:"version"`
}

// String is "Forgejo 11.0.0+gitea-1.22.0" or "Gitea 1.26.0", how messages
// name the forge.
func (f Forge) String() string { return string(f.Flavour) + " " + f.Version }

// ParseForge reads /api/v1/version's answer. Forgejo's version carries the
// Gitea version it is compatible with as semver build metadata
// ("11.0.0+gitea-1.22.0", composed so by Forgejo's Makefile); Gitea's is
// its plain version ("1.26.0").
func ParseForge(version string) Forge {
	v := strings.TrimSpace(version)
	if strings.Contains(v, "+gitea-") || strings.Contains(strings.ToLower(v), "forgejo") {
		return Forge{Flavour: Forgejo, Version: v}
	}
	return Forge{Flavour: Gitea, Version: v}
}

// forgeTTL is how long a detected flavour is trusted before the next call
// asks again (a forge can be upgraded under a running server).
const forgeTTL = 10 * time.Minute

// forgeCache holds one client's detected forge: one value, so it is
// bounded whatever the traffic. Copies of a Client share it.
type forgeCache struct {
	mu    sync.Mutex
	forge Forge
	at    time.Time
}

// Forge returns the flavour and version of the forge, asking
// /api/v1/version on first use and again after forgeTTL; a failed probe is
// not cached.
func (c *Client) Forge(ctx context.Context) (Forge, error) {
	fc := c.forge
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if !fc.at.IsZero() && time.Since(fc.at) < forgeTTL {
		return fc.forge, nil
	}
	var v struct {
		Version string `json:"version"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, "/version", nil, nil, &v); err != nil {
		return Forge{}, Relabel(err, "get the version of", "the forge")
	}
	if strings.TrimSpace(v.Version) == "" {
		return Forge{}, fmt.Errorf("get the version of the forge: it answered no version")
	}
	fc.forge, fc.at = ParseForge(v.Version), time.Now()
	return fc.forge, nil
}

// cached returns the detected forge without asking, when it is fresh.
func (fc *forgeCache) cached() (Forge, bool) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.forge, !fc.at.IsZero() && time.Since(fc.at) < forgeTTL
}
