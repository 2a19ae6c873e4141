package pdfobj

import (
	"fmt"
	"sync"
)

// Budget is the memory one extraction may hold of what the file decides:
// every allocation whose size comes from the file (decoder state, rows,
// tables, decoded stream bytes, object values, the cross-reference
// entries, and above this package fonts, CMaps and text) is charged with
// Take before it is made, and what is freed is given back with Give. So a
// file that asks for a 64 MiB predictor row, a million widths or 4,000
// copies of a CMap is refused at the charge, not after the allocation.
// The figures charged are estimates of what Go allocates (a value in an
// array, an entry of a dictionary), on the high side.
//
// A budget belongs to one extraction, which runs on one goroutine. It may
// draw on a Pool that bounds what all the extractions of a process hold.
type Budget struct {
	max, held, peak int64
	pool            *Pool
	reserved        int64 // drawn from the pool
}

// NewBudget returns a budget of max bytes.
func NewBudget(max int64) *Budget { return &Budget{max: max} }

// What values cost, in bytes: an interface in an array (and the array's
// room to grow), an entry of a dictionary (key, value, the map's slack)
// and the first group of a map's slots, a boxed number, a string's header.
// Measured on Go 1.26 (1 M values of each kind in one array, 100,000
// dictionaries of three entries), these are 1.1 to 2.7 times what Go
// holds for them.
const (
	costElement = 32
	costEntry   = 64
	costGroup   = 208
	costBoxed   = 8
	costString  = 16
)

// Take charges n bytes before they are allocated; past the budget it
// panics with Stop (ErrLimit), which ends the extraction's current work.
// A nil budget takes everything.
func (b *Budget) Take(n int64) {
	if b == nil || n <= 0 {
		return
	}
	if b.held+n > b.max {
		panic(Stop{b.Spent()})
	}
	if need := b.held + n - b.reserved; need > 0 && b.pool != nil {
		chunk := (need + poolChunk - 1) / poolChunk * poolChunk
		if !b.pool.draw(chunk) {
			panic(Stop{&PoolSpentError{Max: b.pool.max}})
		}
		b.reserved += chunk
	}
	b.held += n
	b.peak = max(b.peak, b.held)
}

// TryTake takes n bytes if they fit the budget and the pool, and says
// whether it did; it never panics.
func (b *Budget) TryTake(n int64) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isStop := r.(Stop); !isStop {
				panic(r)
			}
			ok = false
		}
	}()
	b.Take(n)
	return true
}

// Draw makes b draw on pool, which the extraction's charges then count
// against too, in chunks; Close gives them back.
func (b *Budget) Draw(pool *Pool) { b.pool = pool }

// Close gives back to the pool what b drew from it.
func (b *Budget) Close() {
	if b.pool != nil {
		b.pool.give(b.reserved)
		b.reserved = 0
	}
}

// Fits says whether n more bytes fit the budget (not asking the pool).
func (b *Budget) Fits(n int64) bool { return b == nil || b.held+n <= b.max }

// Give returns n bytes taken before.
func (b *Budget) Give(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.held = max(0, b.held-n)
}

// Held is what is charged now.
func (b *Budget) Held() int64 {
	if b == nil {
		return 0
	}
	return b.held
}

// Peak is the most held at once.
func (b *Budget) Peak() int64 {
	if b == nil {
		return 0
	}
	return b.peak
}

// Max is the budget's size.
func (b *Budget) Max() int64 {
	if b == nil {
		return 0
	}
	return b.max
}

// Spent is the error of a budget that refused a charge.
func (b *Budget) Spent() error {
	return &SpentError{Max: b.max}
}

// SpentError is the error of a charge the budget refused: reading on
// would hold more memory than one extraction may.
type SpentError struct{ Max int64 }

func (e *SpentError) Error() string {
	return fmt.Sprintf("%v: reading it needs over %d MiB of memory, more than one extraction may hold", ErrLimit, e.Max>>20)
}

// Unwrap makes a spent budget an ErrLimit.
func (e *SpentError) Unwrap() error { return ErrLimit }

// Pool is the memory all the extractions of a process may hold together:
// each budget draws on it in chunks of poolChunk as it takes, so on a
// shared server many hostile PDFs read at once hold at most the pool, not
// their number times their budget.
type Pool struct {
	mu        sync.Mutex
	max, held int64
}

// poolChunk is what a budget draws from its pool at a time.
const poolChunk = 1 << 20

// NewPool returns a pool of max bytes.
func NewPool(max int64) *Pool { return &Pool{max: max} }

func (p *Pool) draw(n int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held+n > p.max {
		return false
	}
	p.held += n
	return true
}

func (p *Pool) give(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held = max(0, p.held-n)
}

// Held is what the pool's budgets have drawn now.
func (p *Pool) Held() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// PoolSpentError is the error of a charge the pool refused: the other
// extractions running hold what it has.
type PoolSpentError struct{ Max int64 }

func (e *PoolSpentError) Error() string {
	return fmt.Sprintf("%v: the %d MiB this server holds for reading PDFs are in use by other calls; retry in a moment", ErrLimit, e.Max>>20)
}

// Unwrap makes a spent pool an ErrLimit.
func (e *PoolSpentError) Unwrap() error { return ErrLimit }

// grow appends v to s, charging b for a larger array before it is made
// (and giving back the old one's size once copied), so a slice the file
// makes long is charged as it grows.
func grow[T any](b *Budget, s []T, v T, size int64) []T {
	if len(s) == cap(s) {
		n := max(2*cap(s), 16)
		b.Take(int64(n) * size)
		ns := make([]T, len(s), n)
		copy(ns, s)
		b.Give(int64(cap(s)) * size)
		s = ns
	}
	return append(s, v)
}
