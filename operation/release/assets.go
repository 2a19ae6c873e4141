package release

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// A release's assets carry a type on Forgejo: "external" for a link a
// repository writer set, which has no size and no file on the forge. The
// SDK's Attachment drops the type, so the single-release reads decode the
// release here and show such an asset as external with its URL
// (attachment.Meta says why), not as an empty file.

// rawRelease is a release as the forge sends it, each asset with its type.
type rawRelease struct {
	sdk.Release
	Assets []*rawAsset `json:"assets"` // shadows sdk.Release.Attachments
}

type rawAsset struct {
	sdk.Attachment
	Type string `json:"type"`
}

// Asset is the compact shape of a release attachment inside a release:
// for an external asset its type and URL instead of a size.
type Asset struct {
	ID          int64  `json:"id"`
	Name        string `json:"name" trust:"text"`
	Size        *int64 `json:"size,omitempty"`
	Type        string `json:"type,omitempty"`
	ExternalURL string `json:"external_url,omitempty"`
}

func asset(a *rawAsset) Asset {
	m := attachment.Show(&a.Attachment, a.Type)
	return Asset{ID: m.ID, Name: m.Name, Size: m.Size, Type: m.Type, ExternalURL: m.ExternalURL}
}

// fullRelease is the compact shape of r with its assets.
func fullRelease(r *rawRelease) Release {
	out := compact(&r.Release, true)
	out.Assets = tool.Map(r.Assets, asset)
	return out
}

// oneRelease sends method to the release route below the repository (the
// segments in more) with body, and answers the release the forge returns.
func oneRelease(ctx context.Context, c *forgejo.Client, a tool.Args, method string, body any, verb, subject string, more ...string) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, append([]string{"releases"}, more...)...)
	if err != nil {
		return nil, err
	}
	var r rawRelease
	if err := c.DoJSON(ctx, method, p, nil, body, &r); err != nil {
		return nil, forgejo.Relabel(err, verb, subject)
	}
	return tool.JSON(fullRelease(&r))
}
