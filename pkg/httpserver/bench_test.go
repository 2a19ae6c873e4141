package httpserver

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkToolCall measures the HTTP layer's own cost: one tools/call per
// request against a fake forge that answers at once, with 1, 8 and 64
// concurrent clients, reporting throughput and p50/p99 latency. (Against a
// real forge its latency dominates; docs/http.md has those numbers.)
//
//	go test -run '^$' -bench ToolCall -benchtime 5000x ./pkg/httpserver/
func BenchmarkToolCall(b *testing.B) {
	for _, clients := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			fx := newFixtureTB(b, func(o *Options) { o.Logger = nil }) // logs would pile up in memory
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
			call := func() error {
				req, err := http.NewRequest(http.MethodPost, fx.http.URL+EndpointPath, strings.NewReader(body))
				if err != nil {
					return err
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tokAlice)
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				got, err := io.ReadAll(resp.Body)
				if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `\"login\":\"alice\"`) {
					return fmt.Errorf("status %d, err %v: %s", resp.StatusCode, err, got)
				}
				return nil
			}
			if err := call(); err != nil { // warm the token cache and connections
				b.Fatal(err)
			}
			latencies := make([]time.Duration, b.N)
			var next sync.Mutex
			i := 0
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for range clients {
				wg.Go(func() {
					for {
						next.Lock()
						n := i
						i++
						next.Unlock()
						if n >= b.N {
							return
						}
						t0 := time.Now()
						if err := call(); err != nil {
							b.Error(err)
							return
						}
						latencies[n] = time.Since(t0)
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			slices.Sort(latencies)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
		})
	}
}
