package forgejo

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseBaseURL(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "https://codeberg.org", want: "https://codeberg.org"},
		{in: "https://codeberg.org/", want: "https://codeberg.org"},
		{in: "  HTTPS://forge.example.com/git/ ", want: "https://forge.example.com/git"},
		{in: "http://127.0.0.1:3000", want: "http://127.0.0.1:3000"},
		{in: "http://localhost:3000/sub", want: "http://localhost:3000/sub"},
		{in: "http://[::1]:3000", want: "http://[::1]:3000"},
		{in: "", err: "forge URL is empty"},
		{in: "codeberg.org", err: `forge URL "codeberg.org" has no scheme: use https://codeberg.org`},
		{in: "codeberg.org/owner/repo", err: "has no scheme: use https://codeberg.org/owner/repo"},
		{in: "127.0.0.1:3000", err: `forge URL "127.0.0.1:3000" has no scheme: use http://127.0.0.1:3000 (or https:// if the forge serves HTTPS there)`},
		{in: "localhost", err: "has no scheme: use http://localhost ("},
		{in: "https:///x", err: "has no host"},
		{in: "http://forge.example.com", err: "uses http:// for a non-loopback host"},
		{in: "http://10.0.0.1", err: "uses http:// for a non-loopback host"},
		{in: "ftp://forge.example.com", err: "must start with https://"},
		{in: "https://user:pw@forge.example.com", err: "must not contain user info"},
		{in: "https://forge.example.com/?x=1", err: "must not contain a query"},
		{in: "https://forge.example.com/?", err: "must not contain a query"},
		{in: "https://forge.example.com/#top", err: "must not contain a fragment"},
		{in: "https://forge.example.com/api/v1", err: "without /api/v1"},
		{in: "https://exa mple.com", err: "is not a valid URL"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := ParseBaseURL(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, u.String())
		})
	}
}

func TestSameOrigin(t *testing.T) {
	mustURL := func(s string) *url.URL {
		u, err := url.Parse(s)
		require.NoError(t, err)
		return u
	}
	assert.True(t, SameOrigin(mustURL("https://a.example/x"), mustURL("https://A.example:443/y")))
	assert.True(t, SameOrigin(mustURL("http://127.0.0.1:80/"), mustURL("http://127.0.0.1")))
	assert.False(t, SameOrigin(mustURL("https://a.example"), mustURL("http://a.example")))
	assert.False(t, SameOrigin(mustURL("https://a.example"), mustURL("https://a.example:8443")))
	assert.False(t, SameOrigin(mustURL("https://a.example"), mustURL("https://b.example")))
}
