package trust

import (
	"bytes"
	"encoding/json"
)

// The pass edits a result's JSON where its plan points and nowhere else:
// a node is opened (parsed into its members or elements) only on the
// plan's paths; every other value keeps its bytes exactly, member order
// included.

type node struct {
	raw json.RawMessage // the value's bytes, while it is not opened
	obj *object
	arr []*node
	// opened says obj or arr holds the value (an empty array has no
	// elements but is opened all the same).
	opened bool
}

type object struct {
	keys []string
	vals []*node
}

func (o *object) get(key string) (*node, int) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], i
		}
	}
	return nil, -1
}

// insertAfter puts key: value right after member i (at the end when i < 0),
// or replaces the value when key is already there.
func (o *object) insertAfter(i int, key string, value *node) {
	if _, j := o.get(key); j >= 0 {
		o.vals[j] = value
		return
	}
	if i < 0 || i >= len(o.keys) {
		o.keys, o.vals = append(o.keys, key), append(o.vals, value)
		return
	}
	o.keys = append(o.keys[:i+1], append([]string{key}, o.keys[i+1:]...)...)
	o.vals = append(o.vals[:i+1], append([]*node{value}, o.vals[i+1:]...)...)
}

// remove drops the member key.
func (o *object) remove(key string) {
	if _, i := o.get(key); i >= 0 {
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.vals = append(o.vals[:i], o.vals[i+1:]...)
	}
}

// openObject parses n as an object, nil when it is not one.
func (n *node) openObject() *object {
	if n.opened {
		return n.obj
	}
	b := bytes.TrimSpace(n.raw)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	o := &object{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if prev, _ := o.get(k); prev != nil {
			// A member named twice: a decoder keeps the last value, so
			// that is the one the pass must see, and the only one it
			// writes.
			*prev = node{raw: v}
			continue
		}
		o.keys, o.vals = append(o.keys, k), append(o.vals, &node{raw: v})
	}
	n.obj, n.opened = o, true
	return o
}

// openArray parses n as an array; false when it is not one.
func (n *node) openArray() ([]*node, bool) {
	if n.opened {
		return n.arr, n.obj == nil
	}
	b := bytes.TrimSpace(n.raw)
	if len(b) == 0 || b[0] != '[' {
		return nil, false
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return nil, false
	}
	n.arr = make([]*node, len(raws))
	for i, r := range raws {
		n.arr[i] = &node{raw: r}
	}
	n.opened = true
	return n.arr, true
}

// empty reports whether n is absent, null or the empty string: no text.
func (n *node) empty() bool {
	if n == nil {
		return true
	}
	if n.opened {
		return false
	}
	b := bytes.TrimSpace(n.raw)
	return string(b) == "null" || string(b) == `""`
}

// str returns n's value when it is a JSON string.
func (n *node) str() (string, bool) {
	if n == nil || n.opened {
		return "", false
	}
	var s string
	if len(n.raw) == 0 || n.raw[0] != '"' || json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// stringNode is a node holding s.
func stringNode(s string) *node {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return &node{raw: bytes.TrimRight(b.Bytes(), "\n")}
}

// encode writes n's JSON: its bytes, or its opened members and elements.
func (n *node) encode(b *bytes.Buffer) {
	switch {
	case !n.opened:
		b.Write(n.raw)
	case n.obj != nil:
		b.WriteByte('{')
		for i, k := range n.obj.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			stringNode(k).encode(b)
			b.WriteByte(':')
			n.obj.vals[i].encode(b)
		}
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		for i, e := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			e.encode(b)
		}
		b.WriteByte(']')
	}
}
