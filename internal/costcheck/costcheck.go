// Package costcheck measures what one piece of work costs the process:
// the bytes it allocated and the CPU time of the thread it ran on. Fuzz
// targets and tests of the decoders of untrusted bytes hold each input to
// a ceiling with it (security issue 26: an input that allocates over
// 64 MB or takes over 2 s of CPU is a failure, as much as a crash).
//
// The CPU time is the thread's (the work runs locked to one OS thread),
// so other goroutines and other processes on a shared machine do not
// count; the allocations are the whole process's, which in a test or a
// fuzz worker running one input at a time are the work's.
package costcheck

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"
)

// Cost is what a piece of work cost.
type Cost struct {
	Alloc int64         // bytes allocated
	CPU   time.Duration // CPU time of the thread it ran on
}

func (c Cost) String() string {
	return fmt.Sprintf("%.1f MB allocated, %s of CPU", float64(c.Alloc)/1e6, c.CPU.Round(time.Millisecond))
}

// Ceiling is the most one input may cost.
type Ceiling struct {
	Alloc int64
	CPU   time.Duration
}

// The ceiling of issue 26: 64 MB, 2 s of CPU (scaled when the race
// detector slows everything down).
const (
	DefaultAlloc = 64 << 20
	DefaultCPU   = 2 * time.Second * RaceFactor
)

// Default is the ceiling of issue 26.
func Default() Ceiling { return Ceiling{Alloc: DefaultAlloc, CPU: DefaultCPU} }

// Measure runs fn on a thread of its own and returns what it cost.
func Measure(fn func()) Cost {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	a0, c0 := sample[0].Value.Uint64(), threadCPU()
	fn()
	c1 := threadCPU()
	metrics.Read(sample)
	return Cost{Alloc: int64(sample[0].Value.Uint64() - a0), CPU: c1 - c0}
}

// Over says how c exceeds the ceiling, or "".
func (l Ceiling) Over(c Cost) string {
	switch {
	case l.Alloc > 0 && c.Alloc > l.Alloc:
		return fmt.Sprintf("allocated %.1f MB, over the ceiling of %.0f MB (%s)", float64(c.Alloc)/1e6, float64(l.Alloc)/1e6, c)
	case l.CPU > 0 && c.CPU > l.CPU:
		return fmt.Sprintf("took %s of CPU, over the ceiling of %s (%s)", c.CPU.Round(time.Millisecond), l.CPU, c)
	}
	return ""
}

// TB is the part of testing.TB Within needs.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Within runs fn and fails t when it costs more than the ceiling.
func Within(t TB, l Ceiling, fn func()) Cost {
	t.Helper()
	c := Measure(fn)
	if msg := l.Over(c); msg != "" {
		t.Fatalf("one input %s", msg)
	}
	return c
}
