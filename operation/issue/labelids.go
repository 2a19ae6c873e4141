package issue

import (
	"context"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// LabelIDs resolves label names or IDs (as add_issue_labels does: exact
// name, then any case, then a number as an ID) to the IDs of labels that
// owner/repo can use, its own and its organisation's. An entry that
// matches none is an error naming the labels there are, so a typo changes
// nothing. Other packages (update_pull_request) use it.
func LabelIDs(ctx context.Context, c *forgejo.Client, owner, repo string, wanted []string) ([]int64, error) {
	known, err := usableLabels(ctx, c, owner, repo)
	if err != nil {
		return nil, err
	}
	found, unknown := resolveLabels(wanted, known)
	if len(unknown) > 0 {
		return nil, unknownLabels(unknown, known, "repository "+owner+"/"+repo)
	}
	ids := make([]int64, 0, len(found))
	for _, l := range found {
		ids = append(ids, l.ID)
	}
	return ids, nil
}
