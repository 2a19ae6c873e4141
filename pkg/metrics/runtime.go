package metrics

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
)

// The Go runtime's and the process's series, read at each scrape, under
// the names Prometheus's own collectors give them so dashboards built for
// those keep working: goroutines, heap, GC cycles, and (on Linux, from
// /proc) CPU time, resident and virtual memory, file descriptors and the
// start time.

// writeRuntime writes the go_* series.
func writeRuntime(w io.Writer) {
	samples := []metrics.Sample{
		{Name: "/sched/goroutines:goroutines"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	metrics.Read(samples)
	value := func(i int) float64 {
		if samples[i].Value.Kind() == metrics.KindUint64 {
			return float64(samples[i].Value.Uint64())
		}
		return 0
	}
	one(w, "go_goroutines", "Number of goroutines that currently exist.", gauge, value(0))
	fmt.Fprintf(w, "# HELP go_info Information about the Go environment.\n# TYPE go_info gauge\ngo_info{version=%q} 1\n", runtime.Version())
	one(w, "go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and still in use.", gauge, value(1))
	one(w, "go_memstats_sys_bytes", "Number of bytes obtained from system.", gauge, value(2))
	one(w, "go_gc_cycles_total", "Number of completed GC cycles.", counter, value(3))
}

// writeProcess writes the process_* series Linux's /proc gives; elsewhere
// none.
func writeProcess(w io.Writer) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return
	}
	// The command name (field 2) may hold spaces: count from after it.
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 22 {
		return
	}
	field := func(n int) float64 { // n as proc(5) numbers them
		v, _ := strconv.ParseFloat(fields[n-3], 64)
		return v
	}
	const ticks = 100 // USER_HZ, 100 on every Linux Go supports
	page := float64(os.Getpagesize())
	one(w, "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", counter, (field(14)+field(15))/ticks)
	one(w, "process_virtual_memory_bytes", "Virtual memory size in bytes.", gauge, field(23))
	one(w, "process_resident_memory_bytes", "Resident memory size in bytes.", gauge, field(24)*page)
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		one(w, "process_open_fds", "Number of open file descriptors.", gauge, float64(len(fds)))
	}
	if boot := bootTime(); boot > 0 {
		one(w, "process_start_time_seconds", "Start time of the process since unix epoch in seconds.", gauge, boot+field(22)/ticks)
	}
}

// bootTime is the system's boot time (btime of /proc/stat), or 0.
func bootTime() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return n
		}
	}
	return 0
}

// one writes a family of one series without labels.
func one(w io.Writer, name, help string, k kind, v float64) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, k, name, formatFloat(v))
}
