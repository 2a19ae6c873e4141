package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/spf13/pflag"
)

// get_ci_status on the command line answers with its verdict as the exit
// status, as `gh pr checks` does, and --watch waits for pending checks to
// finish. The verdict is the result's state (the worst of the commit's
// statuses and Actions runs).

// Exit statuses of get_ci_status.
const (
	ExitChecksFailed  = 1 // a check failed or errored, or none reported
	ExitChecksPending = 8 // some are still running
)

// ciTool is the tool whose verdict is the exit status.
const ciTool = "get_ci_status"

// registerWatch adds --watch and --interval for get_ci_status.
func (cf *cliFlags) registerWatch(fs *pflag.FlagSet, name string) {
	if name != ciTool {
		return
	}
	fs.BoolVar(&cf.watch, "watch", false, "wait while checks are pending, asking again every --interval, then answer with the verdict")
	fs.DurationVar(&cf.interval, "interval", 10*time.Second, "with --watch: how long to wait between looks")
}

// ciState is the state a get_ci_status result reports, "" for none.
func ciState(res *mcp.CallToolResult) string {
	var v struct {
		State string `json:"state"`
	}
	_ = json.Unmarshal([]byte(resultText(res)), &v)
	return v.State
}

// ciExit is the exit status of a get_ci_status result: 0 when the checks
// passed, ExitChecksPending while some run, ExitChecksFailed otherwise
// (failed, errored, or none reported: nothing says the commit is good).
func ciExit(res *mcp.CallToolResult) int {
	switch ciState(res) {
	case "success", "warning":
		return ExitOK
	case "pending":
		return ExitChecksPending
	}
	return ExitChecksFailed
}

// watchCI calls get_ci_status until its state is no longer pending (or
// the call fails, or ctx ends), saying on standard error what it waits
// for; it returns the last result.
func watchCI(ctx context.Context, std IO, call func(map[string]any) *mcp.CallToolResult, args map[string]any, interval time.Duration) *mcp.CallToolResult {
	if interval < time.Second {
		interval = time.Second
	}
	for {
		res := call(args)
		if res.IsError || ciState(res) != "pending" {
			return res
		}
		fmt.Fprintf(std.Err, "forgejo-mcp: checks pending on %s; looking again in %v\n", clean(fmt.Sprint(ciSHA(res)), false), interval)
		timer := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			timer.Stop()
			return res
		case <-timer.C:
		}
	}
}

// ciSHA is the commit a get_ci_status result is about.
func ciSHA(res *mcp.CallToolResult) string {
	var v struct {
		SHA string `json:"sha"`
	}
	_ = json.Unmarshal([]byte(resultText(res)), &v)
	if len(v.SHA) > 12 {
		return v.SHA[:12]
	}
	return v.SHA
}
