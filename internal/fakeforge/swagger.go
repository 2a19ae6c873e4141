package fakeforge

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type swaggerDoc struct {
	Info struct {
		Title   string `json:"title"`
		Version string `json:"version"`
	} `json:"info"`
	Paths       map[string]map[string]json.RawMessage `json:"paths"`
	Responses   map[string]swaggerResponse            `json:"responses"`
	Definitions map[string]*swaggerSchema             `json:"definitions"`
}

type swaggerOp struct {
	Tags      []string                   `json:"tags"`
	Responses map[string]swaggerResponse `json:"responses"`
}

type swaggerResponse struct {
	Ref    string         `json:"$ref"`
	Schema *swaggerSchema `json:"schema"`
}

type swaggerSchema struct {
	Ref                  string                    `json:"$ref"`
	Type                 string                    `json:"type"`
	Format               string                    `json:"format"`
	Items                *swaggerSchema            `json:"items"`
	Properties           map[string]*swaggerSchema `json:"properties"`
	AdditionalProperties json.RawMessage           `json:"additionalProperties"`
	AllOf                []*swaggerSchema          `json:"allOf"`
}

// TrimSwagger reads a Swagger 2 document (Forgejo's or Gitea's
// swagger.v1.json) into a Spec, amended where the forges are known to
// answer otherwise than described (amend.go). version, when not empty, replaces the
// document's own (Forgejo's is a template placeholder).
func TrimSwagger(raw []byte, version string) (*Spec, error) {
	var doc swaggerDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("not a swagger document: %w", err)
	}
	flavour := strings.Fields(doc.Info.Title + " x")[0] // "Forgejo API" → Forgejo
	if version == "" {
		version = doc.Info.Version
	}
	s := &Spec{Flavour: flavour, Version: version, Routes: map[string]*Route{}, Definitions: map[string]*Schema{}}
	for name, d := range doc.Definitions {
		s.Definitions[name] = trimSchema(d)
	}
	for path, ops := range doc.Paths {
		for method, rawOp := range ops {
			if method == "parameters" {
				continue
			}
			var op swaggerOp
			if err := json.Unmarshal(rawOp, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, path, err)
			}
			s.Routes[Key(strings.ToUpper(method), path)] = trimRoute(&doc, op)
		}
	}
	amend(s)
	return s, nil
}

func trimRoute(doc *swaggerDoc, op swaggerOp) *Route {
	codes := make([]string, 0, len(op.Responses))
	for code := range op.Responses {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	r := &Route{Tags: op.Tags}
	for _, code := range codes {
		n, err := strconv.Atoi(code)
		if err != nil || n/100 != 2 && n/100 != 3 {
			continue
		}
		resp := op.Responses[code]
		if resp.Ref != "" {
			resp = doc.Responses[strings.TrimPrefix(resp.Ref, "#/responses/")]
		}
		r.Status = n
		if resp.Schema != nil {
			r.Schema = trimSchema(resp.Schema)
		}
		break
	}
	return r
}

func trimSchema(sc *swaggerSchema) *Schema {
	if sc == nil {
		return nil
	}
	out := &Schema{Ref: strings.TrimPrefix(sc.Ref, "#/definitions/"), Type: sc.Type, Format: sc.Format, Items: trimSchema(sc.Items)}
	props := map[string]*swaggerSchema{}
	for _, part := range sc.AllOf {
		if part.Ref != "" && out.Ref == "" && len(sc.AllOf) == 1 {
			out.Ref = strings.TrimPrefix(part.Ref, "#/definitions/")
		}
		for k, v := range part.Properties {
			props[k] = v
		}
	}
	for k, v := range sc.Properties {
		props[k] = v
	}
	if len(props) > 0 {
		out.Properties = map[string]*Schema{}
		for k, v := range props {
			out.Properties[k] = trimSchema(v)
		}
	}
	if len(sc.AdditionalProperties) > 0 && sc.AdditionalProperties[0] == '{' {
		var ap swaggerSchema
		if json.Unmarshal(sc.AdditionalProperties, &ap) == nil {
			out.AdditionalProperties = trimSchema(&ap)
		}
	}
	return out
}
