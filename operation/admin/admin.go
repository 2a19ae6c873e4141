// Package admin holds the tools of site administration: users,
// organisations, e-mails, cron tasks, quota, runners and system hooks. Only
// a site administrator's token may use them, and only a selection that
// names the toolset (or a tool of it) offers them: "all" does not.
package admin

import "codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"

// Toolset is site administration. It is Explicit: --toolsets all leaves
// it out, --toolsets admin (or +admin) offers it.
var Toolset = tool.Toolset{ID: "admin", Explicit: true,
	Description: "Site administration, for a site administrator's token; offered only when named (not by all): users, organisations, e-mails, cron tasks, quota, runners, system hooks"}
