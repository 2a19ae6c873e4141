package oauthproxy

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
)

// maxFormBytes bounds the body of every endpoint: registration metadata,
// the consent form and token requests are a few hundred bytes.
const maxFormBytes = 16 << 10

// serveRegister is dynamic client registration (RFC 7591). Nothing is
// stored: the client id is the client's metadata, sealed. Every client is
// public (token_endpoint_auth_method "none", PKCE); a client asking for a
// secret is registered without one, as section 3.2.1 lets the server
// replace what it does not support.
func (p *Proxy) serveRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		registerError(w, errInvalidClientMetadata, "send the client metadata as application/json")
		return
	}
	m, err := decodeMetadata(http.MaxBytesReader(w, r.Body, maxFormBytes))
	if err != nil {
		registerError(w, errInvalidClientMetadata, err.Error())
		return
	}
	if err := m.validate(); err != nil {
		var me *metadataError
		errors.As(err, &me)
		registerError(w, me.code, me.desc)
		return
	}
	issued := p.now().Unix()
	id, err := p.seal.seal(purposeClient, registered{Name: m.ClientName, RedirectURIs: m.RedirectURIs, IssuedAt: issued})
	if err != nil {
		http.Error(w, "500 internal error", http.StatusInternalServerError)
		return
	}
	p.log.InfoContext(r.Context(), "oauth: registered a client", "client_name", m.ClientName, "redirect_uris", len(m.RedirectURIs))
	resp := map[string]any{
		"client_id":                  id,
		"client_id_issued_at":        issued,
		"redirect_uris":              m.RedirectURIs,
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	}
	if m.ClientName != "" {
		resp["client_name"] = m.ClientName
	}
	writeJSON(w, http.StatusCreated, resp)
}

// decodeMetadata reads one JSON object of client metadata.
func decodeMetadata(body interface{ Read([]byte) (int, error) }) (*metadata, error) {
	var m metadata
	dec := json.NewDecoder(body)
	if err := dec.Decode(&m); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errors.New("the client metadata is larger than 16 KiB")
		}
		return nil, errors.New("the body is not a JSON object of client metadata (redirect_uris must be an array of strings, client_name a string)")
	}
	if dec.More() {
		return nil, errors.New("the body holds more than one JSON value")
	}
	return &m, nil
}

func registerError(w http.ResponseWriter, code, desc string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}
