// Package memcheck holds the peak-memory check of the built binary
// (TestPeakRSS, security issue 8): hostile maximum-size messages
// (`[{},{},…]`, numbers, keys, deep nesting, strings, in an upload's
// arguments, an ordinary tool's or _meta) and real 10 MiB uploads to the
// live forge, on stdio (one message per fresh process) and on streamable
// HTTP (four maximum-size bodies at once per fresh process), measured as
// the process's VmHWM against the targets of docs/hardening.md; PDF bombs
// downloaded on stdio; and a whole one-shot --cli download of issue 22's
// 10 MiB PDF, measured from the exited process's rusage (cli_test.go says
// why a fresh starter process runs it).
// TestHTTPLoad (security issue 18, item 3) measures the HTTP server under
// the worst body loads at default limits: 64 trickling bodies of one token
// while another user calls (who is served), and 48 concurrent 16 MiB
// bodies from 48 clients; TestCompletionMemory (item 4) completions
// against a forge with 240,000 refs.
//
// scripts/check runs it as its own step (FORGEJO_MCP_MEMCHECK=1, with the
// live forge's FORGEJO_TEST_* variables). MEMCHECK_BIN measures another
// binary (an older build, for before-and-after figures), MEMCHECK_ARGS
// adds flags, MEMCHECK_CASES selects cases by regexp, MEMCHECK_REPORT_ONLY
// reports without enforcing, and MEMCHECK_OUT writes the table as Markdown.
package memcheck
