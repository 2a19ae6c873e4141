package repoadmin_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// publicKeyLine is a fresh ed25519 public key in OpenSSH's one-line form
// (RFC 8709: the key type and the key, each length-prefixed).
func publicKeyLine(t *testing.T, comment string) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	var blob []byte
	for _, part := range [][]byte{[]byte("ssh-ed25519"), pub} {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(part)))
		blob = append(blob, part...)
	}
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment
}

const privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"

func TestDeployKeys(t *testing.T) {
	f := fakeforge.New(t)
	key := map[string]any{"id": 7, "key_id": 7, "key": "ssh-ed25519 AAAA", "title": "ci", "fingerprint": "SHA256:abc",
		"read_only": true, "created_at": "2026-01-02T03:04:05Z"}
	const keyJSON = `{"id":7,"title":"ci","fingerprint":"SHA256:abc","read_only":true,"created_at":"2026-01-02T03:04:05Z"}`
	f.JSON("GET /api/v1/repos/o/r/keys", 200, []any{key})
	f.JSON("GET /api/v1/repos/o/r/keys/7", 200, key)
	f.JSON("POST /api/v1/repos/o/r/keys", 201, key)
	f.JSON("DELETE /api/v1/repos/o/r/keys/7", 204, nil)

	isErr, text := call(t, f, "list_deploy_keys", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+keyJSON+`],"page":1,"has_more":false}`, text)
	isErr, text = call(t, f, "get_deploy_key", map[string]any{"id": 7})
	require.False(t, isErr, text)
	assert.JSONEq(t, keyJSON, text)

	line := publicKeyLine(t, "ci@example")
	isErr, text = call(t, f, "create_deploy_key", map[string]any{"title": "ci", "key": line + "\n"})
	require.False(t, isErr, text)
	assert.JSONEq(t, keyJSON, text)
	assert.Equal(t, map[string]any{"title": "ci", "key": line, "read_only": true}, lastBody(t, f), "read-only unless told")
	isErr, text = call(t, f, "create_deploy_key", map[string]any{"title": "ci", "key": line, "writable": true})
	require.False(t, isErr, text)
	assert.Equal(t, false, lastBody(t, f)["read_only"], "writable: the key may push")

	sent := len(f.Requests())
	isErr, text = call(t, f, "create_deploy_key", map[string]any{"title": "oops", "key": privateKey})
	assert.True(t, isErr)
	assert.Contains(t, text, "key is not an OpenSSH public key line")
	assert.NotContains(t, text, "b3BlbnNzaC1rZXkt", "a private key is never echoed")
	assert.Len(t, f.Requests(), sent, "nor sent")

	isErr, text = call(t, f, "delete_deploy_key", map[string]any{"id": 7})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":7}`, text)
}
