package forgejo

import (
	"strings"
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
