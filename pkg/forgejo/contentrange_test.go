package forgejo

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestParseContentRange: only what RFC 9110 §14.4 lets a server write is a
// range; a forge or proxy that writes a sign, a negative size or a last
// byte past the size has not answered the range asked for.
func TestParseContentRange(t *testing.T) {
	tests := []struct {
		in           string
		start, total int64
		ok           bool
	}{
		{"bytes 0-99/1000", 0, 1000, true},
		{"bytes 5-9/*", 5, -1, true},
		{" bytes 999-999/1000 ", 999, 1000, true},
		{"bytes 0--1/0", 0, 0, true},                    // net/http's answer to bytes=-N on an empty file
		{"bytes 0-1/-2", 0, 0, false},                   // found by FuzzForgeText: a negative size
		{"bytes 0-1/+2", 0, 0, false},                   // a sign is not a digit
		{"bytes +0-1/2", 0, 0, false},                   // nor here
		{"bytes -1-2/3", 0, 0, false},                   // nor a negative start
		{"bytes 5-4/10", 0, 0, false},                   // last before first
		{"bytes 0-10/10", 0, 0, false},                  // last byte past the size
		{"bytes 0-/10", 0, 0, false},                    // no last byte
		{"bytes 0-1/", 0, 0, false},                     // no size
		{"bytes */10", 0, 0, false},                     // the form of a 416, not of a 206
		{"items 0-1/2", 0, 0, false},                    // another unit
		{"bytes 0-99999999999999999999/*", 0, 0, false}, // past int64
	}
	for _, tt := range tests {
		if tt.in == "bytes 0--1/0" {
			t.Run("matches net/http", func(t *testing.T) {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodGet, "/log", nil)
				r.Header.Set("Range", "bytes=-100")
				http.ServeContent(w, r, "log", time.Time{}, bytes.NewReader(nil))
				assert.Equal(t, tt.in, w.Header().Get("Content-Range"))
			})
		}
		t.Run(tt.in, func(t *testing.T) {
			start, total, ok := parseContentRange(tt.in)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.start, start)
				assert.Equal(t, tt.total, total)
			}
		})
	}
}
