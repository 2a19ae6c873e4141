package operation_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// Every write tool's PATCH or PUT in the recorded sweeps, checked against
// the state of the same object the forge answered just before: a field the
// request did not name keeps its value. The one place a real forge cleared
// unnamed fields is Forgejo 13's PATCH /orgs/{org} (seq 38 and 41), which
// edit_org now answers with a read-modify-write (org_admin_test replays
// it); any other write that clears a field fails here, naming the tool.

// forgeSetFields change on a write without being named, by the forge's
// own doing: times, counters, the commit a file or wiki change made, and a
// repository's language, which the forge computes from its code and
// Gitea's PATCH answer leaves empty (gitea-1.26.0-sweep3 seq 2163, 2205:
// "Text" before, "" in the answer; no API field sets it).
var forgeSetFields = []string{"updated_at", "updated", "closed_at", "download_count", "commit", "last_commit",
	"commit_count", "unread", "content_version", "language"}

// knownClears are the recorded writes that cleared unnamed fields, each
// fixed in its tool: recording → sequence numbers.
var knownClears = map[string][]int{"forgejo-13.0.5": {38, 41}}

func TestRecordedWritesKeepUnnamedFields(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, rec := range recs {
		state := map[string]map[string]any{} // route → the object last answered there
		checked, cleared := 0, []int{}
		for i := range rec.Exchanges {
			e := &rec.Exchanges[i]
			answer, _ := e.JSON()
			obj, isObj := answer.(map[string]any)
			if e.IsTool() && (e.Method == "PATCH" || e.Method == "PUT") && e.RequestBody != nil && len(e.RequestBody.JSON) > 0 {
				var named map[string]any
				require.NoError(t, json.Unmarshal(e.RequestBody.JSON, &named), "%s #%d", rec.Name, e.Seq)
				if prev, ok := state[e.Route()]; ok && isObj && e.Status/100 == 2 {
					checked++
					for k, was := range prev {
						now, ok := obj[k]
						if _, isNamed := named[k]; isNamed || !ok || slices.Contains(forgeSetFields, k) || reflect.DeepEqual(was, now) {
							continue
						}
						if !slices.Contains(knownClears[rec.Name], e.Seq) {
							t.Errorf("%s #%d %s: %s changed from %v to %v though the request did not name it",
								rec.Name, e.Seq, e.Tool, k, was, now)
						}
						if !slices.Contains(cleared, e.Seq) {
							cleared = append(cleared, e.Seq)
						}
					}
				}
			}
			if isObj && e.Status/100 == 2 && e.Method != "DELETE" {
				state[e.Route()] = obj
			}
			if list, ok := answer.([]any); ok && e.Status/100 == 2 {
				for _, it := range list { // a list's items are the objects at route/{id}
					if m, ok := it.(map[string]any); ok && m["id"] != nil {
						id, _ := json.Marshal(m["id"])
						state[strings.TrimSuffix(e.Route(), "/")+"/"+string(id)] = m
					}
				}
			}
		}
		assert.GreaterOrEqual(t, checked, 15, "%s: the sweep's writes were checked", rec.Name)
		assert.Equal(t, knownClears[rec.Name], nilIfEmpty(cleared), "%s: the writes that cleared unnamed fields", rec.Name)
		t.Logf("%s: %d PATCH/PUT writes checked against the state before them; cleared unnamed fields: %v", rec.Name, checked, cleared)
	}
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}
