package cmd

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestHTTPUsageErrors(t *testing.T) {
	f := fakeforge.New(t)
	noToken := map[string]string{"FORGEJO_URL": f.URL}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		err  string
	}{
		{name: "bad address", args: []string{"--http-addr", "8080"}, err: "is not host:port"},
		{name: "cert without key", args: []string{"--tls-cert", "cert.pem"}, err: "--tls-cert and --tls-key go together"},
		{name: "missing cert file", args: []string{"--tls-cert", "/nonexistent/c.pem", "--tls-key", "/nonexistent/k.pem"}, err: "cannot use --tls-cert/--tls-key"},
		{name: "relative public URL", args: []string{"--public-url", "mcp.example"}, err: "must be an absolute http(s) URL"},
		{name: "public URL with query", args: []string{"--public-url", "https://mcp.example/?a=b"}, err: "must be an absolute http(s) URL"},
		{name: "public URL naming the endpoint", args: []string{"--public-url", "https://mcp.example/mcp"}, err: "should be the server's root"},
		{name: "bad issuer", args: []string{"--oauth-issuer", "forge"}, err: "--oauth-issuer"},
		{name: "no in-flight requests", args: []string{"--http-max-in-flight", "0"}, err: "--http-max-in-flight, --http-max-in-flight-per-user and --http-min-body-rate must be positive"},
		{name: "shared token without a token", args: []string{"--http-shared-token"}, env: noToken, err: "--http-shared-token needs the server's own token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = fakeEnv(f)
			}
			r := runMain(t, env, "", append([]string{"--transport", "http"}, tt.args...)...)
			assert.Equal(t, ExitUsage, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
		})
	}
}

func TestHTTPOptions(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		check     func(t *testing.T, cfg *Config)
		wantHosts []string
	}{
		{name: "defaults", wantHosts: []string{"127.0.0.1"}, check: func(t *testing.T, cfg *Config) {
			o := httpOptions(cfg, nil, quiet())
			assert.Empty(t, o.SharedToken, "the server token is not used unless asked")
			assert.Nil(t, o.PublicURL)
			assert.Empty(t, o.Issuer, "httpserver reads the forge's own spelling")
			assert.Equal(t, int64(cfg.MaxFrameBytes), o.MaxBodyBytes)
			assert.GreaterOrEqual(t, o.MaxBodyBytes, int64(forgejo.DefaultMaxUploadBytes)*4/3)
			assert.Equal(t, 64, o.MaxInFlight)
		}},
		{name: "shared token", args: []string{"--http-shared-token"}, wantHosts: []string{"127.0.0.1"}, check: func(t *testing.T, cfg *Config) {
			assert.Equal(t, fakeforge.Token, httpOptions(cfg, nil, quiet()).SharedToken)
		}},
		{name: "wildcard address adds no host", args: []string{"--http-addr", "0.0.0.0:8080", "--http-allowed-hosts", "a.example, b.example"}, wantHosts: []string{"a.example", "b.example"}},
		{name: "specific address", args: []string{"--http-addr", "192.0.2.7:8080"}, wantHosts: []string{"192.0.2.7"}},
		{name: "public URL and issuer", args: []string{"--public-url", "https://mcp.example/forge/", "--oauth-issuer", "https://forge.example/"}, wantHosts: []string{"127.0.0.1"}, check: func(t *testing.T, cfg *Config) {
			o := httpOptions(cfg, nil, quiet())
			assert.Equal(t, "https://mcp.example/forge", o.PublicURL.String())
			assert.Equal(t, "https://forge.example/", o.Issuer, "verbatim: Forgejo spells its issuer with the slash")
		}},
		{name: "explicit body limit", args: []string{"--http-max-body-bytes", "1000"}, wantHosts: []string{"127.0.0.1"}, check: func(t *testing.T, cfg *Config) {
			assert.Equal(t, int64(1000), httpOptions(cfg, nil, quiet()).MaxBodyBytes)
		}},
		{name: "environment", env: map[string]string{"FORGEJO_MCP_HTTP_ADDR": "127.0.0.2:9", "FORGEJO_MCP_PUBLIC_URL": "https://e.example"}, wantHosts: []string{"127.0.0.2"}, check: func(t *testing.T, cfg *Config) {
			assert.Equal(t, "https://e.example", httpOptions(cfg, nil, quiet()).PublicURL.String())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"FORGEJO_URL": "https://forge.example", "FORGEJO_ACCESS_TOKEN": fakeforge.Token}
			for k, v := range tt.env {
				env[k] = v
			}
			cfg := parseConfig(t, env, append([]string{"--transport", "http"}, tt.args...)...)
			assert.Equal(t, tt.wantHosts, httpOptions(cfg, nil, quiet()).AllowedHosts)
			if tt.check != nil {
				tt.check(t, cfg)
			}
		})
	}
}

// quiet discards the logs of the code under test.
func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func parseConfig(t *testing.T, env map[string]string, args ...string) *Config {
	t.Helper()
	var cfg Config
	fs := pflag.NewFlagSet("forgejo-mcp", pflag.ContinueOnError)
	cfg.registerFlags(fs, func(k string) string { return env[k] })
	require.NoError(t, fs.Parse(args))
	require.NoError(t, cfg.resolve(func(k string) string { return env[k] }, true))
	return &cfg
}

func TestServeHTTP(t *testing.T) {
	for _, useTLS := range []bool{false, true} {
		name := "http"
		if useTLS {
			name = "https"
		}
		t.Run(name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/user", http.StatusOK, map[string]any{"id": 1, "login": "alice"})
			args := []string{"--transport", "http", "--http-addr", "127.0.0.1:0"}
			client := http.DefaultClient
			if useTLS {
				cert, key, pool := selfSigned(t)
				args = append(args, "--tls-cert", cert, "--tls-key", key)
				client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
			}
			env := map[string]string{"FORGEJO_URL": f.URL}
			srv := startMain(t, env, args...)

			resp, err := client.Get(srv.base + "/healthz")
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)

			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_my_user_info","arguments":{}}}`
			req, err := http.NewRequest(http.MethodPost, srv.base+"/mcp", strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+fakeforge.Token)
			resp, err = client.Do(req)
			require.NoError(t, err)
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, string(got), `\"login\":\"alice\"`)

			srv.stop(t)
			assert.Contains(t, srv.logs.String(), "HTTP server stopped")
			assert.NotContains(t, srv.logs.String(), fakeforge.Token)
		})
	}
}

// running is Main serving HTTP in the background.
type running struct {
	base   string
	logs   *logBuffer
	cancel context.CancelFunc
	code   chan int
}

var endpointLog = regexp.MustCompile(`endpoint=(https?://[0-9.:]+)/mcp`)

// startMain runs Main with args until stop, and waits until it serves.
func startMain(t *testing.T, env map[string]string, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{logs: &logBuffer{}, cancel: cancel, code: make(chan int, 1)}
	go func() {
		r.code <- Main(ctx, args, IO{In: strings.NewReader(""), Out: io.Discard, Err: r.logs}, func(k string) string { return env[k] })
	}()
	require.Eventually(t, func() bool {
		m := endpointLog.FindStringSubmatch(r.logs.String())
		if m != nil {
			r.base = m[1]
		}
		return m != nil
	}, 10*time.Second, 10*time.Millisecond, "server start; logs:\n%s", r.logs)
	t.Cleanup(func() { r.cancel() })
	return r
}

// stop is SIGTERM: Main returns 0 once in-flight requests are done.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.code:
		assert.Equal(t, ExitOK, code, r.logs.String())
	case <-time.After(10 * time.Second):
		t.Fatal("Main did not return after its context ended")
	}
}

type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// selfSigned writes a certificate for 127.0.0.1 and its key to temporary
// files and returns their paths and a pool trusting the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "forgejo-mcp test"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600))
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
