package costcheck

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var sink []byte

func TestMeasure(t *testing.T) {
	c := Measure(func() { sink = make([]byte, 10<<20) })
	assert.GreaterOrEqual(t, c.Alloc, int64(10<<20), "the allocation is seen")
	assert.Contains(t, Default().Over(Cost{Alloc: 65 << 20}), "allocated 68.2 MB, over the ceiling of 67 MB")
	assert.Empty(t, Default().Over(c))

	if runtime.GOOS == "linux" {
		// CPU is the thread's: a busy loop counts, a sleep does not.
		busy := Measure(func() {
			for start := threadCPU(); threadCPU()-start < 20*time.Millisecond; {
			}
		})
		assert.GreaterOrEqual(t, busy.CPU, 20*time.Millisecond)
		idle := Measure(func() { time.Sleep(100 * time.Millisecond) })
		assert.Less(t, idle.CPU, 20*time.Millisecond)
		assert.Contains(t, (Ceiling{CPU: time.Millisecond}).Over(busy), "of CPU, over the ceiling of 1ms")
	}
}
