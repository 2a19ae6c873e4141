package oauthproxy

import (
	"html"
	"net/http"
	"net/url"
	"strings"
)

// The proxy's two pages: the consent page, where the person at the
// browser approves a client before it is signed in at the forge, and the
// error page of a request that cannot be sent back to a client. Every
// value is HTML-escaped where it is written (esc), and the pages carry no
// script, cannot be framed (clickjacking the approve button) and are not
// cached. They are built with strings, not html/template: linking
// text/template's reflection keeps every exported method of every type in
// the binary, 5 MB more for every start of the CLI.

const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"

const pageHead = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>%TITLE%</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;color:#222}
.warn{background:#fff4d6;border-left:4px solid #c90;padding:.5em 1em}
code{word-break:break-all}button{font:inherit;padding:.4em 1.2em;margin-right:1em}</style></head>
<body>
`

// esc escapes s for HTML text and double-quoted attribute values.
func esc(s string) string { return html.EscapeString(s) }

// page is a page of the proxy's with an escaped title and body markup the
// caller escaped.
func page(title, body string) string {
	return strings.Replace(pageHead, "%TITLE%", esc(title), 1) + body + "</body></html>\n"
}

// consentPage shows what the person is asked to approve: the client (its
// metadata document's host, or its self-declared name), where the access
// goes (the redirect URI and its host), the forge and the scope.
func (p *Proxy) consentPage(w http.ResponseWriter, r *http.Request, c *client, redirect, sealed string) {
	ru, _ := url.Parse(redirect)
	forge := esc(hostOf(p.cfg.ForgeAuthorize(r.Context())))
	acts := " wants to act as you on <strong>" + forge + "</strong> through the MCP server at " + esc(p.Issuer(r)) + ".</p>\n"
	var b strings.Builder
	b.WriteString("<h1>Allow access to " + forge + "?</h1>\n")
	switch {
	case c.Document:
		b.WriteString("<p>The application at <strong>" + esc(hostOf(c.ID)) + "</strong>")
		if c.Name != "" {
			b.WriteString(", which calls itself <strong>" + esc(c.Name) + "</strong>,")
		}
		b.WriteString(acts + "<p>It is identified by the document at <code>" + esc(c.ID) + "</code>.</p>\n")
	case c.Name != "":
		b.WriteString("<p>An application that calls itself <strong>" + esc(c.Name) + "</strong>" + acts)
		b.WriteString("<p>It registered itself with this server: nobody has checked its name.</p>\n")
	default:
		b.WriteString("<p>An application that gave no name" + acts)
		b.WriteString("<p>It registered itself with this server: nobody has checked its name.</p>\n")
	}
	b.WriteString("<p>After you sign in, your access goes to <strong>" + esc(redirectHost(ru)) + "</strong>: <code>" + esc(redirect) + "</code></p>\n")
	if isLoopback(redirect) {
		b.WriteString(`<p class="warn">That is a program on this computer. Continue only if you have just started this sign-in yourself, from an application on this computer (Claude Code, VS Code, …).</p>` + "\n")
	}
	if p.cfg.Scope != "" {
		b.WriteString("<p>It will have these permissions on " + forge + ": <code>" + esc(p.cfg.Scope) + "</code>.</p>\n")
	} else {
		b.WriteString("<p>It will be able to do everything you can do on " + forge + ".</p>\n")
	}
	b.WriteString(`<form method="post" action="` + esc(p.endpoint(r, ConsentPath)) + `">` + "\n" +
		`<input type="hidden" name="request" value="` + esc(sealed) + `">` + "\n" +
		`<button type="submit" name="decision" value="allow">Allow</button>` + "\n" +
		`<button type="submit" name="decision" value="deny">Deny</button>` + "\n</form>\n")
	p.writePage(w, http.StatusOK, page("Allow access to "+hostOf(p.cfg.ForgeAuthorize(r.Context()))+"?", b.String()))
}

// errorPage answers a request that cannot be sent back to its client.
// msg is the proxy's own text, never the client's.
func (p *Proxy) errorPage(w http.ResponseWriter, status int, msg string) {
	p.writePage(w, status, page("Sign-in failed", "<h1>Sign-in failed</h1><p>"+esc(msg)+"</p>\n"))
}

func (p *Proxy) writePage(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// redirectHost names where a redirect URI leads: its host, or for a
// native app's private-use scheme the scheme.
func redirectHost(u *url.URL) string {
	if u == nil {
		return ""
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "the application registered for " + u.Scheme + ":"
	}
	if isLoopback(u.String()) {
		return "this computer (" + strings.Trim(u.Host, "[]") + ")"
	}
	return u.Host
}
