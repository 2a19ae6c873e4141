package cmd

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// A one-shot command ends promptly on SIGINT or SIGTERM with the status a
// shell reports for a command a signal ended (128 + the signal's number:
// 130, 143), so `timeout`, Ctrl-C and a script's trap see what they
// expect. The server (stdio, HTTP) shuts down gracefully instead.

// cleanupGrace is how long a command ended by a signal may take to stop
// its work and tidy up (an --out file's temporary copy) before the
// process exits anyway: a read nothing can interrupt (a pipe nobody
// closes) must not keep it alive.
const cleanupGrace = 2 * time.Second

// signalled is the cause of a context a signal ended.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return s.sig.String() + " signal received" }

// SignalContext is parent ended by SIGINT or SIGTERM, with the signal as
// its cause (context.Cause), so a command can exit with its status. stop
// releases the signals.
func SignalContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			cancel(signalled{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// signalStatus is the exit status of a command ctx's signal ended, 0 when
// no signal ended it.
func signalStatus(ctx context.Context) int {
	var s signalled
	if ctx.Err() == nil || !errors.As(context.Cause(ctx), &s) {
		return 0
	}
	if n, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

// interruptible runs a one-shot command and returns its exit status, or,
// when a signal ends ctx, the signal's status: at once if the command
// stops within cleanupGrace, else then, leaving it behind.
func interruptible(ctx context.Context, run func() int) int {
	done := make(chan int, 1)
	go func() { done <- run() }()
	select {
	case code := <-done:
		if n := signalStatus(ctx); n != 0 {
			return n
		}
		return code
	case <-ctx.Done():
	}
	n := signalStatus(ctx)
	if n == 0 {
		return <-done // cancelled by its caller, not a signal: the command answers for itself
	}
	timer := time.NewTimer(cleanupGrace)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	}
	return n
}
