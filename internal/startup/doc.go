// Package startup measures the built binary's start-up: the wall time and
// peak resident memory (getrusage's ru_maxrss) of short commands that a
// person at a shell or an MCP client's launcher runs again and again:
// `--version`, `--cli` with a tool that calls no forge (the CLI's own
// start), one `--cli` tool call against a local fake forge, and
// `--cli list`, with curl fetching the same answer as the floor a
// one-shot call cannot beat.
//
// It is a measurement, not a timed test: scripts/startup runs it (the
// figures depend on the machine and its load), prints a table, and with
// STARTUP_BEFORE set to an older build prints both side by side.
// STARTUP_BIN measures another binary instead of building this tree,
// STARTUP_RUNS sets the runs per command (default 40), STARTUP_OUT writes
// the table as Markdown. Builds are made as a release is (CGO off,
// -trimpath), which is what users run.
//
// Under the table it says whether the "now" build meets issue 28's
// targets: the forge call within 1.2 times curl's fastest run and every
// --cli command's median peak RSS within 16 MiB; STARTUP_CHECK=1 makes a
// missed target fail the run, for a person or a CI step that wants a
// verdict rather than a table (the wall ratio needs an unloaded machine).
package startup
