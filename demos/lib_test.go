package demos

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libRoot is a stand-in repository root for lib.sh: demos/ and an
// executable ./forgejo-mcp (a script: these tests call no forge).
func libRoot(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	here, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(here, filepath.Join(root, "demos")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "forgejo-mcp"), []byte("#!/bin/sh\necho \"fake $*\"\n"), 0o755))
	env := []string{"PATH=" + os.Getenv("PATH"), "FORGEJO_URL=http://127.0.0.1:3999/", "FORGEJO_ACCESS_TOKEN=t",
		"DEMO_OWNER=alice", "DEMO_REPO=t-demo-1a2b", "FORGEJO_MCP_READ_ONLY=true"}
	return root, env
}

const listJSON = `{
  "items": [
    {
      "id": 17,
      "name": "a \"quoted\" \u0026 \u003cescaped\u003e name",
      "size": 549,
      "labels": [
        "bug",
        "ui"
      ]
    },
    {
      "id": 18,
      "name": "build.log",
      "size": 2621440,
      "labels": []
    }
  ],
  "page": 1,
  "has_more": false
}
`

func TestLibHelpers(t *testing.T) {
	root, env := libRoot(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, "list.json"), []byte(listJSON), 0o644))
	tests := []struct{ name, code, want string }{
		{"fresh scratch folder with the binary", ". demos/lib.sh t --fresh; pwd | sed 's#.*/##'; ./forgejo-mcp --cli x $R; echo ro=${FORGEJO_MCP_READ_ONLY-unset} $LC_ALL $TZ",
			"t\nfake --cli x --owner alice --repo t-demo-1a2b\nro=unset C UTC\n"},
		{"keep survives to the next block", ". demos/lib.sh t; keep ISSUE 7; keep ATT_2 42", ""},
		{"kept values come back", ". demos/lib.sh t; echo $ISSUE $ATT_2; ls kept", "7 42\nATT_2\nISSUE\n"},
		{"keep refuses an empty value", ". demos/lib.sh t; keep X \"\"; echo \"exit $?\"; keep 1x 1; echo \"exit $?\"",
			"keep: no value for X (did the command before it fail?)\nexit 1\nkeep: bad name '1x'\nexit 2\n"},
		{"field", ". demos/lib.sh t; field items 0 name < ../../list.json; field items 1 size < ../../list.json; field items 0 labels 1 < ../../list.json; field has_more < ../../list.json",
			"a \"quoted\" & <escaped> name\n2621440\nui\nfalse\n"},
		{"field with a wildcard", ". demos/lib.sh t; field items '*' id < ../../list.json", "17\n18\n"},
		{"field finds nothing", ". demos/lib.sh t; field items 5 name < ../../list.json; echo \"exit $?\"", "field: nothing at items/5/name in the input\nexit 1\n"},
		{"rows", ". demos/lib.sh t; rows name size < ../../list.json", "a \"quoted\" & <escaped> name 549\nbuild.log 2621440\n"},
		{"rows of an empty list", ". demos/lib.sh t; echo '[]' | rows name; printf '{\\n  \"items\": [],\\n  \"page\": 1\\n}\\n' | rows name; echo \"exit $?\"", "exit 0\n"},
		{"stable", ". demos/lib.sh t; printf '%s\\n' 'http://127.0.0.1:3999/alice/t-demo-1a2b/issues/1 in t-demo-1a2b' " +
			"'\"uuid\": \"0f8fad5b-d9cb-469f-a165-70867728950e\", \"created_at\": \"2026-11-30T21:35:16Z\", \"x\": \"2026-11-30T21:35:16.123+01:00\"' " +
			"'\"id\": 12, \"release_id\": 3, \"number\": 4' 'commit 0123456789abcdef0123456789abcdef01234567.' " +
			"'sha256 7ec30b1f5d905598bec80d10e82394ad2a8053ea6690e2e454e28cfcebfcc036' | stable",
			"$FORGEJO_URL/$DEMO_OWNER/$DEMO_REPO/issues/1 in $DEMO_REPO\n\"uuid\": \"<uuid>\", \"created_at\": \"<time>\", \"x\": \"<time>\"\n" +
				"\"id\": <id>, \"release_id\": <id>, \"number\": 4\ncommit <commit>.\nsha256 7ec30b1f5d905598bec80d10e82394ad2a8053ea6690e2e454e28cfcebfcc036\n"},
		{"an unknown document", ". demos/lib.sh nope; echo not reached", "demos/lib.sh: no .demo/nope: run the document from its first block\n"},
		{"a bad option", ". demos/lib.sh t --fast; echo not reached", "demos/lib.sh: unknown option --fast: use --fresh or nothing\n"},
		{"no name", ". demos/lib.sh; echo not reached", "demos/lib.sh: usage: . demos/lib.sh DOC [--fresh]\n"},
		{"fresh again empties it", ". demos/lib.sh t --fresh; ls -A kept", ""},
	}
	for _, tt := range tests {
		got, err := runBlock(root, env, &block{lang: "bash", code: tt.code})
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestLibNeedsTheEnvironment(t *testing.T) {
	root, env := libRoot(t)
	got, err := runBlock(root, env[:3], &block{lang: "bash", code: ". demos/lib.sh t --fresh; echo not reached"})
	require.NoError(t, err)
	assert.Equal(t, "demos/lib.sh: set DEMO_OWNER DEMO_REPO (see demos/README.md)\n", got)
	require.NoError(t, os.Remove(filepath.Join(root, "forgejo-mcp")))
	got, err = runBlock(root, env, &block{lang: "bash", code: ". demos/lib.sh t --fresh; echo not reached"})
	require.NoError(t, err)
	assert.Equal(t, "demos/lib.sh: no ./forgejo-mcp here: run from the repository root after 'make build'\n", got)
}

// TestMakePDF checks the PDF's structure: every xref entry points at its
// object, and startxref at the table.
func TestMakePDF(t *testing.T) {
	root, env := libRoot(t)
	_, err := runBlock(root, env, &block{lang: "bash", code: ". demos/lib.sh t --fresh; make_pdf 'Requirements v1' > r.pdf"})
	require.NoError(t, err)
	pdf, err := os.ReadFile(filepath.Join(root, ".demo", "t", "r.pdf"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")))
	require.True(t, bytes.HasSuffix(pdf, []byte("%%EOF\n")))
	assert.Contains(t, string(pdf), "(Requirements v1) Tj")
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(pdf)
	require.NotNil(t, m)
	xref, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf[xref:], []byte("xref\n0 5\n")))
	entries := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(pdf[xref:], -1)
	require.Len(t, entries, 4)
	for i, e := range entries {
		off, err := strconv.Atoi(string(e[1]))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(pdf[off:], fmt.Appendf(nil, "%d 0 obj\n", i+1)), "object %d at %d", i+1, off)
	}
	stream := regexp.MustCompile(`/Length (\d+) >>\nstream\n`).FindSubmatchIndex(pdf)
	require.NotNil(t, stream)
	n, err := strconv.Atoi(string(pdf[stream[2]:stream[3]]))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(pdf[stream[1]+n:], []byte("\nendstream")), "/Length is the stream's length")
}
