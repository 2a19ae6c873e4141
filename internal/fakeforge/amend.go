package fakeforge

// What the real forges send that their API descriptions state otherwise,
// found by comparing the shaped fake's answers with the recorded answers
// of Forgejo 13.0.5 and Gitea 1.26.0 (recorded_shapes_test.go). Each
// description is generated from the forge's Go types by go-swagger, so the
// same gaps recur in every version: a member added outside the described
// struct, a status the handler writes that its annotation misstates, and
// nullability, which Swagger 2 cannot express.
//
// TrimSwagger applies them, so the specs/ files, Mimic and MimicLarge all
// answer as the forges do.

// undescribedMembers are members the forges send that their descriptions
// lack: definition → member → schema.
var undescribedMembers = map[string]map[string]Schema{
	// Both forges send a user's login twice, as "login" and "username"
	// (recorded in every user object, seq 3 onwards); no description of
	// either has "username".
	"User": {"username": {Type: "string"}},
}

// realStatuses are success statuses the forges answer with that the
// descriptions misstate: route → status.
var realStatuses = map[string]int{
	// Both answer 201 Created to removing a dependency (seq 79), described
	// as 200 by both.
	"DELETE /repos/{owner}/{repo}/issues/{index}/dependencies": 201,
	// Gitea answers 201 to creating a tag (seq 19), described as 200 by
	// Gitea (Forgejo's description says 201).
	"POST /repos/{owner}/{repo}/tags": 201,
	// Adding a reaction is described with 200 (it was there already) and
	// 201 (added); the generator takes the lowest described success, and a
	// new reaction is 201 (Gitea, gitea-1.26.0-sweep2 seq 1034 and 1036).
	"POST /repos/{owner}/{repo}/issues/{index}/reactions":       201,
	"POST /repos/{owner}/{repo}/issues/comments/{id}/reactions": 201,
	// Applying a diff answers 201 (Gitea, gitea-1.26.0-sweep3 seq 2138),
	// described as 200 by both; Forgejo's handler is the same code.
	"POST /repos/{owner}/{repo}/diffpatch": 201,
}

// nullableMembers are text members the forges send as null when unset (a
// Go *string or *time.Time; objects, maps and arrays may be null anyway,
// Spec.MayBeNull): definition → members, as recorded.
var nullableMembers = map[string][]string{
	"Issue":            {"closed_at", "due_date"},
	"PullRequest":      {"closed_at", "due_date", "merged_at", "merge_commit_sha"},
	"PullRequestMeta":  {"merged_at"},
	"Milestone":        {"closed_at"},
	"ContentsResponse": {"content", "encoding", "submodule_git_url", "target"},
}

// amend applies the tables to s where s has the definition or route.
func amend(s *Spec) {
	for def, members := range undescribedMembers {
		d := s.Definitions[def]
		if d == nil {
			continue
		}
		for name, sc := range members {
			if _, ok := d.Properties[name]; !ok {
				if d.Properties == nil {
					d.Properties = map[string]*Schema{}
				}
				d.Properties[name] = &sc
			}
		}
	}
	for key, status := range realStatuses {
		if r := s.Routes[key]; r != nil {
			r.Status = status
		}
	}
	for def, members := range nullableMembers {
		d := s.Definitions[def]
		if d == nil {
			continue
		}
		for _, name := range members {
			if p := d.Properties[name]; p != nil {
				p.Nullable = true
			}
		}
	}
}
