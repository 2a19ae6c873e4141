// Package deploy runs the shipped deployment on loopback: replicas of the
// built binary behind nginx configured by docs/deploy/nginx.conf, with TLS
// from a throw-away certificate. The replica test (deploy_test.go) and the
// load command (internal/deploy/load) use it.
package deploy

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/nginx"
)

// PublicHost is the name the shipped configuration serves, and the
// replicas' --public-url host.
const PublicHost = "mcp.example.org"

// Options describe a cluster.
type Options struct {
	Binary   string   // the built forgejo-mcp
	ForgeURL string   // the live forge
	Replicas int      // how many; at least 1
	Args     []string // extra flags for every replica
	Config   string   // path of docs/deploy/nginx.conf
	Dir      string   // scratch directory, removed by the caller
}

// Cluster is replicas behind nginx.
type Cluster struct {
	URL      string // https://mcp.example.org; reach it with Client
	Replicas []*Replica
	proxy    *nginx.Process
	addr     string // nginx's loopback address
	pool     *x509.CertPool
	dir      string
}

// Start builds the nginx configuration from the shipped one, starts the
// replicas and nginx, and waits until all of them listen.
func Start(o Options) (*Cluster, error) {
	c := &Cluster{URL: "https://" + PublicHost, dir: o.Dir}
	shipped, err := os.ReadFile(o.Config)
	if err != nil {
		return nil, err
	}
	cert, key, pool, err := selfSigned(o.Dir)
	if err != nil {
		return nil, err
	}
	c.pool = pool
	var upstreams []string
	for range o.Replicas {
		r, err := retryPort(func() (*Replica, error) { return startReplica(o) })
		if err != nil {
			c.Close()
			return nil, err
		}
		c.Replicas = append(c.Replicas, r)
		upstreams = append(upstreams, r.Addr)
	}
	c.proxy, err = retryPort(func() (*nginx.Process, error) {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		c.addr = "127.0.0.1:" + strconv.Itoa(port)
		site, err := Render(string(shipped), c.addr, upstreams, cert, key, filepath.Join(o.Dir, "access.log"))
		if err != nil {
			return nil, err
		}
		return nginx.Run(o.Dir, mainConfig(o.Dir, site), c.addr)
	})
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// retryPort retries start while it fails because the port it picked was
// taken between FreePort and the bind (by an outgoing connection's
// ephemeral port, under load).
func retryPort[T any](start func() (T, error)) (T, error) {
	for attempt := 0; ; attempt++ {
		v, err := start()
		if err == nil || attempt == 4 || !strings.Contains(err.Error(), "address already in use") {
			return v, err
		}
	}
}

// Close stops nginx and every replica still running.
func (c *Cluster) Close() {
	if c.proxy != nil {
		c.proxy.Stop()
	}
	for _, r := range c.Replicas {
		_ = r.Kill()
	}
}

// AccessLog is nginx's access log so far (format forgejo_mcp).
func (c *Cluster) AccessLog() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "access.log"))
	return string(b)
}

// servedLine is an access log line of a call a replica answered with 200:
// the last upstream nginx tried is the one that answered.
var servedLine = regexp.MustCompile(`"POST /mcp HTTP/1\.1" 200 upstream=(?:[0-9.:]+, )*([0-9.:]+) upstream_status=(?:\d+, )*200 `)

// Served counts, from the access log past its first mark bytes, the
// calls each replica (by address) answered with 200.
func (c *Cluster) Served(mark int) map[string]int {
	served := map[string]int{}
	log := c.AccessLog()
	for _, line := range strings.Split(log[min(mark, len(log)):], "\n") {
		if m := servedLine.FindStringSubmatch(line); m != nil {
			served[m[1]]++
		}
	}
	return served
}

// ErrorLog is nginx's error log so far.
func (c *Cluster) ErrorLog() string { return c.proxy.ErrorLog() }

// Client reaches the cluster as a client on the network would: TLS to
// PublicHost, trusting the throw-away certificate, every connection dialled
// to nginx's loopback port.
func (c *Cluster) Client(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: c.pool, MinVersion: tls.VersionTLS12},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, c.addr)
		},
		MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 30 * time.Second,
	}}
}

// Render adapts the shipped site configuration to loopback: the upstream
// servers become upstreams (each keeping the shipped server parameters),
// the listen address becomes listen, and the certificate and access log
// paths are replaced. Every value it replaces must be present, so a change
// to the shipped file that the test would no longer exercise fails loudly.
func Render(shipped, listen string, upstreams []string, cert, key, accessLog string) (string, error) {
	server := regexp.MustCompile(`(?m)^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n`)
	matches := server.FindAllStringSubmatchIndex(shipped, -1)
	if len(matches) < 2 {
		return "", errors.New("docs/deploy/nginx.conf: want two or more `server 127.0.0.1:PORT …;` upstream lines")
	}
	first := shipped[matches[0][0]:matches[0][1]]
	m := server.FindStringSubmatch(first)
	var lines strings.Builder
	for _, u := range upstreams {
		fmt.Fprintf(&lines, "%sserver %s%s;\n", m[1], u, m[2])
	}
	out := shipped[:matches[0][0]] + lines.String() + shipped[matches[len(matches)-1][1]:]
	for _, r := range []struct{ old, new string }{
		{"listen 443 ssl;", "listen " + listen + " ssl;"},
		{"/etc/ssl/mcp.example.org/fullchain.pem", cert},
		{"/etc/ssl/mcp.example.org/privkey.pem", key},
		{"/var/log/nginx/forgejo-mcp.access.log", accessLog},
	} {
		if !strings.Contains(out, r.old) {
			return "", fmt.Errorf("docs/deploy/nginx.conf no longer has %q", r.old)
		}
		out = strings.ReplaceAll(out, r.old, r.new)
	}
	return out, nil
}

// mainConfig is what a distribution's /etc/nginx/nginx.conf provides,
// pointed at dir, with the site inside http { }.
func mainConfig(dir, site string) string {
	return strings.NewReplacer("{dir}", dir).Replace(`daemon off;
master_process off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events { worker_connections 4096; }
http {
	client_body_temp_path {dir}/client_body;
	proxy_temp_path {dir}/proxy;
	fastcgi_temp_path {dir}/fastcgi;
	uwsgi_temp_path {dir}/uwsgi;
	scgi_temp_path {dir}/scgi;
`) + site + "\n}\n"
}

// Replica is one forgejo-mcp process.
type Replica struct {
	Addr   string // 127.0.0.1:PORT
	cmd    *exec.Cmd
	done   chan struct{}
	exit   error // how the process ended, once done is closed
	stderr *fakeforge.SyncBuffer
}

func startReplica(o Options) (*Replica, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	r := &Replica{Addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{}), stderr: &fakeforge.SyncBuffer{}}
	args := append([]string{"--transport", "http", "--http-addr", r.Addr, "--url", o.ForgeURL,
		"--public-url", "https://" + PublicHost, "--log-level", "warn",
		// nginx on this machine forwards the client's address, as in
		// docs/deploy/README.md.
		"--http-trusted-proxies", "127.0.0.1",
		// The tests call list_branches, outside the default selection.
		"--toolsets", "default,+repo"}, o.Args...)
	r.cmd = exec.Command(o.Binary, args...)
	r.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { r.exit = r.cmd.Wait(); close(r.done) }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case <-r.done:
			return nil, fmt.Errorf("replica %s exited at start: %s", r.Addr, r.stderr.String())
		default:
		}
		if conn, err := net.DialTimeout("tcp", r.Addr, 200*time.Millisecond); err == nil {
			conn.Close()
			return r, nil
		}
		if time.Now().After(deadline) {
			_ = r.Kill()
			return nil, fmt.Errorf("replica %s did not listen within 15s: %s", r.Addr, r.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill ends the replica at once (SIGKILL), as a crash or an OOM kill
// would, and waits for it.
func (r *Replica) Kill() error {
	select {
	case <-r.done:
		return nil
	default:
	}
	err := r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.done
	return err
}

// Stop ends the replica gracefully (SIGTERM), as a rolling update does,
// and waits for it to exit.
func (r *Replica) Stop() error {
	select {
	case <-r.done:
		return nil
	default:
	}
	err := r.cmd.Process.Signal(syscall.SIGTERM)
	<-r.done
	return err
}

// Exited reports whether the replica has ended, and its wait error (nil
// for exit status 0).
func (r *Replica) Exited() (bool, error) {
	select {
	case <-r.done:
		return true, r.exit
	default:
		return false, nil
	}
}

// Stderr is what the replica logged.
func (r *Replica) Stderr() string { return r.stderr.String() }

// PeakRSS is the replica's peak resident set size so far (VmHWM), in
// bytes; Linux only.
func (r *Replica) PeakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// Build builds the binary from the module at root into dir.
func Build(root, dir string) (string, error) {
	bin := filepath.Join(dir, "forgejo-mcp")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, out)
	}
	return bin, nil
}

// FreePort returns a loopback port free at the time of the call.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// selfSigned writes a throw-away certificate for PublicHost into dir.
func selfSigned(dir string) (certPath, keyPath string, pool *x509.CertPool, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: PublicHost},
		DNSNames: []string{PublicHost}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", nil, err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", nil, err
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(certPath, certPEM, 0o600); err != nil {
		return "", "", nil, err
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return "", "", nil, err
	}
	pool = x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	return certPath, keyPath, pool, nil
}
