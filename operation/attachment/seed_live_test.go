package attachment_test

// The seed's acceptance criteria (003, "Issue & Comment Attachments"),
// run as they are written: `./forgejo-mcp --cli download_issue_attachment …`
// through the built binary against a live forge.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// cliResult is a CallToolResult as `--output mcp` prints it.
type cliResult struct {
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		Resource *struct {
			URI      string `json:"uri"`
			MIMEType string `json:"mimeType"`
			Blob     string `json:"blob"`
		} `json:"resource"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

func TestLiveSeedAcceptance(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	issue := f.NewIssue(t, owner, repo, "seed acceptance", "")
	bin := builtBinary(t)
	cli := func(t *testing.T, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--cli"}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
			"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "forgejo-mcp --cli %v: %s", args, stderr.String())
		return out
	}
	where := []string{"--owner", owner, "--repo", repo, "--index", fmt.Sprint(issue)}
	upload := func(t *testing.T, name string, data []byte) int64 {
		t.Helper()
		path := filepath.Join(t.TempDir(), name)
		require.NoError(t, os.WriteFile(path, data, 0o600))
		var a struct{ ID, Size int64 }
		require.NoError(t, json.Unmarshal(cli(t, append([]string{"create_issue_attachment", "--file", path, "--output", "json"}, where...)...), &a))
		require.Equal(t, int64(len(data)), a.Size)
		return a.ID
	}
	download := func(t *testing.T, id int64) (cliResult, map[string]any) {
		t.Helper()
		out := cli(t, append([]string{"download_issue_attachment", "--attachment-id", fmt.Sprint(id), "--output", "mcp"}, where...)...)
		var res cliResult
		require.NoError(t, json.Unmarshal(out, &res), "%.300s", out)
		require.False(t, res.IsError, "%.300s", out)
		require.NotEmpty(t, res.Content)
		var meta map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].Text), &meta))
		att, _ := meta["attachment"].(map[string]any)
		require.NotEmpty(t, att["browser_download_url"], "the metadata carries browser_download_url")
		return res, meta
	}
	blobOfCLI := func(t *testing.T, res cliResult) []byte {
		t.Helper()
		for _, c := range res.Content {
			if c.Type == "resource" && c.Resource != nil && c.Resource.Blob != "" {
				b, err := base64.StdEncoding.DecodeString(c.Resource.Blob)
				require.NoError(t, err)
				return b
			}
		}
		return nil
	}

	// A real PDF (Chromium's print to PDF, 70 KB: over the 40 KiB the
	// regression of issue 28 allowed), a PDF and a binary file just under
	// 1 MiB: each an EmbeddedResource whose blob decodes to the exact bytes.
	real, err := os.ReadFile("../../internal/pdfscore/testdata/corpus/chromium-print.pdf")
	require.NoError(t, err)
	for _, tt := range []struct {
		name, file string
		data       []byte
		text       string // in the PDF's text, which comes besides its bytes
	}{
		{"a real PDF", "chromium-print.pdf", real, "Chromium"},
		{"a PDF just under 1 MiB", "almost.pdf", makePDF(t, "almost a mebibyte", 1<<20-1), "almost a mebibyte"},
		{"a binary file just under 1 MiB", "dump.bin", randomBytes(28, 1<<20-1), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Less(t, len(tt.data), 1<<20)
			res, meta := download(t, upload(t, tt.file, tt.data))
			assert.Equal(t, sum(tt.data), sum(blobOfCLI(t, res)), "the blob decodes to the exact bytes (sha256)")
			assert.Equal(t, sum(tt.data), meta["sha256"])
			if tt.text != "" {
				require.Len(t, res.Content, 3, "the metadata, the PDF's text, its bytes")
				assert.Equal(t, "text", res.Content[1].Type)
				assert.Contains(t, res.Content[1].Text, tt.text)
			}
		})
	}

	// 2a: over 1 MiB, metadata and browser_download_url and no blob; the
	// URL gives the exact bytes with the forge token.
	t.Run("over 1 MiB", func(t *testing.T) {
		big := randomBytes(29, 1<<20+1)
		res, meta := download(t, upload(t, "big.bin", big))
		assert.Nil(t, blobOfCLI(t, res))
		att := meta["attachment"].(map[string]any)
		assert.Equal(t, sum(big), sum(fetchWithToken(t, att["browser_download_url"].(string), f.Token)))
	})
}
