package stdio

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
)

// forwardNotifications writes what the MCP server sends to the session.
func (c *conn) forwardNotifications(sess *session, done <-chan struct{}) {
	for {
		select {
		case n := <-sess.notifications:
			c.write(n)
		case <-done:
			return
		}
	}
}

func (c *conn) reply(id json.RawMessage, code int, msg string) {
	c.write(rpcguard.ErrorResponse(id, code, msg))
}

// write sends one message as one line. Writes are serialised; after the
// first failure nothing more is written and the connection stops.
func (c *conn) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.log.Error("stdio: cannot encode a reply", "err", err)
		return
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.writeErr != nil {
		return
	}
	if _, err := c.out.Write(b); err != nil {
		c.writeErr = err
		c.log.Error("stdio: cannot write to stdout; stopping", "err", err)
		c.fail(err)
	}
}

func (c *conn) failure() error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.writeErr != nil {
		return fmt.Errorf("writing stdout: %w", c.writeErr)
	}
	return nil
}

// waitOrDone waits for wg, at most d, and no longer than until stop is
// closed.
func waitOrDone(wg *sync.WaitGroup, stop <-chan struct{}, d time.Duration) {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-stop:
	case <-t.C:
	}
}

// waitOrTimeout waits for wg at most d; it reports whether wg finished.
func waitOrTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
