package pdftext

import (
	"context"
	"errors"
	"fmt"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// stop is the panic value that ends an extraction early (the deadline);
// extract recovers it into its error.
type stop struct{ err error }

func (s stop) Error() string { return s.err.Error() }
func (s stop) Unwrap() error { return s.err }

// errFull is the panic value of a text budget spent; pageText recovers it.
var errFull = errors.New("text budget spent")

// checkCtx panics with stop once ctx is done.
func checkCtx(ctx context.Context) {
	if err := ctx.Err(); err != nil {
		panic(stop{fmt.Errorf("%w: %w", ErrTooMuchWork, err)})
	}
}

// asError turns a recovered panic into an error, never doubling the
// "malformed PDF" prefix.
func asError(r any) error {
	var s stop
	var ps pdfobj.Stop
	switch v := r.(type) {
	case stop:
		return v.err
	case pdfobj.Stop:
		return v.Err
	case error:
		if errors.As(v, &s) {
			return s.err
		}
		if errors.As(v, &ps) {
			return ps.Err
		}
		if errors.Is(v, ErrMalformed) || errors.Is(v, ErrTooMuchWork) {
			return v
		}
		return fmt.Errorf("%w: %v", ErrMalformed, v)
	}
	return fmt.Errorf("%w: %v", ErrMalformed, r)
}
