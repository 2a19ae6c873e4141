package attachment

import (
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
)

// Meta is an attachment's metadata as the list, get and rename tools show
// it. Forgejo lets a repository writer make a release asset a link to any
// URL (type "external"): it has no size and no file on the forge, and the
// forge answers size 0 with the link as browser_download_url, which reads
// as an empty file. Such an asset is shown as what it is: type external
// and external_url, without size or browser_download_url. Gitea sends no
// type; Forgejo's "attachment" is the ordinary case and is left out, so
// both forges' ordinary attachments read the same.
type Meta struct {
	ID            int64     `json:"id"`
	Name          string    `json:"name" trust:"text"`
	Size          *int64    `json:"size,omitempty"`
	DownloadCount int64     `json:"download_count"`
	Created       time.Time `json:"created_at"`
	UUID          string    `json:"uuid"`
	DownloadURL   string    `json:"browser_download_url,omitempty"`
	// Type is "external" for an external release asset, absent otherwise.
	Type string `json:"type,omitempty"`
	// ExternalURL is where an external release asset points. The forge
	// does not hold it; download_release_attachment does not fetch it.
	ExternalURL string `json:"external_url,omitempty"`
}

// IsExternal reports whether a forge's attachment type is Forgejo's
// external release asset.
func IsExternal(forgeType string) bool { return strings.EqualFold(forgeType, "external") }

// Show shapes an attachment of forge type forgeType ("" when the forge
// sends none) as Meta.
func Show(att *sdk.Attachment, forgeType string) Meta {
	out := Meta{ID: att.ID, Name: att.Name, DownloadCount: att.DownloadCount, Created: att.Created, UUID: att.UUID}
	if IsExternal(forgeType) {
		out.Type, out.ExternalURL = "external", att.DownloadURL
		return out
	}
	size := att.Size
	out.Size, out.DownloadURL = &size, att.DownloadURL
	return out
}

// show is Show for the metadata as decoded here.
func (m *meta) show() Meta { return Show(&m.Attachment, m.Type) }
