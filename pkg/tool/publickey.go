package tool

import (
	"regexp"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// publicKeyPattern is an OpenSSH public key line: a key type, then its
// base64, then an optional comment. Compiled on first use, not at start-up:
// only the key tools need it.
var publicKeyPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+=*( [^\r\n]*)?$`)
})

// CheckPublicKey returns the error result for a key that is not an
// OpenSSH public key line, nil for one that is. A private key pasted by
// mistake never matches, so it is not sent.
func CheckPublicKey(key string) *mcp.CallToolResult {
	if publicKeyPattern().MatchString(strings.TrimSpace(key)) {
		return nil
	}
	return Error("key is not an OpenSSH public key line (type, base64, optional comment, as in a .pub file); nothing was sent")
}
