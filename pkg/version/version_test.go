package version

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResolve(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(main string, modified bool) *debug.BuildInfo {
		m := "false"
		if modified {
			m = "true"
		}
		return &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: main},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: m}}}
	}
	tests := []struct {
		name, stamp, commit string
		bi                  *debug.BuildInfo
		want                Info
	}{
		{"make stamps win", "v1.2.3-dirty", rev, vcs("(devel)", false), Info{"v1.2.3-dirty", rev, "go1.26.0"}},
		{"go build, untagged", "", "", vcs("(devel)", false), Info{"0123456789ab", rev, "go1.26.0"}},
		{"go build, untagged, dirty", "", "", vcs("v0.0.0-20261201015339-0123456789ab+dirty", true), Info{"0123456789ab-dirty", rev, "go1.26.0"}},
		{"go build, tagged", "", "", vcs("v1.2.3", false), Info{"v1.2.3", rev, "go1.26.0"}},
		{"go build, tagged, dirty", "", "", vcs("v1.2.3+dirty", true), Info{"v1.2.3-dirty", rev, "go1.26.0"}},
		{"go build, past a tag", "", "", vcs("v1.2.4-0.20261201015339-0123456789ab", false), Info{"0123456789ab", rev, "go1.26.0"}},
		{"go install @tag", "", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}}, Info{"v1.2.3", "", "go1.26.0"}},
		{"go install @commit", "", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261201015339-0123456789ab"}}, Info{"0123456789ab", "", "go1.26.0"}},
		{"nothing known", "", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, Info{"devel", "", "go1.26.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resolve(tt.stamp, tt.commit, tt.bi))
		})
	}
	assert.NotEmpty(t, resolve("", "", nil).GoVersion)
	assert.Equal(t, "forgejo-mcp/"+Version, UserAgent())
}
