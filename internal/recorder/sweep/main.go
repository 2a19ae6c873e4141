// Command sweep records a live forge's answers to the tools the first
// recorded sweep (2026-12-01) never saw: it seeds what they need, then
// calls each through the built forgejo-mcp binary over stdio with mcp-go's
// client, every request passing the recording proxy (internal/recorder).
//
// The forge's ROOT_URL must be the proxy's address (-listen), so absolute
// URLs in answers name the proxy as in the first recordings;
// scripts/record-sweep starts a forge that way and runs this. The forge is
// read from FORGEJO_TEST_URL, FORGEJO_TEST_TOKEN, FORGEJO_TEST_USER,
// FORGEJO_TEST_TOKEN2 and FORGEJO_TEST_USER2 (scripts/test-forge start).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/recorder"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "sweep:", err)
		os.Exit(1)
	}
}

// forge is the live forge and its two users.
type forge struct {
	url                *url.URL
	admin, user2       string // logins
	adminTok, user2Tok string
	proxy              string // the proxy's base URL
	http               *http.Client
	rec                *recorder.Recorder
	mcp                *client.Client
	calls              int
	failed             []string
	repo, org, orgRepo string
	teamID, comment    int64
	issue, pull, auto  int64  // issue and pull request numbers
	pullHead           string // the pull request's head commit
	pending, approval  int64  // review ids: the admin's pending one, user2's dismissed approval
}

func run() error {
	bin := flag.String("bin", "", "the built forgejo-mcp binary")
	listen := flag.String("listen", "", "the proxy's address, host:port (the forge's ROOT_URL)")
	out := flag.String("out", "", "the JSON-lines file to write")
	firstSeq := flag.Int("first-seq", 1, "the first line's seq (unique across a forge's recording files)")
	flag.Parse()
	if *bin == "" || *listen == "" || *out == "" {
		return errors.New("usage: sweep -bin BINARY -listen 127.0.0.1:PORT -out FILE.jsonl [-first-seq N]")
	}
	f := &forge{admin: os.Getenv("FORGEJO_TEST_USER"), user2: os.Getenv("FORGEJO_TEST_USER2"),
		adminTok: os.Getenv("FORGEJO_TEST_TOKEN"), user2Tok: os.Getenv("FORGEJO_TEST_TOKEN2"),
		http: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	var err error
	if f.url, err = url.Parse(os.Getenv("FORGEJO_TEST_URL")); err != nil || f.url.Host == "" || f.adminTok == "" || f.user2Tok == "" {
		return errors.New("FORGEJO_TEST_URL, FORGEJO_TEST_TOKEN and FORGEJO_TEST_TOKEN2 must name a live forge (scripts/test-forge start)")
	}
	file, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer file.Close()
	f.rec = recorder.New(f.url, file, *firstSeq, map[string]string{f.adminTok: "admin", f.user2Tok: "user2"})
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: f.rec, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	f.proxy = "http://" + ln.Addr().String()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := f.checkRootURL(ctx); err != nil {
		return err
	}
	if err := f.seed(ctx); err != nil {
		return fmt.Errorf("seeding: %w", err)
	}
	if err := f.connect(ctx, *bin); err != nil {
		return err
	}
	defer f.mcp.Close()
	if err := f.sweep(ctx); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "sweep: %d tool calls recorded in %s\n", f.calls, *out)
	if len(f.failed) > 0 {
		fmt.Fprintf(os.Stderr, "sweep: %d calls answered isError (recorded all the same): %v\n", len(f.failed), f.failed)
	}
	return nil
}

// checkRootURL refuses a forge whose absolute URLs do not name the proxy:
// the replay rewrites one origin, the recording's.
func (f *forge) checkRootURL(ctx context.Context) error {
	var me struct {
		HTMLURL string `json:"html_url"`
	}
	if err := f.api(ctx, "(probe) ROOT_URL", "GET", "/user", f.adminTok, nil, &me); err != nil {
		return err
	}
	if want := f.proxy + "/" + f.admin; me.HTMLURL != want {
		return fmt.Errorf("the forge's ROOT_URL is not the proxy: html_url %q, want %q (scripts/record-sweep sets it)", me.HTMLURL, want)
	}
	return nil
}

// connect starts the binary over stdio against the proxy, all toolsets on.
func (f *forge) connect(ctx context.Context, bin string) error {
	c, err := client.NewStdioMCPClient(bin, []string{"FORGEJO_URL=" + f.proxy, "FORGEJO_ACCESS_TOKEN=" + f.adminTok,
		"FORGEJO_TOKEN_FILE=", "FORGEJO_MCP_PROFILE="}, "--toolsets", "all")
	if err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "forgejo-mcp-sweep", Version: "2"}
	f.rec.SetTool("(probe) initialize", nil)
	if _, err := c.Initialize(ctx, init); err != nil {
		_ = c.Close()
		return fmt.Errorf("initialize: %w", err)
	}
	f.mcp = c
	return nil
}

// call calls one tool, its requests labelled with its name; a result
// with isError is recorded like any other (the forge's answer is the
// point) and reported at the end.
func (f *forge) call(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
	f.calls++
	n := f.calls
	f.rec.SetTool(name, &n)
	defer f.rec.SetTool("(probe) between calls", nil)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := f.mcp.CallTool(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if res.IsError {
		text := ""
		for _, c := range res.Content {
			if t, ok := c.(mcp.TextContent); ok {
				text += t.Text
			}
		}
		f.failed = append(f.failed, name+": "+text)
		return nil, nil
	}
	raw, _ := json.Marshal(res.StructuredContent)
	return raw, nil
}
