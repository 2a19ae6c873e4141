package repo

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func tagParam() tool.Param {
	return tool.Str("tag", "Tag name", tool.Required(), tool.MaxLen(255))
}

// tagTools returns the tag tools.
func tagTools() []tool.Def {
	return []tool.Def{
		{
			Name: "list_tags", Title: "List tags", Toolset: Toolset,
			Description: "List a repository's tags",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listTags, Output: tool.ListPage[Tag]{},
		},
		{
			Name: "get_tag", Title: "Get a tag", Toolset: Toolset,
			Description: "Get a tag: its commit and, if annotated, its message",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tagParam()},
			Annotations: tool.Read(), Handler: getTag, Output: Tag{},
		},
		{
			Name: "create_tag", Title: "Create a tag", Toolset: Toolset,
			Description: "Create a tag at a branch or commit",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("tag", "Name of the new tag", tool.Required(), tool.MaxLen(255)),
				tool.Str("target", "Branch or SHA (default: default branch)", tool.MaxLen(255)),
				tool.Str("message", "Message: makes the tag annotated", tool.MaxLen(65536))},
			Annotations: tool.Write(false), Handler: createTag, Output: Tag{},
		},
		{
			Name: "delete_tag", Title: "Delete a tag", Toolset: Toolset,
			Description: "Delete a tag; refused while a release uses it",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tagParam()},
			Annotations: tool.Destroy(true), Handler: deleteTag, Output: tool.DeletedOutput("tag", ""),
		},
	}
}

// Tag is the compact shape of a tag.
type Tag struct {
	Name    string `json:"name"`
	Commit  string `json:"commit"`
	Message string `json:"message,omitempty" trust:"text"`
	// Annotated tags are tag objects of their own, with a message.
	Annotated bool `json:"annotated"`
}

func compactTag(t *sdk.Tag) Tag {
	out := Tag{Name: t.Name, Message: strings.TrimRight(t.Message, "\n")}
	if t.Commit != nil {
		out.Commit = t.Commit.SHA
	}
	// A lightweight tag's id is its commit; an annotated one's is the tag object.
	out.Annotated = t.ID != "" && t.ID != out.Commit
	if !out.Annotated {
		out.Message = "" // the forge repeats the commit's message
	}
	return out
}

func tagRef(a tool.Args, tag string) string {
	return fmt.Sprintf("tag %s in %s", tag, tool.FullName(a))
}

// tagRoute is the route of one tag. The forge's tags route takes the rest
// of the path as the tag (on Gitea and Forgejo alike), so a tag with '/'
// (release/v2) travels part by part, each part checked: nothing a proxy in
// front of the forge could decode into another route.
func tagRoute(a tool.Args, tag string) (string, error) {
	p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "tags"}, tag)
	if err != nil {
		return "", fmt.Errorf("tag: %w", err)
	}
	return p, nil
}

func listTags(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListRepoTags(a.String("owner"), a.String("repo"), sdk.ListRepoTagsOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list tags of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactTag)
}

func getTag(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	tag := a.String("tag")
	p, err := tagRoute(a, tag)
	if err != nil {
		return nil, err
	}
	var t sdk.Tag
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &t); err != nil {
		return nil, tagMissing(ctx, c, a, forgejo.Relabel(err, "get", tagRef(a, tag)))
	}
	return tool.JSON(compactTag(&t))
}

func createTag(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	name := a.String("tag")
	// The name travels in the body, so it may have slashes as git allows;
	// each part must still be a name.
	if _, err := forgejo.FilePath(nil, name); err != nil {
		return nil, fmt.Errorf("tag: %w", err)
	}
	t, resp, err := c.SDK(ctx).CreateTag(a.String("owner"), a.String("repo"), sdk.CreateTagOption{
		TagName: name, Target: a.String("target"), Message: a.String("message")})
	if err := forgejo.Fail(resp, err, "create", tagRef(a, name)); err != nil {
		if forgejo.IsNotFound(err) { // the repository or the target
			target, what := a.String("target"), "the default branch"
			if target != "" {
				what = fmt.Sprintf("target %q", target)
			}
			err = forgejo.NotFoundAs(err, what+" in "+tool.FullName(a))
			return nil, whichMissing(ctx, c, a, err, what, target, "")
		}
		return nil, err
	}
	return tool.JSON(compactTag(t))
}

func deleteTag(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	tag := a.String("tag")
	p, err := tagRoute(a, tag)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		err = forgejo.Relabel(err, "delete", tagRef(a, tag))
		if s := forgejo.StatusOf(err); s == http.StatusConflict || s == http.StatusUnprocessableEntity {
			return nil, fmt.Errorf("delete %s: refused (%d): a release uses it; delete the release first (delete_release_by_tag, "+
				"or delete_release with its id from list_releases; the tag stays), then the tag", tagRef(a, tag), s)
		}
		return nil, tagMissing(ctx, c, a, err)
	}
	return tool.Deleted("tag", tag)
}

// tagMissing tells a missing repository from a missing tag on a 404.
func tagMissing(ctx context.Context, c *forgejo.Client, a tool.Args, err error) error {
	if !forgejo.IsNotFound(err) {
		return err
	}
	_, resp, rerr := c.SDK(ctx).GetRepo(a.String("owner"), a.String("repo"))
	if forgejo.IsNotFound(forgejo.Fail(resp, rerr, "get", "")) {
		return forgejo.NotFoundAs(err, tool.RepoRef(a))
	}
	return fmt.Errorf("%w; list_tags shows the tags", err)
}
