package pdfobj

// Typed access to resolved objects: each returns the zero value when the
// object is missing or of another type, so callers walk a file without an
// error check at every step (a missing font is no font).

func dictOf(o Object) Dict {
	switch v := o.(type) {
	case Dict:
		return v
	case *Stream:
		return v.Dict
	}
	return nil
}

// Dict resolves o to a dictionary (a stream's dictionary included).
func (d *Doc) Dict(o Object) Dict { return dictOf(d.Resolve(o)) }

// Get resolves the value of key in dict.
func (d *Doc) Get(dict Dict, key Name) Object { return d.Resolve(dict[key]) }

// GetDict resolves key in dict to a dictionary.
func (d *Doc) GetDict(dict Dict, key Name) Dict { return d.Dict(dict[key]) }

// GetArray resolves key in dict to an array.
func (d *Doc) GetArray(dict Dict, key Name) Array {
	a, _ := d.Resolve(dict[key]).(Array)
	return a
}

// GetName resolves key in dict to a name.
func (d *Doc) GetName(dict Dict, key Name) Name {
	n, _ := d.Resolve(dict[key]).(Name)
	return n
}

// GetStream resolves key in dict to a stream.
func (d *Doc) GetStream(dict Dict, key Name) *Stream {
	s, _ := d.Resolve(dict[key]).(*Stream)
	return s
}

// Num is o resolved as a number.
func (d *Doc) Num(o Object) (float64, bool) {
	switch v := d.Resolve(o).(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// Int is o resolved as an integer (a real is truncated).
func (d *Doc) Int(o Object) (int64, bool) {
	switch v := d.Resolve(o).(type) {
	case int64:
		return v, true
	case float64:
		return int64(v), true
	}
	return 0, false
}

// Root is the document catalog.
func (d *Doc) Root() Dict { return d.Dict(d.Trailer["Root"]) }

// At is the i'th element, nil past the end.
func (a Array) At(i int) Object {
	if i < 0 || i >= len(a) {
		return nil
	}
	return a[i]
}
