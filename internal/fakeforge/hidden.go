package fakeforge

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// Text the fake forge writes for MimicHidden: its markdown fields hold
// HiddenMarkdown, every other free-text field PlainText. Each carries a
// marker word where a forge's web view would not show it (HiddenWords)
// or where it would (ShownWord).
const (
	HiddenMarkdown = "Shown mdshown <!-- mdcomment --> [a](http://x.example \"mdtitle\") ![mdalt](http://x.example/i.png)\n\n" +
		"<details><summary>s</summary>\n\nmdcollapsed\n</details>\n"
	PlainText = "plainshown <!-- plaincomment -->"
	ShownWord = "mdshown"
)

// HiddenWords are the marker words of HiddenMarkdown the web view does not
// show (the last one collapsed).
var HiddenWords = []string{"mdcomment", "mdtitle", "mdalt", "mdcollapsed"}

// renderedFields are the members of the forges' API objects whose text
// the web view renders as markdown (Gitea 1.26's templates and routers):
// definition → members. The other free text (titles, names, commit and
// tag messages, labels, a repository's description) is shown as it is.
var renderedFields = map[string][]string{
	"Issue":             {"body"},
	"PullRequest":       {"body"},
	"Comment":           {"body"},
	"TimelineComment":   {"body"},
	"PullReview":        {"body"},
	"PullReviewComment": {"body"},
	"Release":           {"body"},
	"Milestone":         {"description"},
	"Organization":      {"description"},
	"User":              {"description"},
	"WikiPage":          {"content_base64"},
	"IssueTemplate":     {"content"},
	"ContentsResponse":  {"content"},
}

// plainFields are the free-text members MimicHidden fills with PlainText
// (names and references stay as Mimic makes them: tools use them in
// later requests).
var plainFields = []string{"title", "message", "description", "note", "summary", "body", "content"}

// MimicHidden makes every route of spec answer as Mimic does, with the
// text of HiddenMarkdown in every member the web view renders as markdown
// and PlainText in every other free-text member, so a test can tell
// whether each reaches a tool's result marked or as it is. A file's path
// is README.md, so its content is markdown too.
func (s *Server) MimicHidden(spec *Spec) {
	s.mimic(spec, answers{
		file: mimicFile,
		text: mimicText,
		json: func(_ *http.Request, sc *Schema) any { return spec.hide(spec.Example(sc), sc, "") },
	})
}

// hide rewrites v, an Example of sc inside definition def.
func (s *Spec) hide(v any, sc *Schema, def string) any {
	if sc == nil {
		return v
	}
	if sc.Ref != "" {
		def = sc.Ref
		sc = s.Resolve(sc)
		if sc == nil {
			return v
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := sc.Properties[k]
			if p == nil {
				p = sc.AdditionalProperties
			}
			if str, ok := e.(string); ok {
				x[k] = hideString(def, k, str)
				continue
			}
			x[k] = s.hide(e, p, def)
		}
	case []any:
		for i, e := range x {
			x[i] = s.hide(e, sc.Items, def)
		}
	}
	return v
}

func hideString(def, member, v string) string {
	for _, m := range renderedFields[def] {
		if m == member {
			if strings.HasSuffix(member, "content_base64") || def == "ContentsResponse" {
				return base64.StdEncoding.EncodeToString([]byte(HiddenMarkdown))
			}
			return HiddenMarkdown
		}
	}
	switch {
	case def == "ContentsResponse" && (member == "path" || member == "name"):
		return "README.md"
	case def == "ContentsResponse" && member == "type":
		return "file"
	case member == "date" && v == "date-v":
		// A commit's date, a string in the descriptions: a tool that reads
		// it as a time (a wiki page's last commit) needs one.
		return ExampleTime
	}
	for _, m := range plainFields {
		if m == member && !strings.HasPrefix(v, "http") {
			return PlainText
		}
	}
	return v
}
