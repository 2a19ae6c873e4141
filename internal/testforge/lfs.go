package testforge

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// LFSPointer is the Git LFS pointer file of data, as git-lfs writes it.
func LFSPointer(data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", hex.EncodeToString(sum[:]), len(data))
}

// PushLFS stores data in owner/repo's LFS store through the LFS batch API
// (as git-lfs would, without it: basic auth with the token as password),
// then commits its pointer as path on the default branch with the
// contents API. The forge must run its LFS server (scripts/test-forge
// does).
func (f *Forge) PushLFS(t testing.TB, owner, repo, path string, data []byte) {
	t.Helper()
	sum := sha256.Sum256(data)
	oid := hex.EncodeToString(sum[:])
	batch := map[string]any{"operation": "upload", "transfers": []string{"basic"},
		"objects": []map[string]any{{"oid": oid, "size": len(data)}}}
	body, _ := json.Marshal(batch)
	var answer struct {
		Objects []struct {
			Actions map[string]struct {
				Href   string            `json:"href"`
				Header map[string]string `json:"header"`
			} `json:"actions"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"objects"`
	}
	raw := f.lfsSend(t, http.MethodPost, f.URL+"/"+owner+"/"+repo+".git/info/lfs/objects/batch", body, map[string]string{
		"Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"})
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Objects) != 1 || answer.Objects[0].Error != nil {
		t.Fatalf("testforge: LFS batch answer: %v %s", err, raw)
	}
	// No upload action: the store has the object already.
	if up, ok := answer.Objects[0].Actions["upload"]; ok {
		if !strings.HasPrefix(up.Href, f.URL+"/") {
			t.Fatalf("testforge: LFS upload href %q is not on the test forge", up.Href)
		}
		headers := map[string]string{"Content-Type": "application/octet-stream"}
		for k, v := range up.Header {
			if !strings.EqualFold(k, "Transfer-Encoding") {
				headers[k] = v
			}
		}
		f.lfsSend(t, http.MethodPut, up.Href, data, headers)
	}
	var created []byte
	status := f.Do(t, http.MethodPost, repoPath(owner, repo)+"/contents/"+path, map[string]any{
		"content": base64.StdEncoding.EncodeToString([]byte(LFSPointer(data))), "message": "Add " + path + " (Git LFS)"}, &created)
	expect(t, "committing LFS pointer", status, http.StatusCreated, created)
}

// lfsSend sends one LFS request with basic auth (user, token) and returns
// the answer's body, failing the test on a non-2xx status.
func (f *Forge) lfsSend(t testing.TB, method, u string, body []byte, headers map[string]string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatalf("testforge: LFS %s: %v", method, err)
	}
	req.SetBasicAuth(f.User, f.Token)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("testforge: LFS %s: %v", method, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		t.Fatalf("testforge: LFS %s %s: status %d: %s", method, u, resp.StatusCode, raw)
	}
	return raw
}
