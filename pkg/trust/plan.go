package trust

import (
	"reflect"
	"strings"
)

// Result types say which of their fields are user-written text, who wrote
// it and which repository it belongs to, with a struct tag next to the
// json one; the same declaration serves every tool that answers with the
// type:
//
//	trust:"text"          text a person wrote (a title, a body, a commit
//	                      message, an attachment's name), attributed to
//	                      the author of the object it is in, or of the
//	                      nearest object around it that has one, else to
//	                      the call's context author (ContextAuthor)
//	trust:"text,context"  text attributed to the call's context author even
//	                      where the object has an author of its own (the
//	                      diff hunk of a review comment is the pull
//	                      request author's code, not the reviewer's)
//	trust:"author"        the login of the object's author: a string, or an
//	                      object whose "login" member is it (a commit's
//	                      author); an empty one is an author the forge has
//	                      no account for
//	trust:"repo"          the repository ("owner/repo") the object belongs
//	                      to, where a result spans several: it sets the
//	                      repository of the texts inside, and an object
//	                      outside the scope is dropped from its list
//
// The pass (Pass) reads them from the tool's declared output type, so a
// converter does nothing about trust, and a test drives every tool to show
// that no text escapes.

// Plan is where, in one result's JSON, the tagged fields are.
type Plan struct {
	Texts   map[string]bool // member → attributed to the context author
	Author  string          // member holding the author, "" none
	Repo    string          // member holding "owner/repo", "" none
	Members map[string]*Plan
}

// empty reports whether p finds nothing anywhere.
func (p *Plan) empty() bool {
	return p == nil || len(p.Texts) == 0 && p.Author == "" && p.Repo == "" && len(p.Members) == 0
}

// HasText reports whether results of p can hold user-written text.
func (p *Plan) HasText() bool {
	if p == nil {
		return false
	}
	if len(p.Texts) > 0 {
		return true
	}
	for _, m := range p.Members {
		if m.HasText() {
			return true
		}
	}
	return false
}

// HasRepo reports whether results of p name the repositories of their
// parts (so a scope can filter them).
func (p *Plan) HasRepo() bool {
	if p == nil {
		return false
	}
	if p.Repo != "" {
		return true
	}
	for _, m := range p.Members {
		if m.HasRepo() {
			return true
		}
	}
	return false
}

// HasAuthor reports whether results of p name authors (whom marks follow).
func (p *Plan) HasAuthor() bool {
	if p == nil {
		return false
	}
	if p.Author != "" {
		return true
	}
	for _, m := range p.Members {
		if m.HasAuthor() {
			return true
		}
	}
	return false
}

// PlanOf builds the plan of the JSON encodings of the given values' types
// (the alternatives of a result that has several shapes are merged). Maps
// and values without tagged fields give an empty plan.
func PlanOf(outputs ...any) *Plan {
	p := &Plan{}
	for _, o := range outputs {
		if o == nil {
			continue
		}
		merge(p, planOf(reflect.TypeOf(o), map[reflect.Type]bool{}))
	}
	return p
}

func planOf(t reflect.Type, seen map[reflect.Type]bool) *Plan {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	defer delete(seen, t)
	p := &Plan{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			// encoding/json promotes the exported fields of an
			// embedded struct even when its type is unexported.
			continue
		}
		name, skip := jsonName(f)
		if skip {
			continue
		}
		if f.Anonymous && name == "" {
			merge(p, planOf(f.Type, seen))
			continue
		}
		if name == "" {
			name = f.Name
		}
		role, opt, _ := strings.Cut(f.Tag.Get("trust"), ",")
		switch role {
		case "text":
			if p.Texts == nil {
				p.Texts = map[string]bool{}
			}
			p.Texts[name] = opt == "context"
			continue
		case "author":
			p.Author = name
			continue
		case "repo":
			p.Repo = name
			continue
		}
		if sub := planOf(f.Type, seen); !sub.empty() {
			if p.Members == nil {
				p.Members = map[string]*Plan{}
			}
			p.Members[name] = sub
		}
	}
	return p
}

// jsonName is the member name encoding/json gives f ("" for an untagged
// embedded struct, whose fields it promotes) and whether it skips f.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	name, _, _ := strings.Cut(tag, ",")
	return name, false
}

// merge adds what q finds to p.
func merge(p, q *Plan) {
	if q == nil {
		return
	}
	for k, v := range q.Texts {
		if p.Texts == nil {
			p.Texts = map[string]bool{}
		}
		p.Texts[k] = v
	}
	if q.Author != "" {
		p.Author = q.Author
	}
	if q.Repo != "" {
		p.Repo = q.Repo
	}
	for k, v := range q.Members {
		if p.Members == nil {
			p.Members = map[string]*Plan{}
		}
		if p.Members[k] == nil {
			p.Members[k] = &Plan{}
		}
		merge(p.Members[k], v)
	}
}
