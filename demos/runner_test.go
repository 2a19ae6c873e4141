package demos

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests need no forge: they pin the runner to Showboat's rules.

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []block // lang, code, output, hasOutput
		wantErr string
	}{
		{
			name: "code and output, one blank line apart",
			src:  "# T\n\n```bash\necho a\n```\n\n```output\na\n```\n",
			want: []block{{lang: "bash", code: "echo a", output: "a\n", hasOutput: true}},
		},
		{
			name: "several blank lines still pair them",
			src:  "```bash\necho a\n```\n\n\n\n```output\na\n\n```\n",
			want: []block{{lang: "bash", code: "echo a", output: "a\n\n", hasOutput: true}},
		},
		{
			name: "empty output block",
			src:  "```bash\ntrue\n```\n\n```output\n```\n",
			want: []block{{lang: "bash", code: "true", hasOutput: true}},
		},
		{
			name: "prose in between parts them",
			src:  "```bash\ntrue\n```\n\nprose\n\n```bash\necho b\n```\n```output\nb\n```\n",
			want: []block{{lang: "bash", code: "true"}, {lang: "bash", code: "echo b", output: "b\n", hasOutput: true}},
		},
		{
			name: "other interpreters and image blocks",
			src:  "```python3\nprint(1)\n```\n\n```output\n1\n```\n\n```bash {image}\nx\n```\n",
			want: []block{{lang: "python3", code: "print(1)", output: "1\n", hasOutput: true}},
		},
		{name: "unclosed fence", src: "```bash\necho a\n", wantErr: "never closed"},
		{name: "output with no code", src: "prose\n\n```output\na\n```\n", wantErr: "no code block"},
		{name: "fence without interpreter", src: "```\nls\n```\n", wantErr: "interpreter"},
		{name: "sh block with options", src: "```sh title=x\nls\n```\n", wantErr: "interpreter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parse(tt.src)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, d.blocks, len(tt.want))
			for i, w := range tt.want {
				b := d.blocks[i]
				assert.Equal(t, w.lang, b.lang)
				assert.Equal(t, w.code, b.code)
				assert.Equal(t, w.output, b.output)
				assert.Equal(t, w.hasOutput, b.hasOutput)
			}
		})
	}
}

func TestRenderRewritesAndAddsOutputs(t *testing.T) {
	src := "# T\n\n*ts*\n<!-- showboat-id: x -->\n\n```bash\necho a\n```\n\n```output\nold\n```\n\nprose\n\n```bash\ntrue\n```\n\nend\n"
	d, err := parse(src)
	require.NoError(t, err)
	d.blocks[0].output, d.blocks[1].output = "new\nlines\n", ""
	got := d.render()
	assert.Equal(t, "# T\n\n*ts*\n<!-- showboat-id: x -->\n\n```bash\necho a\n```\n\n```output\nnew\nlines\n```\n\nprose\n\n```bash\ntrue\n```\n\n```output\n```\n\nend\n", got)
	again, err := parse(got)
	require.NoError(t, err)
	assert.Equal(t, "new\nlines\n", again.blocks[0].output)
	assert.True(t, again.blocks[1].hasOutput)
	assert.Equal(t, got, again.render(), "rendering is stable")
}

func TestRepresentable(t *testing.T) {
	tests := map[string]bool{"": true, "a\n": true, "a\n\n": true, "a": false, "a\n```\n": false, "````\n": true}
	for out, ok := range tests {
		assert.Equal(t, ok, representable(out) == "", "%q", out)
	}
}

// TestRunBlockIsAFreshProcess: nothing but files carries over, standard
// input is empty, both streams land in one buffer in order, and a failing
// command is output, not an error.
func TestRunBlockIsAFreshProcess(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "ONLY=this"}
	steps := []struct{ code, want string }{
		{"X=1; f() { :; }; export Y=2; echo kept > file; cd /", ""},
		{"echo \"X=${X-unset} Y=${Y-unset} ONLY=$ONLY HOME=${HOME-unset}\"; declare -F f || echo no f; cat file", "X=unset Y=unset ONLY=this HOME=unset\nno f\nkept\n"},
		{"echo out; echo err >&2; echo out2; exit 3", "out\nerr\nout2\n"},
		{"cat; echo \"read ${#REPLY}\"", "read 0\n"},
		{"pwd", dir + "\n"},
	}
	for i, s := range steps {
		got, err := runBlock(dir, env, &block{lang: "bash", code: s.code})
		require.NoError(t, err, "step %d", i+1)
		assert.Equal(t, s.want, got, "step %d: %s", i+1, s.code)
	}
	_, err := os.Stat(filepath.Join(dir, "file"))
	assert.NoError(t, err, "the block ran in dir")
}

func TestDocumentsFollowTheContract(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	n := 0
	for _, name := range docs {
		if name == "README.md" {
			continue
		}
		n++
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		d, err := parse(string(src))
		require.NoError(t, err, name)
		doc := strings.TrimSuffix(name, ".md")
		for i, b := range d.blocks {
			first := strings.SplitN(b.code, "\n", 2)[0]
			want := ". demos/lib.sh " + doc
			if i == 0 {
				want += " --fresh"
			}
			assert.Equal(t, want, first, "%s:%d: block %d starts with its own set-up", name, b.line, i+1)
			assert.Equal(t, "bash", b.lang, "%s:%d", name, b.line)
			assert.True(t, b.hasOutput, "%s:%d: block %d has an output block", name, b.line, i+1)
			assert.Empty(t, representable(b.output), "%s:%d", name, b.line)
		}
	}
	assert.GreaterOrEqual(t, n, 3)
}
