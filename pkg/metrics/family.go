package metrics

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The Prometheus text exposition format (version 0.0.4), for the few
// kinds of series the server keeps: counters and gauges with labels, and
// histograms with fixed buckets. Written here rather than linked from
// prometheus/client_golang, whose packages (and protobuf, procfs, yaml
// beneath them) made every process's binary 8 MB larger and its start
// 1 ms slower and 2 to 3 MB bigger, one-shot --cli calls included, for
// the one HTTP endpoint that serves them. Tests parse what is written
// here with Prometheus's own text parser.

// kind is a family's TYPE.
type kind string

const (
	counter   kind = "counter"
	gauge     kind = "gauge"
	histogram kind = "histogram"
)

// family is one metric name: its help, type, label names and series.
type family struct {
	name, help string
	kind       kind
	labels     []string  // label names, in the order values are given
	buckets    []float64 // upper bounds of a histogram, ascending

	mu     sync.Mutex
	series map[string]*series // by the label values joined with \xff
}

// series is one combination of label values.
type series struct {
	values []string
	value  float64  // counter or gauge
	counts []uint64 // histogram: per bucket, not cumulative
	sum    float64
	count  uint64
}

func newFamily(name, help string, k kind, buckets []float64, labels ...string) *family {
	return &family{name: name, help: help, kind: k, labels: labels, buckets: buckets, series: map[string]*series{}}
}

// with returns the series of the label values, creating it at zero; the
// caller holds f.mu.
func (f *family) with(values []string) *series {
	key := strings.Join(values, "\xff")
	s, ok := f.series[key]
	if !ok {
		s = &series{values: append([]string(nil), values...)}
		if f.kind == histogram {
			s.counts = make([]uint64, len(f.buckets))
		}
		f.series[key] = s
	}
	return s
}

// add adds v to a counter's or gauge's series.
func (f *family) add(v float64, values ...string) {
	f.mu.Lock()
	f.with(values).value += v
	f.mu.Unlock()
}

// touch creates the series at zero, so a dashboard sees zeros, not gaps.
func (f *family) touch(values ...string) {
	f.mu.Lock()
	f.with(values)
	f.mu.Unlock()
}

// observe records one histogram sample.
func (f *family) observe(v float64, values ...string) {
	f.mu.Lock()
	s := f.with(values)
	for i, b := range f.buckets {
		if v <= b {
			s.counts[i]++
			break
		}
	}
	s.sum += v
	s.count++
	f.mu.Unlock()
}

// write writes the family in the text format, series in label order.
func (f *family) write(w io.Writer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.kind)
	keys := make([]string, 0, len(f.series))
	for k := range f.series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := f.series[k]
		if f.kind != histogram {
			fmt.Fprintf(w, "%s%s %s\n", f.name, labelText(f.labels, s.values, ""), formatFloat(s.value))
			continue
		}
		var cum uint64
		for i, b := range f.buckets {
			cum += s.counts[i]
			fmt.Fprintf(w, "%s_bucket%s %d\n", f.name, labelText(f.labels, s.values, formatFloat(b)), cum)
		}
		fmt.Fprintf(w, "%s_bucket%s %d\n", f.name, labelText(f.labels, s.values, "+Inf"), s.count)
		fmt.Fprintf(w, "%s_sum%s %s\n", f.name, labelText(f.labels, s.values, ""), formatFloat(s.sum))
		fmt.Fprintf(w, "%s_count%s %d\n", f.name, labelText(f.labels, s.values, ""), s.count)
	}
}

// labelText is {a="x",b="y"} with names sorted, plus le for a bucket;
// "" without labels.
func labelText(names, values []string, le string) string {
	type pair struct{ n, v string }
	pairs := make([]pair, 0, len(names)+1)
	for i, n := range names {
		pairs = append(pairs, pair{n, values[i]})
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].n < pairs[j].n })
	if le != "" {
		pairs = append(pairs, pair{"le", le})
	}
	if len(pairs) == 0 {
		return ""
	}
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = p.n + `="` + escapeLabel(p.v) + `"`
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

func escapeHelp(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
