package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"
)

// --jq EXPR filters a result's JSON value through a jq expression, as
// `gh --jq` does: each value the expression yields goes on its own line,
// a string as its text, anything else as compact JSON. The jq language is
// gojq's (github.com/itchyny/gojq): a complete, maintained implementation
// in Go, without jq's C library; environment and file access are off
// (no $ENV, no input_filename, no modules).

// maxJQOutputs bounds the values one expression may print: `range(1e9)`
// or `repeat(.)` must not run until the memory is gone.
const maxJQOutputs = 100_000

// compileJQ parses and compiles expr, for an error before any forge call.
func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("--jq %q: %v", expr, err)
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, fmt.Errorf("--jq %q: %v", expr, err)
	}
	return code, nil
}

// runJQ runs code on the JSON text of a result and writes what it yields.
func runJQ(ctx context.Context, w io.Writer, code *gojq.Code, text string) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		v = text // a text result: the expression sees a string
	}
	v = normalizeNumbers(v)
	iter := code.RunWithContext(ctx, v)
	for n := 0; ; n++ {
		out, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := out.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %v", err)
		}
		if n >= maxJQOutputs {
			return fmt.Errorf("--jq: more than %d values; narrow the expression", maxJQOutputs)
		}
		if s, isStr := out.(string); isStr {
			fmt.Fprintln(w, s)
			continue
		}
		b, err := gojq.Marshal(out)
		if err != nil {
			return fmt.Errorf("--jq: %v", err)
		}
		fmt.Fprintln(w, string(b))
	}
}

// normalizeNumbers turns json.Number into the int or float64 gojq works
// with, keeping integers exact.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = normalizeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeNumbers(x[k])
		}
	}
	return v
}
