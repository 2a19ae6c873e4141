package repoadmin

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// topicPattern is what Forgejo and Gitea accept as a topic once they have
// lowercased it: a letter or digit, then letters, digits, dashes and dots,
// 35 characters at most.
var topicPattern = regexp.MustCompile(`^(?i)[a-z0-9][-.a-z0-9]{0,34}$`)

const topicHint = "letters, digits, dashes and dots, starting with a letter or digit, at most 35"

// Topics is a repository's topics, as the forge stores them (lowercase).
type Topics struct {
	Topics []string `json:"topics"`
}

func topicsTools() []tool.Def {
	topic := tool.Str("topic", "Topic", tool.Required(), tool.Match(topicPattern, topicHint))
	return []tool.Def{
		{
			Name: "list_repo_topics", Toolset: SettingsToolset,
			Title: "List repository topics", Output: Topics{},
			Description: "List a repository's topics",
			Params:      base(), Annotations: tool.Read(), Handler: listTopics,
		},
		{
			Name: "set_repo_topics", Toolset: SettingsToolset,
			Title: "Replace repository topics", Output: Topics{},
			Description: "Replace all of a repository's topics with the given ones (an empty list clears them)",
			Params:      with(tool.Strs("topics", "The topics, at most 25", tool.Required(), tool.Match(topicPattern, topicHint))),
			Annotations: tool.Destroy(true), Handler: setTopics,
		},
		{
			Name: "add_repo_topic", Toolset: SettingsToolset,
			Title: "Add a repository topic", Output: Topics{},
			Description: "Add one topic to a repository, keeping the others",
			Params:      with(topic), Annotations: tool.Write(true), Handler: addTopic,
		},
		{
			Name: "remove_repo_topic", Toolset: SettingsToolset,
			Title: "Remove a repository topic", Output: tool.DeletedOutput("topic", ""),
			Description: "Remove one topic from a repository",
			Params:      with(topic), Annotations: tool.Destroy(true), Handler: removeTopic,
		},
	}
}

// maxTopics is how many topics Forgejo and Gitea let a repository have.
const maxTopics = 25

func topicsOf(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoTopics(a.String("owner"), a.String("repo"),
		sdk.ListRepoTopicsOptions{ListOptions: sdk.ListOptions{Page: 1, PageSize: maxTopics}})
	if err := forgejo.Fail(resp, err, "list topics of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	if list == nil {
		list = []string{}
	}
	return tool.JSON(Topics{Topics: list})
}

func listTopics(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return topicsOf(ctx, c, a)
}

// setTopics sends the whole list; the result is the list the forge kept
// (lowercased, duplicates dropped), read back in a second call since the
// PUT answers 204.
func setTopics(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list := a.Strings("topics")
	if len(list) > maxTopics {
		return tool.Error(fmt.Sprintf("topics has %d items; a repository has at most %d topics", len(list), maxTopics)), nil
	}
	for i := range list {
		list[i] = strings.ToLower(list[i])
	}
	resp, err := c.SDK(ctx).SetRepoTopics(a.String("owner"), a.String("repo"), list)
	if err := forgejo.Fail(resp, err, "set topics of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return topicsOf(ctx, c, a)
}

func addTopic(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "topics", strings.ToLower(a.String("topic")))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPut, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "add topic "+a.String("topic")+" to", tool.RepoRef(a))
	}
	return topicsOf(ctx, c, a)
}

func removeTopic(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "topics", strings.ToLower(a.String("topic")))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "remove topic "+a.String("topic")+" from", tool.RepoRef(a))
	}
	return tool.Deleted("topic", strings.ToLower(a.String("topic")))
}
