package oauthproxy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A client is an MCP client as the proxy knows it, from one of three
// kinds of client_id:
//
//   - a URL: a client ID metadata document (CIMD) the proxy fetches;
//   - a UUID: an application registered at the forge by hand (the
//     pre-registered path), passed through to the forge untouched;
//   - anything else: an id this proxy issued at registration (RFC 7591),
//     the client's metadata sealed inside it.
type client struct {
	ID           string
	Name         string   // what the client calls itself; nobody vouches for it
	RedirectURIs []string // each passed checkRedirectURI
	Document     bool     // ID is the URL of its metadata document
	Forge        bool     // ID is an application registered at the forge
}

// registered is what a client id issued at registration seals.
type registered struct {
	Name         string   `json:"n,omitempty"`
	RedirectURIs []string `json:"r"`
	IssuedAt     int64    `json:"t"`
}

// maxClientID bounds a client id before anything looks at it: a sealed
// one is at most about 6 KiB (eight 512-byte redirect URIs and a name).
const maxClientID = maxSealed

// forgeClientID reports whether id has the form of the client ids Gitea
// and Forgejo give their OAuth2 applications: a UUID in lower case.
func forgeClientID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}

// errUnknownClient is the answer for a client id that is none of the
// three kinds, or was not sealed by this server's key.
var errUnknownClient = errors.New("the client_id is not one this server issued (register again: POST to the registration endpoint), nor a client metadata document URL")

// clientError is why a client cannot be served, in words fit for the
// person at the browser and the client's developer; it never quotes what
// the client sent.
type clientError struct{ msg string }

func (e *clientError) Error() string { return e.msg }

// resolveClient finds the client behind id.
func (p *Proxy) resolveClient(ctx context.Context, id string) (*client, error) {
	switch {
	case id == "":
		return nil, &clientError{"client_id is missing"}
	case len(id) > maxClientID:
		return nil, &clientError{"client_id is too long"}
	case strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://"):
		return p.documents.get(ctx, id)
	case id == p.cfg.ClientID:
		// The server's own application is not a client's to use.
		return nil, &clientError{"the client_id is this server's own application at the forge, which no client may use"}
	case forgeClientID(id):
		return &client{ID: id, Forge: true}, nil
	}
	var reg registered
	if p.seal.open(purposeClient, id, &reg) != nil {
		return nil, &clientError{errUnknownClient.Error()}
	}
	return &client{ID: id, Name: reg.Name, RedirectURIs: reg.RedirectURIs}, nil
}

// redirect returns the registered redirect URI requested matches, the
// request's own spelling (its port may differ from the registration's).
func (c *client) redirect(requested string) (string, bool) {
	for _, reg := range c.RedirectURIs {
		if redirectMatches(reg, requested) {
			return requested, true
		}
	}
	return "", false
}

// metadata is what a client says about itself, at registration (RFC 7591)
// or in its metadata document: the members the proxy uses. Others are
// accepted and ignored.
type metadata struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
}

// Errors of client metadata (RFC 7591 section 3.2.2).
const (
	errInvalidRedirectURI    = "invalid_redirect_uri"
	errInvalidClientMetadata = "invalid_client_metadata"
)

// metadataError is an RFC 7591 error with a description of ours.
type metadataError struct{ code, desc string }

func (e *metadataError) Error() string { return e.desc }

// validate checks m as a public client's metadata: what this proxy can
// serve (the authorization code grant, PKCE, no client secret) and
// nothing that could mislead the person asked to consent.
func (m *metadata) validate() error {
	if len(m.RedirectURIs) == 0 {
		return &metadataError{errInvalidRedirectURI, "redirect_uris is required: at least one redirect URI"}
	}
	if len(m.RedirectURIs) > maxRedirectURIs {
		return &metadataError{errInvalidRedirectURI, fmt.Sprintf("redirect_uris has %d entries; at most %d are accepted", len(m.RedirectURIs), maxRedirectURIs)}
	}
	for i, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return &metadataError{errInvalidRedirectURI, fmt.Sprintf("redirect_uris[%d] %v", i, err)}
		}
	}
	if err := checkName(m.ClientName); err != nil {
		return &metadataError{errInvalidClientMetadata, "client_name " + err.Error()}
	}
	if len(m.GrantTypes) > 0 && !contains(m.GrantTypes, "authorization_code") {
		return &metadataError{errInvalidClientMetadata, "grant_types must include authorization_code: this server issues tokens only through the authorization code grant (and refresh_token)"}
	}
	if len(m.ResponseTypes) > 0 && !contains(m.ResponseTypes, "code") {
		return &metadataError{errInvalidClientMetadata, "response_types must include code"}
	}
	return nil
}

// maxName bounds a client's name, shown on the consent page.
const maxName = 100

// checkName refuses a name that cannot be shown as it is: too long, or
// with control, formatting (bidirectional overrides, zero-width) or
// invalid characters that could make it read as another client's.
func checkName(name string) error {
	if !utf8.ValidString(name) {
		return errors.New("is not valid UTF-8")
	}
	if utf8.RuneCountInString(name) > maxName {
		return fmt.Errorf("is longer than %d characters", maxName)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return errors.New("holds control or invisible formatting characters")
		}
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}
