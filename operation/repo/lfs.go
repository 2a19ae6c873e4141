package repo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// MaxLFSBytes bounds the Git LFS object get_file_content reads in place of
// its pointer: the forges' own bound on a file the contents API serves
// (Gitea's and Forgejo's [api] DEFAULT_MAX_BLOB_SIZE).
const MaxLFSBytes = 10 << 20

// maxPointerBytes is the most a Git LFS pointer file holds (git-lfs reads
// no further when it looks for one).
const maxPointerBytes = 1024

// lfsPointer is the one form of a Git LFS pointer file read here: the
// spec's version, oid and size lines, each ending in a line feed, and
// nothing else (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md).
var lfsPointer = regexp.MustCompile(`\Aversion https://git-lfs\.github\.com/spec/v1\noid sha256:([0-9a-f]{64})\nsize (0|[1-9][0-9]{0,17})\n\z`)

// LFSPointer is a Git LFS pointer: the object's SHA-256 and size.
type LFSPointer struct {
	OID  string
	Size int64
}

// ParseLFSPointer reads data as a Git LFS pointer file, strictly: a file
// that only looks like one (another version, extension lines, a capital
// hex digit, a missing line end, more lines) is not one, and stays the
// text it is.
func ParseLFSPointer(data []byte) (LFSPointer, bool) {
	if len(data) > maxPointerBytes {
		return LFSPointer{}, false
	}
	m := lfsPointer.FindSubmatch(data)
	if m == nil {
		return LFSPointer{}, false
	}
	size, err := strconv.ParseInt(string(m[2]), 10, 64)
	if err != nil {
		return LFSPointer{}, false
	}
	return LFSPointer{OID: string(m[1]), Size: size}, true
}

// Matches reports whether data is the object p points to.
func (p LFSPointer) Matches(data []byte) bool {
	sum := sha256.Sum256(data)
	return int64(len(data)) == p.Size && hex.EncodeToString(sum[:]) == p.OID
}

// FileRoute is the route of a's path under the repository's kind of file
// route ("raw", "media"), checked and escaped by forgejo.FilePath so no
// path climbs out of it.
func FileRoute(a tool.Args, kind string) (string, error) {
	p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), kind}, a.String("path"))
	if err != nil {
		return "", fmt.Errorf("invalid arguments: argument \"path\": %w", err)
	}
	return p, nil
}

// ReadFile reads a's path at a's ref from the repository's kind of file
// route ("raw": the blob as committed; "media": a Git LFS object in place
// of its pointer), at most opt.MaxBytes of it. A failure names the file,
// and the repository or ref when it is they that are missing.
func ReadFile(ctx context.Context, c *forgejo.Client, a tool.Args, kind string, opt forgejo.RawOptions) (*forgejo.RawResponse, error) {
	p, err := FileRoute(a, kind)
	if err != nil {
		return nil, err
	}
	raw, err := c.DoRawAPI(ctx, p, refQuery(a), opt)
	if err != nil && !errors.Is(err, forgejo.ErrResponseTooLarge) {
		ref := a.String("ref")
		return nil, whichMissing(ctx, c, a, forgejo.Relabel(err, "read", "file "+fileRef(a, ref)), fmt.Sprintf("branch, tag or commit %q", ref), ref, "")
	}
	return raw, err
}

// lfsFile shows the Git LFS object p, whose pointer get_file_content read
// as the file, as get_file_content shows any file, its note starting
// "Git LFS object"; the pointer itself, with a note, when the forge does
// not serve the object or it is over MaxLFSBytes. (A note, not a field:
// the default selection's tools/list does not grow.)
func lfsFile(ctx context.Context, c *forgejo.Client, a tool.Args, out File, pointer []byte, p LFSPointer) (*mcp.CallToolResult, error) {
	if p.Size > MaxLFSBytes {
		out.Note = fmt.Sprintf("Git LFS object of %d bytes (sha256 %s), over the %s get_file_content reads: the text is its pointer; "+
			"clone the repository with git lfs to read the object", p.Size, p.OID, bytesize.Text(MaxLFSBytes))
		return window(out, string(pointer), a)
	}
	raw, err := ReadFile(ctx, c, a, "media", forgejo.RawOptions{MaxBytes: MaxLFSBytes})
	if err != nil && !errors.Is(err, forgejo.ErrResponseTooLarge) {
		return nil, err
	}
	if err != nil || !p.Matches(raw.Body) {
		out.Note = fmt.Sprintf("Git LFS pointer whose object (%d bytes, sha256 %s) the forge does not serve (LFS off, or the object "+
			"was never pushed): the text is the pointer", p.Size, p.OID)
		return show(ctx, out, pointer, a)
	}
	out.Size = p.Size
	out.Note = fmt.Sprintf("Git LFS object (sha256 %s), read in place of its pointer", p.OID)
	return show(ctx, out, raw.Body, a)
}
