package forgejo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestDecodeObserverSeesRawCalls(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"name":"x"}`))
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	base := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u}), u, "tok-123456", "t")
	type seen struct {
		method, path string
		typ          reflect.Type
	}
	var got []seen
	c := base.WithDecodeObserver(func(method, p string, out any) {
		var typ reflect.Type
		if out != nil {
			typ = reflect.TypeOf(out)
		}
		got = append(got, seen{method, p, typ})
	})
	var v struct {
		Name string `json:"name"`
	}
	ctx := context.Background()
	require.NoError(t, c.DoJSON(ctx, http.MethodGet, "/repos/o/r", nil, nil, &v))
	require.NoError(t, c.DoJSON(ctx, http.MethodDelete, "/repos/o/r", nil, nil, nil))
	_, err = c.DoRaw(ctx, "/api/v1/repos/o/r/raw/f", forgejo.RawOptions{MaxBytes: 100})
	require.NoError(t, err)
	require.NoError(t, base.DoJSON(ctx, http.MethodGet, "/repos/o/r", nil, nil, &v))
	require.Len(t, got, 3, "the original client reports nothing")
	assert.Equal(t, seen{"GET", "/repos/o/r", reflect.TypeOf(&v)}, got[0])
	assert.Equal(t, seen{"DELETE", "/repos/o/r", nil}, got[1])
	assert.Equal(t, seen{"GET", "/api/v1/repos/o/r/raw/f", nil}, got[2], "DoRaw reports its full path")
}
