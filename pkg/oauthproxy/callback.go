package oauthproxy

import (
	"net/http"
	"net/url"
)

// issued is an authorization code of the proxy: the forge's code with
// what binds it to the flow. The forge's code is single-use at the forge,
// so the proxy's is too, without the proxy remembering anything.
type issued struct {
	ForgeCode string `json:"f"`
	Client    string `json:"c"`
	Name      string `json:"n,omitempty"`
	Redirect  string `json:"r"`
	Challenge string `json:"p"`
	Resource  string `json:"u,omitempty"`
	Verifier  string `json:"v"`
	Callback  string `json:"k"`
	Exp       int64  `json:"e"`
}

// maxForgeCode bounds the forge's authorization code (Gitea's are 40
// characters of base64url).
const maxForgeCode = 1024

// knownGrantClash is the forge's description of a sign-in refused because
// the user's grant to the application has other scopes (Gitea 1.26 and
// Forgejo): the application was used with another scope before (or the
// operator changed --oauth-scope).
const knownGrantClash = "a grant exists with different scope"

// serveCallback is where the forge sends the browser back. The state must
// be one the proxy sealed after the user's approval, in this browser;
// anything else is refused with a page of its own, never a redirect.
func (p *Proxy) serveCallback(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	q := r.URL.Query()
	var f flow
	if len(q["state"]) != 1 || p.seal.open(purposeState, q.Get("state"), &f) != nil || p.now().Unix() > f.Exp {
		p.errorPage(w, http.StatusBadRequest, "The forge's answer does not belong to a sign-in in progress here, or it took too long; start the sign-in again from your application.")
		return
	}
	if !p.bound(r, f.Bind) {
		p.log.WarnContext(r.Context(), "oauth: refused a forge callback without the browser's binding cookie", "client_name", f.Name)
		p.errorPage(w, http.StatusBadRequest, "The forge's answer arrived in another browser than the one that started this sign-in; start the sign-in again from your application.")
		return
	}
	if e := q.Get("error"); e != "" {
		code, desc := "server_error", "the forge refused the sign-in"
		switch {
		case e == "access_denied":
			code, desc = "access_denied", "the user denied the sign-in at the forge"
		case q.Get("error_description") == knownGrantClash:
			desc = "the forge keeps an earlier grant of this server's application with other scopes; revoke it in the forge's settings (Applications, Authorized OAuth2 applications) and sign in again"
		}
		p.log.InfoContext(r.Context(), "oauth: the forge refused a sign-in", "client_name", f.Name, "error", code)
		p.redirectError(w, r, f.Redirect, f.State, code, desc)
		return
	}
	fc := q.Get("code")
	if len(q["code"]) != 1 || fc == "" || !printable(fc, maxForgeCode) {
		p.redirectError(w, r, f.Redirect, f.State, "server_error", "the forge sent no usable authorization code")
		return
	}
	code, err := p.seal.seal(purposeCode, issued{ForgeCode: fc, Client: f.Client, Name: f.Name, Redirect: f.Redirect,
		Challenge: f.Challenge, Resource: f.Resource, Verifier: f.Verifier, Callback: f.Callback, Exp: p.now().Add(codeTTL).Unix()})
	if err != nil {
		p.redirectError(w, r, f.Redirect, f.State, "server_error", "the sign-in could not be completed")
		return
	}
	out := url.Values{"code": {code}}
	if f.State != "" {
		out.Set("state", f.State)
	}
	p.log.InfoContext(r.Context(), "oauth: signed in at the forge; code sent to the client", "client_name", f.Name)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, withParams(f.Redirect, out), http.StatusFound)
}
