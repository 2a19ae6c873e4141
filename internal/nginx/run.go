package nginx

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Process is an nginx started by Run.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}
	dir  string
}

// Run starts nginx with the whole configuration conf (every path in it
// under dir, `daemon off; master_process off;` so it stays a child) and
// waits until addr accepts connections. Stop ends it. Unlike Start it
// needs no testing.TB, so commands (internal/deploy/load) can use it.
func Run(dir, conf, addr string) (*Process, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting nginx: %w", err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{}), dir: dir}
	go func() { _ = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-p.done:
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			return nil, fmt.Errorf("nginx exited at start: %s", log)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return p, nil
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("nginx did not listen on %s within 10s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ErrorLog returns what nginx logged to its error log so far.
func (p *Process) ErrorLog() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "error.log"))
	return string(b)
}

// Stop ends nginx gracefully, or kills it after 5 s.
func (p *Process) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
