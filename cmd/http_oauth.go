package cmd

import (
	"os"
	"strings"

	"github.com/spf13/pflag"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/oauthproxy"
)

// OAuthProxyConfig turns on the authorization server in front of the
// forge's OAuth (pkg/oauthproxy, docs/http.md "Sign-in for every client").
// Off by default; --oauth-proxy turns it on and needs the application the
// operator registered at the forge and the sealing key.
type OAuthProxyConfig struct {
	On           bool
	ClientID     string
	SecretFile   string
	KeyFile      string
	Scope        string
	AllowPrivate bool // client metadata documents on private addresses

	config *oauthproxy.Config // built by resolve when On
}

func (o *OAuthProxyConfig) registerFlags(fs *pflag.FlagSet, env Env) {
	fs.BoolVar(&o.On, "oauth-proxy", env("FORGEJO_MCP_OAUTH_PROXY") == "true", "HTTP: be the OAuth authorization server MCP clients sign in with (registration, client metadata documents, consent), signing users in at the forge through one application (--oauth-client-id); off by default")
	fs.StringVar(&o.ClientID, "oauth-client-id", env("FORGEJO_MCP_OAUTH_CLIENT_ID"), "client ID of the confidential OAuth2 application registered at the forge for --oauth-proxy, with <public URL>/oauth/callback as its redirect URI")
	fs.StringVar(&o.SecretFile, "oauth-client-secret-file", env("FORGEJO_MCP_OAUTH_CLIENT_SECRET_FILE"), "file holding that application's client secret (--oauth-proxy)")
	fs.StringVar(&o.KeyFile, "oauth-key-file", env("FORGEJO_MCP_OAUTH_KEY_FILE"), "file holding the key (32 bytes or more, e.g. openssl rand -hex 32; shared by all replicas) that seals client ids, sign-ins in progress and refresh tokens (--oauth-proxy); a new first line rotates it")
	fs.StringVar(&o.Scope, "oauth-scope", env("FORGEJO_MCP_OAUTH_SCOPE"), "the scope --oauth-proxy asks the forge for, for every client (default none: full access for the user, as the forge grants it; e.g. \"read:repository read:issue read:user\" on Gitea 1.22+)")
	fs.BoolVar(&o.AllowPrivate, "oauth-cimd-allow-private", env("FORGEJO_MCP_OAUTH_CIMD_ALLOW_PRIVATE") == "true", "let --oauth-proxy fetch client metadata documents from private and loopback addresses (and plain http on loopback): for documents on an internal host, or tests")
}

// resolve reads the secret and key files; it runs with --transport http.
func (o *OAuthProxyConfig) resolve() error {
	if !o.On {
		if o.ClientID != "" || o.SecretFile != "" || o.KeyFile != "" {
			return usagef("--oauth-client-id, --oauth-client-secret-file and --oauth-key-file configure --oauth-proxy, which is off; add --oauth-proxy")
		}
		return nil
	}
	if o.ClientID == "" || o.SecretFile == "" || o.KeyFile == "" {
		return usagef("--oauth-proxy needs --oauth-client-id, --oauth-client-secret-file and --oauth-key-file (docs/http.md)")
	}
	secret, err := readSecret("--oauth-client-secret-file", o.SecretFile)
	if err != nil {
		return err
	}
	keyText, err := readSecret("--oauth-key-file", o.KeyFile)
	if err != nil {
		return err
	}
	keys, err := oauthproxy.ParseKeys(keyText)
	if err != nil {
		return usagef("--oauth-key-file %s: %v", o.KeyFile, err)
	}
	o.config = &oauthproxy.Config{ClientID: strings.TrimSpace(o.ClientID), ClientSecret: secret, Keys: keys,
		Scope: strings.Join(strings.Fields(o.Scope), " "), CIMD: oauthproxy.CIMDOptions{AllowPrivate: o.AllowPrivate}}
	return nil
}

// readSecret reads a file holding a secret; the error never quotes it.
func readSecret(flag, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", usagef("cannot read %s: %v", flag, err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", usagef("%s %s is empty", flag, path)
	}
	return s, nil
}
