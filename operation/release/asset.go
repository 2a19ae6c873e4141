package release

import (
	"context"
	"fmt"
	"strconv"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The attachment JSON is forgejo-sdk's Attachment, as in operation/attachment:
// the issue, comment and release attachment objects are the same.

func attachmentID() tool.Param {
	return tool.Int("attachment_id", "Attachment ID", tool.Required(), tool.AtLeast(1))
}

func assetTools() []tool.Def {
	base := []tool.Param{tool.Owner(), tool.Repo(), releaseID()}
	withID := append(base[:3:3], attachmentID())
	return []tool.Def{
		{
			Name: "list_release_attachments", Toolset: Toolset,
			Description: "List a release's files",
			Params:      base, Annotations: tool.Read(), Handler: listAssets,
		},
		{
			Name: "get_release_attachment", Toolset: Toolset,
			Description: "Release attachment metadata",
			Params:      withID, Annotations: tool.Read(), Handler: getAsset,
		},
		{
			Name: "download_release_attachment", Toolset: Toolset,
			Description: "Release attachment metadata and bytes up to 1 MiB (images also as image); larger files: pass offset",
			Params: append(withID[:4:4],
				tool.Int("offset", "Start byte", tool.AtLeast(0)),
				tool.Int("max_bytes", "Window size", tool.Range(1, attachment.MaxInlineDownloadBytes))),
			Annotations: tool.Read(), Handler: downloadAsset,
		},
		{
			Name: "create_release_attachment", Toolset: Toolset,
			Description: "Attach a file to a release",
			Params: append(base[:3:3],
				tool.Str("content", "Base64 file", tool.Required(), tool.Secret()),
				tool.Str("filename", "File name", tool.Required()),
				tool.Str("mime_type", "MIME type")),
			Annotations: tool.Write(false), Handler: createAsset, CLIFile: "content", LargeArgs: true,
		},
		{
			Name: "edit_release_attachment", Toolset: Toolset,
			Description: "Rename a release attachment",
			Params: append(withID[:4:4],
				tool.Str("name", "New file name", tool.Required())),
			Annotations: tool.Destroy(true), Handler: editAsset,
		},
		{
			Name: "delete_release_attachment", Toolset: Toolset,
			Description: "Delete a release attachment",
			Params:      withID, Annotations: tool.Destroy(true), Handler: deleteAsset,
		},
	}
}

func assetRef(a tool.Args) string {
	return fmt.Sprintf("attachment %d of %s", a.Int("attachment_id"), idRef(a))
}

func listAssets(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListReleaseAttachments(a.String("owner"), a.String("repo"), a.Int("release_id"))
	if err := forgejo.Fail(resp, err, "list attachments of", idRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(tool.Map(list, func(at *sdk.Attachment) sdk.Attachment { return *at }))
}

func fetchAsset(ctx context.Context, c *forgejo.Client, a tool.Args, verb string) (*sdk.Attachment, error) {
	at, resp, err := c.SDK(ctx).GetReleaseAttachment(a.String("owner"), a.String("repo"), a.Int("release_id"), a.Int("attachment_id"))
	if err := forgejo.Fail(resp, err, verb, assetRef(a)); err != nil {
		return nil, err
	}
	return at, nil
}

func getAsset(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	at, err := fetchAsset(ctx, c, a, "get")
	if err != nil {
		return nil, err
	}
	return tool.JSON(at)
}

func downloadAsset(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	at, err := fetchAsset(ctx, c, a, "download")
	if err != nil {
		return nil, err
	}
	return attachment.Download(ctx, c, a, at, idRef(a), "download_release_attachment")
}

func createAsset(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	route, err := forgejo.Path("repos", a.String("owner"), a.String("repo"), "releases",
		strconv.FormatInt(a.Int("release_id"), 10), "assets")
	if err != nil {
		return nil, err
	}
	at, err := attachment.Upload(ctx, c, a, route, func(err error) error {
		return forgejo.Relabel(err, fmt.Sprintf("attach %s to", a.String("filename")), idRef(a))
	})
	if err != nil {
		return nil, err
	}
	return tool.JSON(at)
}

func editAsset(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if err := attachment.CheckName("name", a.String("name")); err != nil {
		return nil, err
	}
	at, resp, err := c.SDK(ctx).EditReleaseAttachment(a.String("owner"), a.String("repo"), a.Int("release_id"),
		a.Int("attachment_id"), sdk.EditAttachmentOptions{Name: a.String("name")})
	if err := forgejo.Fail(resp, err, "rename", assetRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(at)
}

func deleteAsset(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteReleaseAttachment(a.String("owner"), a.String("repo"), a.Int("release_id"), a.Int("attachment_id"))
	if err := forgejo.Fail(resp, err, "delete", assetRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("id", a.Int("attachment_id"))
}
