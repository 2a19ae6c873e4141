// Package nginx starts a real nginx in front of the live test forge, as a
// reverse proxy that decodes %2F and folds dot segments before passing a
// request on (proxy_pass with a URI): the set-up many forges run behind,
// and the one route values must survive.
//
// nginx is a Debian package (scripts/nginx installs it in CI). Without it
// the test skips, except under CI or FORGEJO_TEST_REQUIRE, where it fails.
package nginx

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Binary finds the nginx executable: on PATH, or in /usr/sbin, which a
// non-root PATH often lacks.
func Binary() (string, error) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/nginx", "/usr/local/sbin/nginx"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("nginx is not installed (scripts/nginx installs the Debian package)")
}

// config is the whole nginx configuration: one process in the foreground
// (no privilege switch, so the temp directory needs no other owner), every
// path under dir, one loopback listener, and the decoding proxy_pass.
// /.nginx-ready answers this start's nonce, so readiness is this nginx's
// answer and not another process's that took the port first.
const config = `daemon off;
master_process off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events { worker_connections 256; }
http {
	access_log {dir}/access.log;
	client_body_temp_path {dir}/client_body;
	proxy_temp_path {dir}/proxy;
	fastcgi_temp_path {dir}/fastcgi;
	uwsgi_temp_path {dir}/uwsgi;
	scgi_temp_path {dir}/scgi;
	client_max_body_size 64m;
	server {
		listen 127.0.0.1:{port};
		location = /.nginx-ready {
			return 200 "{nonce}";
		}
		location / {
			proxy_pass http://{upstream}/;
		}
	}
}
`

// Proxy is a running nginx in front of a forge.
type Proxy struct {
	URL string // http://127.0.0.1:PORT
	dir string
}

// AccessLog returns the request lines nginx has logged so far.
func (p *Proxy) AccessLog() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "access.log"))
	return string(b)
}

// Start runs nginx on a free 127.0.0.1 port in front of upstream (a
// loopback http:// URL without path) until t ends.
func Start(t testing.TB, upstream string) *Proxy {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		if os.Getenv("CI") != "" || os.Getenv("FORGEJO_TEST_REQUIRE") != "" {
			t.Fatalf("%v; it is required under CI or FORGEJO_TEST_REQUIRE", err)
		}
		t.Skipf("%v", err)
	}
	up, err := url.Parse(upstream)
	if err != nil || up.Scheme != "http" || strings.Trim(up.Path, "/") != "" {
		t.Fatalf("upstream %q: want http://127.0.0.1:PORT", upstream)
	}
	if h := up.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		t.Fatalf("upstream %q is not on a loopback address", upstream)
	}
	// A free port can be taken by another process before nginx binds it
	// (8 test runs share these machines): then nginx gives up, and the
	// start is tried again on another port.
	for attempt := 1; ; attempt++ {
		dir := t.TempDir()
		addr, err := start(t, bin, dir, up.Host)
		if err == nil {
			return &Proxy{URL: "http://" + addr, dir: dir}
		}
		if attempt == 3 || !strings.Contains(err.Error(), "Address already in use") {
			t.Fatal(err)
		}
		t.Logf("nginx: %v; trying another port", err)
	}
}

// start runs nginx in dir on a free port in front of upstream until t
// ends, and returns its address once it answers its readiness nonce.
func start(t testing.TB, bin, dir, upstream string) (string, error) {
	port := freePort(t)
	nonce := fmt.Sprintf("ready-%d-%d", port, time.Now().UnixNano())
	conf := strings.NewReplacer("{dir}", dir, "{port}", fmt.Sprint(port), "{upstream}", upstream, "{nonce}", nonce).Replace(config)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		return "", err
	}
	cmd := exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting nginx: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	client := &http.Client{Timeout: 500 * time.Millisecond}
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			return "", fmt.Errorf("nginx exited at start: %s", log)
		default:
		}
		if resp, err := client.Get("http://" + addr + "/.nginx-ready"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) == nonce {
				return addr, nil
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("nginx did not answer on %s within 10s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
