package oauthproxy

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
)

// FuzzOpen: opening what anyone sends as a client id, state, code or
// refresh token never panics and never succeeds without the key: only the
// seed, sealed with it, opens (to what was sealed).
func FuzzOpen(f *testing.F) {
	s, _ := newSealer([][]byte{[]byte(testKey)})
	good, _ := s.seal(purposeCode, issued{ForgeCode: "c"})
	f.Add(good)
	f.Add("")
	f.Add("AAAA")
	f.Add(strings.Repeat("A", 64))
	f.Fuzz(func(t *testing.T, text string) {
		var v issued
		if err := s.open(purposeCode, text, &v); err == nil && v.ForgeCode != "c" {
			t.Fatalf("opened %q", text)
		}
	})
}

// FuzzRedirect: checking and matching any redirect URI never panics; a
// URI that passes the check matches itself and never matches one of
// another host.
func FuzzRedirect(f *testing.F) {
	for _, s := range []string{"https://a.example/cb", "http://127.0.0.1:8080/cb", "cursor://x/y", "http://[::1]/", "javascript:x", "http://localhost:0/"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, registered, requested string) {
		if checkRedirectURI(registered) != nil {
			return
		}
		if !redirectMatches(registered, registered) {
			t.Fatalf("%q does not match itself", registered)
		}
		if redirectMatches(registered, requested) && registered != requested && !isLoopback(registered) {
			t.Fatalf("%q matched %q", registered, requested)
		}
		_ = withParams(registered, nil)
	})
}

// FuzzDocument: any document body is parsed without panic, and accepted
// only as the document of its own URL with checked redirect URIs.
func FuzzDocument(f *testing.F) {
	f.Add([]byte(`{"client_id":"https://a.example/c.json","redirect_uris":["http://127.0.0.1/cb"]}`))
	f.Add([]byte(`{"client_id":"https://a.example/c.json","redirect_uris":["javascript:x"]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := parseDocument(body, "https://a.example/c.json")
		if err != nil {
			return
		}
		for _, u := range c.RedirectURIs {
			if checkRedirectURI(u) != nil {
				t.Fatalf("accepted redirect %q", u)
			}
		}
		if checkName(c.Name) != nil {
			t.Fatalf("accepted name %q", c.Name)
		}
	})
}

// FuzzRegister: any registration body is decoded and validated without
// panic; what passes has only checked redirect URIs and a showable name.
func FuzzRegister(f *testing.F) {
	f.Add([]byte(`{"client_name":"x","redirect_uris":["https://a.example/cb"]}`))
	f.Add([]byte(`{"redirect_uris":[1]}`))
	f.Add([]byte(`{"client_name":"\u202e"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := decodeMetadata(bytes.NewReader(body))
		if err != nil || m.validate() != nil {
			return
		}
		for _, u := range m.RedirectURIs {
			if checkRedirectURI(u) != nil {
				t.Fatalf("accepted redirect %q", u)
			}
		}
	})
}

// FuzzPublicAddr: no address in a private, loopback or link-local range
// passes, however it is written.
func FuzzPublicAddr(f *testing.F) {
	f.Add([]byte{127, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1})
	f.Fuzz(func(t *testing.T, raw []byte) {
		ip, ok := netip.AddrFromSlice(raw)
		if !ok || !publicAddr(ip) {
			return
		}
		u := ip.Unmap()
		if u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsUnspecified() || u.IsMulticast() {
			t.Fatalf("%v passed", ip)
		}
	})
}
