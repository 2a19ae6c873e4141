package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
)

// What decoding a forge's JSON answer costs is charged as its bytes
// arrive, before anything is decoded. The bytes alone do not bound it:
// forgejo-sdk reads an answer whole and decodes it into Go values, and
// `{},` (3 bytes) becomes a whole struct (a Repository is 440 bytes), so
// 32 MiB of `[{},{},…]` from a forge, or from a proxy in front of one,
// cost 4.9 GB to decode into []*Repository. The response limit is
// therefore a limit on this cost for every answer decoded whole (SDK
// calls, DoJSON): its bytes, and for its shape the weights below, at most
// maxJSONDepth deep. Answers read as they arrive (DoRaw, DoTail, DoLines,
// DoStream), which keep what they need and no more, are bounded by their
// bytes.
//
// The weights are what the value may cost decoded, and for an item of a
// list what the tool then makes of it: an item went on to cost about
// 2.4 KB resident in list_my_repos (its struct, its compact form, its
// JSON and the cut that fits the result to the client), where a member
// of an object is a field of a struct already counted.
const (
	// memberCost is charged for each member of an object after the
	// first: a field of a struct, or a map entry.
	memberCost = 16
	// elementCost is charged for each element of an array after the
	// first: a slice slot, an interface's box.
	elementCost = 64
	// containerCost is charged for each object or array: the struct or
	// map it may be decoded into (the SDK's largest, Repository, is 440
	// bytes), and its first member or element.
	containerCost = 512
	// itemCost replaces containerCost for an object or array that is an
	// element of an array: an item of a list.
	itemCost = 1024
	// maxJSONDepth bounds nesting: real forge answers nest 6 deep (the
	// recorded answers of Forgejo 13 and Gitea 1.26). It is the width of
	// decodeCost.arrays.
	maxJSONDepth = 64
)

// DecodeCostError is a JSON answer refused while it was read, because
// decoding it whole would cost more than the limit, or it nests deeper
// than maxJSONDepth. It is an ErrResponseTooLarge.
type DecodeCostError struct {
	Limit              int64 // the budget, in bytes
	Bytes              int64 // read when it was refused
	Values, Containers int64 // counted in those bytes
	TooDeep            bool
}

func (e *DecodeCostError) Error() string {
	if e.TooDeep {
		return fmt.Sprintf("the forge's reply nests JSON deeper than %d levels (real answers nest a few), so it was not decoded", maxJSONDepth)
	}
	return fmt.Sprintf("the forge's reply is larger than the response limit; narrow the request (page, limit, path): "+
		"its first %s hold %d JSON values, %d of them objects or arrays, which decoded would cost more than %s",
		bytesize.Text(e.Bytes), e.Values, e.Containers, bytesize.Text(e.Limit))
}

// Is makes a DecodeCostError an ErrResponseTooLarge.
func (e *DecodeCostError) Is(target error) bool { return target == ErrResponseTooLarge }

// decodeCost meters a JSON text fed to it in pieces (an answer as it
// arrives) against a budget. It never decodes and never fails on
// malformed JSON (the decoder says what is wrong with it); it only
// counts, so a body that is not JSON (an HTML error page) costs about
// its bytes.
type decodeCost struct {
	left, limit        int64
	read               int64
	values, containers int64
	depth              int
	arrays             uint64 // bit d-1: the container at depth d is an array
	inString, escaped  bool
}

func newDecodeCost(limit int64) *decodeCost { return &decodeCost{left: limit, limit: limit} }

// feed charges p, the next bytes of the text; past the budget or the
// depth it returns a *DecodeCostError, and keeps returning it.
func (d *decodeCost) feed(p []byte) error {
	cost := int64(len(p))
	d.read += int64(len(p))
	for i := 0; i < len(p); i++ {
		if d.inString {
			if d.escaped {
				d.escaped = false
				continue
			}
			// Most bytes are inside strings: skip to the next quote or
			// backslash at once.
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				break
			}
			i += j
			if p[i] == '\\' {
				d.escaped = true
			} else {
				d.inString = false
			}
			continue
		}
		switch c := p[i]; c {
		case '"':
			d.inString = true
		case ',':
			if d.depth == 0 {
				// Outside any object or array no decoder makes a value
				// of it: text that is not JSON (a raw file through the
				// api command) costs its bytes.
				continue
			}
			d.values++
			if d.inArray() {
				cost += elementCost
			} else {
				cost += memberCost
			}
		case '{', '[':
			d.values++
			d.containers++
			if d.inArray() {
				cost += itemCost
			} else {
				cost += containerCost
			}
			if d.depth++; d.depth > maxJSONDepth {
				d.left = -1
				return d.err(true)
			}
			bit := uint64(1) << (d.depth - 1)
			if c == '[' {
				d.arrays |= bit
			} else {
				d.arrays &^= bit
			}
		case '}', ']':
			d.depth = max(d.depth-1, 0)
		}
	}
	if d.left -= cost; d.left < 0 {
		return d.err(false)
	}
	return nil
}

// inArray says whether the innermost open container is an array.
func (d *decodeCost) inArray() bool {
	return d.depth > 0 && d.arrays&(1<<(d.depth-1)) != 0
}

func (d *decodeCost) err(deep bool) error {
	return &DecodeCostError{Limit: d.limit, Bytes: d.read, Values: d.values, Containers: d.containers, TooDeep: deep}
}

// DecodeCost is what decoding data whole costs, as the response limit
// counts it; math.MaxInt64 when it nests past maxJSONDepth.
func DecodeCost(data []byte) int64 {
	d := newDecodeCost(math.MaxInt64)
	if d.feed(data) != nil {
		return math.MaxInt64
	}
	return d.limit - d.left
}

// DecodeJSON decodes data, JSON that came from the forge inside another
// answer (a comment's body, a raw member), into v, first charging what
// decoding it costs against limit bytes as the transport charges a whole
// answer: a short text must not decode into a large value.
func DecodeJSON(data []byte, v any, limit int64) error {
	if err := newDecodeCost(limit).feed(data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// streamedKey marks a request whose answer is read as it arrives rather
// than decoded whole: it is bounded by its bytes, not by decodeCost.
type streamedKey struct{}

// streamed marks ctx's requests as read as they arrive (DoRaw, DoTail,
// DoLines, DoStream).
func streamed(ctx context.Context) context.Context {
	return context.WithValue(ctx, streamedKey{}, true)
}

// decodedWhole says whether the answer to a request with ctx is decoded
// whole, and so charged by decodeCost.
func decodedWhole(ctx context.Context) bool {
	s, _ := ctx.Value(streamedKey{}).(bool)
	return !s
}
