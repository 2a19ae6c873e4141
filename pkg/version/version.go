// Package version names the build: a tagged build its tag, any other build
// its commit, plus "-dirty" when the tree had uncommitted changes.
//
// Two sources, in order: what `make` stamps with -ldflags -X (stamp and
// commit below, from git), and otherwise what the Go toolchain records in
// the binary (runtime/debug.ReadBuildInfo): the module version for
// `go install module@v1.2.3`, and vcs.revision and vcs.modified for
// `go build` in a checkout (unless -buildvcs=false).
package version

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by make (-ldflags "-X codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version.stamp=v1.2.3
// -X codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version.commit=<40 hex>").
var (
	stamp  string
	commit string
)

// Version is what this binary was built from, as Get reports it.
var Version = Get().Version

// Info describes the build.
type Info struct {
	Version   string `json:"version"`    // tag, or short commit, plus -dirty; "devel" when unknown
	Commit    string `json:"commit"`     // full commit hash; "" when unknown
	GoVersion string `json:"go_version"` // the toolchain that built it
}

// Get describes this build.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(stamp, commit, bi)
}

// UserAgent is the default User-Agent sent to the forge.
func UserAgent() string { return "forgejo-mcp/" + Version }

// pseudo matches a Go pseudo-version's tail: a timestamp and a 12-digit
// commit prefix (v0.0.0-20261201015339-abcdef123456, v1.2.4-0.2026…-…).
var pseudo = regexp.MustCompile(`(^|[-.])\d{14}-([0-9a-f]{12})$`)

// resolve is Get with its inputs given, for tests.
func resolve(stamped, stampedCommit string, bi *debug.BuildInfo) Info {
	info := Info{Version: stamped, Commit: stampedCommit, GoVersion: runtime.Version()}
	if bi != nil && bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	if info.Version != "" {
		return info
	}
	var rev string
	var modified bool
	main := ""
	if bi != nil {
		main = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	// Go 1.24+ derives Main.Version from VCS tags as well, with "+dirty".
	main = strings.TrimSuffix(main, "+dirty")
	tagged := main != "" && main != "(devel)" && !pseudo.MatchString(main)
	switch {
	case rev != "":
		info.Commit = rev
		info.Version = short(rev)
		if tagged {
			info.Version = main
		}
		if modified {
			info.Version += "-dirty"
		}
	case tagged:
		info.Version = main // go install module@v1.2.3: no VCS data, the module version is the tag
	case main != "" && main != "(devel)":
		// go install module@commit: the pseudo-version ends in the commit.
		info.Version = pseudo.FindStringSubmatch(main)[2]
	default:
		info.Version = "devel"
	}
	return info
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
