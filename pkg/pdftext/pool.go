package pdftext

import (
	"context"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// MemoryPool bounds the memory all the extractions of a process hold
// together: each extraction's budget (Options.MaxMemory) draws on it as it
// grows, in chunks of 1 MiB, and gives back what it drew when it returns.
// On a server many calls may read PDFs at once (32 at the default limits
// over HTTP); with the pool they hold at most its size, not their number
// times the budget. An extraction the pool cannot serve stops like one
// over its own budget, with the pages read so far and a note to retry.
type MemoryPool struct{ p *pdfobj.Pool }

// DefaultPoolBytes is the pool a server gives its extractions: four whole
// budgets, or some twenty real PDFs read at once (the largest of 552 held
// 3.7 MB; the median 0.2 MB).
const DefaultPoolBytes = 4 * DefaultMaxMemory

// NewMemoryPool returns a pool of max bytes.
func NewMemoryPool(max int64) *MemoryPool { return &MemoryPool{pdfobj.NewPool(max)} }

// Held is what the extractions running hold of the pool now.
func (p *MemoryPool) Held() int64 { return p.p.Held() }

type poolKey struct{}

// WithMemoryPool returns ctx whose extractions draw on pool.
func WithMemoryPool(ctx context.Context, pool *MemoryPool) context.Context {
	return context.WithValue(ctx, poolKey{}, pool)
}

func poolOf(ctx context.Context) *MemoryPool {
	p, _ := ctx.Value(poolKey{}).(*MemoryPool)
	return p
}
