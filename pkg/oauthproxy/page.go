package oauthproxy

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

// The proxy's two pages: the consent page, where the person at the
// browser approves a client before it is signed in at the forge, and the
// error page of a request that cannot be sent back to a client. Both are
// html/template (every value escaped for its context), carry no script,
// cannot be framed (clickjacking the approve button) and are not cached.

const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"

const pageStyle = `body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;color:#222}
.warn{background:#fff4d6;border-left:4px solid #c90;padding:.5em 1em}
code{word-break:break-all}button{font:inherit;padding:.4em 1.2em;margin-right:1em}`

const consentHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>Allow access to {{.Forge}}?</title><style>` + pageStyle + `</style></head>
<body>
<h1>Allow access to {{.Forge}}?</h1>
{{if .Document}}<p>The application at <strong>{{.DocumentHost}}</strong>{{if .Name}}, which calls itself <strong>{{.Name}}</strong>,{{end}} wants to act as you on <strong>{{.Forge}}</strong> through the MCP server at {{.Server}}.</p>
<p>It is identified by the document at <code>{{.ClientID}}</code>.</p>
{{else}}<p>{{if .Name}}An application that calls itself <strong>{{.Name}}</strong>{{else}}An application that gave no name{{end}} wants to act as you on <strong>{{.Forge}}</strong> through the MCP server at {{.Server}}.</p>
<p>It registered itself with this server: nobody has checked its name.</p>
{{end}}<p>After you sign in, your access goes to <strong>{{.RedirectHost}}</strong>: <code>{{.Redirect}}</code></p>
{{if .Loopback}}<p class="warn">That is a program on this computer. Continue only if you have just started this sign-in yourself, from an application on this computer (Claude Code, VS Code, …).</p>
{{end}}<p>{{if .Scope}}It will have these permissions on {{.Forge}}: <code>{{.Scope}}</code>.{{else}}It will be able to do everything you can do on {{.Forge}}.{{end}}</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.Request}}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>
`

const errorHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>Sign-in failed</title><style>` + pageStyle + `</style></head>
<body><h1>Sign-in failed</h1><p>{{.}}</p></body></html>
`

type pages struct{ consent, error *template.Template }

func newPages() *pages {
	return &pages{
		consent: template.Must(template.New("consent").Parse(consentHTML)),
		error:   template.Must(template.New("error").Parse(errorHTML)),
	}
}

// consentPage shows what the person is asked to approve: the client (its
// metadata document's host, or its self-declared name), where the access
// goes (the redirect URI and its host), the forge and the scope.
func (p *Proxy) consentPage(w http.ResponseWriter, r *http.Request, c *client, redirect, sealed string) {
	ru, _ := url.Parse(redirect)
	data := map[string]any{
		"Forge":        hostOf(p.cfg.ForgeAuthorize(r.Context())),
		"Server":       p.Issuer(r),
		"Name":         c.Name,
		"ClientID":     c.ID,
		"Document":     c.Document,
		"DocumentHost": hostOf(c.ID),
		"Redirect":     redirect,
		"RedirectHost": redirectHost(ru),
		"Loopback":     isLoopback(redirect),
		"Scope":        p.cfg.Scope,
		"Action":       p.endpoint(r, ConsentPath),
		"Request":      sealed,
	}
	p.writePage(w, http.StatusOK, p.pages.consent, data)
}

// errorPage answers a request that cannot be sent back to its client.
// msg is the proxy's own text, never the client's.
func (p *Proxy) errorPage(w http.ResponseWriter, status int, msg string) {
	p.writePage(w, status, p.pages.error, msg)
}

func (p *Proxy) writePage(w http.ResponseWriter, status int, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		http.Error(w, "500 internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
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
