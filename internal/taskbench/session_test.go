package taskbench_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// session is one agent's MCP session with a server binary, counting what
// a task costs: tool calls, the bytes of their arguments and the bytes of
// their results' text content, which is what lands in the agent's context.
type session struct {
	t     *testing.T
	cs    *mcp.ClientSession
	tools map[string]*mcp.Tool
	cost  cost
	// known are the tools search_tools has shown in the current task
	// (maintainer_test.go), nil where the tasks do not search.
	known map[string]bool
}

// cost is what a task took.
type cost struct {
	Calls       int      `json:"calls"`
	ArgBytes    int      `json:"arg_bytes"`
	ResultBytes int      `json:"result_bytes"`
	Tools       []string `json:"tools"`
}

// open starts bin as an MCP server over stdio on the live forge with every
// toolset offered (the tasks reach beyond the default selection), through
// the official Go SDK's client.
func open(t *testing.T, bin, url, token string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "FORGEJO_URL=" + url, "FORGEJO_ACCESS_TOKEN=" + token}
	client := mcp.NewClient(&mcp.Implementation{Name: "taskbench", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	s := &session{t: t, cs: cs, tools: map[string]*mcp.Tool{}}
	for _, tl := range list.Tools {
		s.tools[tl.Name] = tl
	}
	return s
}

// listBytes is the size of the server's tools/list answer.
func (s *session) listBytes() int {
	list, err := s.cs.ListTools(context.Background(), nil)
	require.NoError(s.t, err)
	b, err := json.Marshal(list)
	require.NoError(s.t, err)
	return len(b)
}

func (s *session) has(tool string) bool { return s.tools[tool] != nil }

// schemaText is tool's input schema as JSON ("" when it has no tool).
func (s *session) schemaText(tool string) string {
	tl := s.tools[tool]
	if tl == nil {
		return ""
	}
	b, err := json.Marshal(tl.InputSchema)
	require.NoError(s.t, err)
	return string(b)
}

// hasParam says whether tool takes param: which way a task can go.
func (s *session) hasParam(tool, param string) bool {
	text := s.schemaText(tool)
	if text == "" {
		return false
	}
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	require.NoError(s.t, json.Unmarshal([]byte(text), &schema))
	_, ok := schema.Properties[param]
	return ok
}

// call calls tool and returns its text; a task is a script that succeeds,
// so a failed call fails the run.
func (s *session) call(tool string, args map[string]any) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(s.t, err, tool)
	a, err := json.Marshal(args)
	require.NoError(s.t, err)
	text := ""
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			text += c.Text
		case *mcp.ImageContent:
			s.cost.ResultBytes += len(c.Data)
		}
	}
	s.cost.Calls++
	s.cost.ArgBytes += len(a)
	s.cost.ResultBytes += len(text)
	s.cost.Tools = append(s.cost.Tools, tool)
	require.False(s.t, res.IsError, "%s: %s", tool, text)
	return text
}

// measure runs task and returns what it cost.
func (s *session) measure(task func()) cost {
	s.cost = cost{}
	task()
	return s.cost
}

// decode reads a tool's JSON result into out.
func decode(t *testing.T, text string, out any) {
	t.Helper()
	require.NoError(t, json.Unmarshal([]byte(text), out), text)
}
