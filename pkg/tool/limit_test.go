package tool_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// recorder is an Observer that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	started  int
	outcomes map[string]int
	busy     map[string]int
}

func (r *recorder) CallStarted(string) { r.mu.Lock(); r.started++; r.mu.Unlock() }
func (r *recorder) CallDone(_, outcome string, _ time.Duration) {
	r.mu.Lock()
	r.outcomes[outcome]++
	r.mu.Unlock()
}
func (r *recorder) Busy(_, limit string) { r.mu.Lock(); r.busy[limit]++; r.mu.Unlock() }

// blocking is a tool whose calls run until release is closed.
func blocking(started chan<- struct{}, release <-chan struct{}) tool.Def {
	return tool.Def{Name: "slow", Offline: true, Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		<-release
		return tool.JSON("done")
	}}
}

// TestRunnerFairness: a user at their limit is refused with a message
// naming it, while another user is still served; the server bound holds
// across users; finished calls free their slots.
func TestRunnerFairness(t *testing.T) {
	rec := &recorder{outcomes: map[string]int{}, busy: map[string]int{}}
	r := &tool.Runner{}
	r.SetLimits(tool.Limits{PerServer: 3, PerIdentity: 2, Observer: rec})
	started, release := make(chan struct{}, 8), make(chan struct{})
	d := blocking(started, release)
	alice := tool.WithCaller(context.Background(), "alice")
	bob := tool.WithCaller(context.Background(), "bob")
	carol := tool.WithCaller(context.Background(), "carol")

	done := make(chan *mcp.CallToolResult, 8)
	for range 2 {
		go func() { done <- r.Call(alice, d, nil) }()
		<-started
	}
	res := r.Call(alice, d, nil)
	require.True(t, res.IsError)
	assert.Equal(t, "busy: you already have 2 tool calls running, the limit per user; retry slow when one of them has finished", text(t, res))

	// Bob is still served while Alice is at her limit.
	go func() { done <- r.Call(bob, d, nil) }()
	<-started
	// The server is full now (3): Carol gets the server's busy error.
	res = r.Call(carol, d, nil)
	require.True(t, res.IsError)
	assert.Equal(t, "server busy: 3 tool calls are already running; retry slow in a moment", text(t, res))

	close(release)
	for range 3 {
		assert.False(t, (<-done).IsError)
	}
	// Slots are free again.
	release2 := make(chan struct{})
	close(release2)
	free := tool.Def{Name: "quick", Offline: true, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON(1)
	}}
	assert.False(t, r.Call(alice, free, nil).IsError)
	assert.False(t, r.Call(carol, free, nil).IsError)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Equal(t, 5, rec.started)
	assert.Equal(t, map[string]int{tool.OutcomeOK: 5, tool.OutcomeBusy: 2}, rec.outcomes)
	assert.Equal(t, map[string]int{tool.LimitIdentity: 1, tool.LimitServer: 1}, rec.busy)
}

// TestRunnerNoCallerSharesOneBucket: without WithCaller (stdio, --cli) all
// calls are one identity's, so the per-identity bound applies to them.
func TestRunnerNoCallerSharesOneBucket(t *testing.T) {
	r := &tool.Runner{}
	r.SetLimits(tool.Limits{PerServer: 32, PerIdentity: 1})
	started, release := make(chan struct{}, 1), make(chan struct{})
	d := blocking(started, release)
	done := make(chan *mcp.CallToolResult)
	go func() { done <- r.Call(context.Background(), d, nil) }()
	<-started
	res := r.Call(context.Background(), d, nil)
	require.True(t, res.IsError)
	assert.Contains(t, text(t, res), "the limit per user")
	close(release)
	assert.False(t, (<-done).IsError)
}

// TestRunnerObserverOutcomes: errors are reported as errors, and limits
// of zero with an observer still observe.
func TestRunnerObserverOutcomes(t *testing.T) {
	rec := &recorder{outcomes: map[string]int{}, busy: map[string]int{}}
	r := &tool.Runner{}
	r.SetLimits(tool.Limits{Observer: rec})
	fail := tool.Def{Name: "fail", Offline: true, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.Error("no"), nil
	}}
	boom := tool.Def{Name: "boom", Offline: true, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		panic("boom")
	}}
	assert.True(t, r.Call(context.Background(), fail, nil).IsError)
	assert.True(t, r.Call(context.Background(), boom, nil).IsError)
	assert.Equal(t, map[string]int{tool.OutcomeError: 2}, rec.outcomes)
	assert.Empty(t, rec.busy)
}

// TestSlotHeldUntilWorkStops (security issue 26, item 2): a call whose
// handler is still working after the call's deadline keeps its slot until
// the handler returns: the Runner answers only then, a call in the
// meantime is refused as busy, and the overrun is logged. Before, a PDF's
// extraction returned at its deadline and burned on unseen, so each retry
// added a burner the limits did not count.
func TestSlotHeldUntilWorkStops(t *testing.T) {
	var logs strings.Builder
	r := &tool.Runner{Timeout: 20 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))}
	r.SetLimits(tool.Limits{PerServer: 1})
	stopping, stopped := make(chan struct{}), make(chan struct{})
	d := tool.Def{Name: "stubborn", Offline: true, Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		close(stopping) // past the deadline, still working
		<-stopped
		return nil, ctx.Err()
	}}
	done := make(chan *mcp.CallToolResult, 1)
	go func() { done <- r.Call(context.Background(), d, nil) }()
	<-stopping
	res := r.Call(context.Background(), d, nil)
	require.True(t, res.IsError)
	assert.Contains(t, text(t, res), "server busy: 1 tool calls are already running")
	select {
	case <-done:
		t.Fatal("the call was answered while its handler was still working")
	case <-time.After(1100 * time.Millisecond):
	}
	close(stopped)
	first := <-done
	require.True(t, first.IsError)
	assert.Contains(t, text(t, first), "deadline")
	assert.Contains(t, logs.String(), "tool call ran on past its deadline")
	assert.Contains(t, logs.String(), "tool=stubborn")
	// Its slot is free again.
	res = r.Call(context.Background(), tool.Def{Name: "quick", Offline: true, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON(1)
	}}, nil)
	assert.False(t, res.IsError)
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
