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

// Require fails when the route method+route (a swagger path template,
// such as "/repos/{owner}/{repo}/actions/workflows") exists on one flavour
// only (Differences) and the forge is the other one: the error names the
// feature, the flavour the route needs and the forge's flavour and version,
// instead of the bare 404 the forge would answer. When the forge cannot be
// identified, or the route is on both, it returns nil and the call goes
// ahead.
func (c *Client) Require(ctx context.Context, method, route string) error {
	d, ok := RouteOnly(method, route)
	if !ok {
		return nil
	}
	f, err := c.Forge(ctx)
	if err != nil || f.Flavour == d.Only {
		return nil
	}
	return &FlavourError{Feature: d.Feature, Needs: d.Only, Forge: f}
}

// FlavourError is a call refused because the forge's flavour lacks the
// route it needs.
type FlavourError struct {
	Feature string
	Needs   Flavour
	Forge   Forge
}

func (e *FlavourError) Error() string {
	return fmt.Sprintf("%s is available on %s only; this forge is %s, whose API has no such route", e.Feature, e.Needs, e.Forge)
}
