package pdftext

import "codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"

// Work is what an extraction did (tokens lexed, operands dropped, streams
// stopped, cross-reference sections read), for tests to assert on.
type Work = work

// WorkOf returns the work counted for r.
func WorkOf(r *Result) Work { return r.work }

// Occupy takes n bytes of pool, as other extractions would, until the
// function it returns gives them back.
func Occupy(pool *MemoryPool, n int64) func() {
	b := pdfobj.NewBudget(n)
	b.Draw(pool.p)
	b.Take(n)
	return b.Close
}
