package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
)

// repoAdminCalls are the calls of issue 29's repository administration
// tools: on the sweep's repository, and on the organisation's for teams.
// Ids the forge gives (a deploy key, a tag protection, a push mirror's
// remote) are read from the previous call's result when the call runs.
func (f *forge) repoAdminCalls(with func(map[string]any) map[string]any, repo map[string]any, last *json.RawMessage) []sweepCall {
	var keyID, ruleID int64
	var remote string
	onOrg := func(extra map[string]any) map[string]any {
		extra["owner"], extra["repo"] = f.org, f.orgRepo
		return extra
	}
	// from reads member of the previous call's result into dst, then
	// gives args.
	from := func(member string, dst any, args func() map[string]any) func() map[string]any {
		return func() map[string]any {
			var out map[string]json.RawMessage
			if json.Unmarshal(*last, &out) == nil {
				_ = json.Unmarshal(out[member], dst)
			}
			return args()
		}
	}
	generated := f.repo + "-gen"
	return []sweepCall{
		{"edit_repo", func() map[string]any {
			return with(map[string]any{"description": "swept", "website": "https://example.org", "merge_styles": []any{"merge", "squash"},
				"disable_units": []any{"projects"}, "template": true})
		}},
		{"set_repo_topics", func() map[string]any { return with(map[string]any{"topics": []any{"sweep", "mcp"}}) }},
		{"add_repo_topic", func() map[string]any { return with(map[string]any{"topic": "forge"}) }},
		{"list_repo_topics", func() map[string]any { return repo }},
		{"remove_repo_topic", func() map[string]any { return with(map[string]any{"topic": "forge"}) }},
		{"add_collaborator", func() map[string]any { return with(map[string]any{"user": f.user2, "permission": "read"}) }},
		{"check_collaborator", func() map[string]any { return with(map[string]any{"user": f.user2}) }},
		{"get_collaborator_permission", func() map[string]any { return with(map[string]any{"user": f.user2}) }},
		{"remove_collaborator", func() map[string]any { return with(map[string]any{"user": f.user2}) }},
		{"check_collaborator", func() map[string]any { return with(map[string]any{"user": f.user2}) }},
		{"add_repo_team", func() map[string]any { return onOrg(map[string]any{"team": "Owners"}) }},
		{"check_repo_team", func() map[string]any { return onOrg(map[string]any{"team": "Owners"}) }},
		{"list_repo_teams", func() map[string]any { return onOrg(map[string]any{}) }},
		{"remove_repo_team", func() map[string]any { return onOrg(map[string]any{"team": "no-such-team"}) }},
		{"create_deploy_key", func() map[string]any { return with(map[string]any{"title": "sweep", "key": sweepKey()}) }},
		{"get_deploy_key", from("id", &keyID, func() map[string]any { return with(map[string]any{"id": keyID}) })},
		{"list_deploy_keys", func() map[string]any { return repo }},
		{"list_deploy_keys", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"delete_deploy_key", func() map[string]any { return with(map[string]any{"id": keyID}) }},
		{"create_tag_protection", func() map[string]any { return with(map[string]any{"name_pattern": "v*", "users": []any{f.admin}}) }},
		{"get_tag_protection", from("id", &ruleID, func() map[string]any { return with(map[string]any{"id": ruleID}) })},
		{"edit_tag_protection", func() map[string]any { return with(map[string]any{"id": ruleID, "name_pattern": "release-*"}) }},
		{"list_tag_protections", func() map[string]any { return repo }},
		{"delete_tag_protection", func() map[string]any { return with(map[string]any{"id": ruleID}) }},
		// No password: a request body would carry it into the recording.
		{"add_push_mirror", func() map[string]any {
			return with(map[string]any{"remote_address": f.url.String() + "/" + f.org + "/" + f.orgRepo + ".git"})
		}},
		{"list_push_mirrors", from("remote_name", &remote, func() map[string]any { return repo })},
		{"sync_push_mirrors", func() map[string]any { return repo }},
		{"delete_push_mirror", func() map[string]any { return with(map[string]any{"remote_name": remote}) }},
		{"sync_mirror", func() map[string]any { return repo }}, // not a mirror: the forge's refusal
		{"convert_mirror_repo", func() map[string]any { return repo }},
		{"create_repo_from_template", func() map[string]any {
			return with(map[string]any{"name": generated, "include": []any{"git_content", "topics"}})
		}},
		{"transfer_repo", func() map[string]any {
			return map[string]any{"owner": f.admin, "repo": generated, "new_owner": f.org}
		}},
		{"delete_repo", func() map[string]any {
			return map[string]any{"owner": f.org, "repo": generated, "confirm": f.org + "/" + generated}
		}},
		{"edit_repo", func() map[string]any { return with(map[string]any{"template": false}) }},
	}
}

// sweepKey is a fresh ed25519 public key line (OpenSSH's wire form).
func sweepKey() string {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		return "" // create_deploy_key refuses it, recorded as a failure
	}
	var blob []byte
	for _, part := range [][]byte{[]byte("ssh-ed25519"), pub} {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(part)))
		blob = append(blob, part...)
	}
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " sweep"
}
