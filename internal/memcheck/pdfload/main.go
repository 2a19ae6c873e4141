// Command pdfload extracts the text of one PDF file, n times at once, in a
// process of its own, and prints what that cost as one JSON line: the
// process's peak resident set (VmHWM), its CPU time until every
// extraction returned, its CPU time in the idle moments after (work that
// went on past a deadline shows there), the wall time, and what each
// extraction answered. internal/memcheck TestPDFExtraction runs it on
// each hostile shape of internal/pdfgen (security issue 26).
//
//	go run ./internal/memcheck/pdfload -n 3 -timeout 10s -idle 2s FILE
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// Report is the JSON line pdfload prints.
type Report struct {
	Bytes      int      `json:"bytes"`
	PeakMB     float64  `json:"peak_mb"`
	CPUDuring  float64  `json:"cpu_during_s"` // until every extraction returned
	CPUAfter   float64  `json:"cpu_after_s"`  // in the idle time after
	Idle       float64  `json:"idle_s"`
	Wall       float64  `json:"wall_s"`
	Goroutines int      `json:"goroutines_after"` // left running after the idle time
	Answers    []string `json:"answers"`
}

func main() {
	n := flag.Int("n", 1, "extractions at once")
	timeout := flag.Duration("timeout", pdftext.DefaultTimeout, "the extraction's deadline")
	cancelAfter := flag.Duration("cancel", 0, "cancel the extractions' context after this long (a client's cancellation)")
	idle := flag.Duration("idle", 2*time.Second, "how long to stay idle after, measuring CPU")
	flag.Parse()
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rep := Report{Bytes: len(data), Idle: idle.Seconds()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if *cancelAfter > 0 {
		time.AfterFunc(*cancelAfter, cancel)
	}
	start, cpu0 := time.Now(), cpuTime()
	answers := make([]string, *n)
	var wg sync.WaitGroup
	for i := range *n {
		wg.Go(func() {
			res, err := pdftext.Extract(ctx, data, pdftext.Options{Timeout: *timeout})
			answers[i] = answer(res, err)
		})
	}
	wg.Wait()
	rep.Wall = time.Since(start).Seconds()
	cpu1 := cpuTime()
	rep.CPUDuring = (cpu1 - cpu0).Seconds()
	time.Sleep(*idle)
	rep.CPUAfter = (cpuTime() - cpu1).Seconds()
	rep.Goroutines = runtime.NumGoroutine() - 1
	rep.Answers = answers
	rep.PeakMB = float64(vmHWM()) * 1024 / 1e6
	_ = json.NewEncoder(os.Stdout).Encode(rep)
}

// answer says in a few words what an extraction returned.
func answer(res *pdftext.Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d pages", len(res.Pages))
	if len(res.Pages) > 0 {
		p := res.Pages[0]
		fmt.Fprintf(&b, ", page 1: %q", clip(p.Text, 40))
		if p.Note != "" {
			fmt.Fprintf(&b, " (%s)", clip(p.Note, 120))
		}
	}
	if res.Note != "" {
		fmt.Fprintf(&b, "; %s", clip(res.Note, 120))
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM is this process's peak resident set in KiB.
func vmHWM() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
