package actions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// maxArtifactSkip bounds the bytes read and dropped to reach an offset when
// the forge streams an artifact without honouring Range (Gitea zips v3
// artifacts on the fly).
const maxArtifactSkip = 64 << 20

func artifactTools() []tool.Def {
	base := []tool.Param{tool.Owner(), tool.Repo()}
	return []tool.Def{
		{
			Name: "list_run_artifacts", Title: "List workflow run artifacts", Toolset: Toolset,
			Description: "List a workflow run's Actions artifacts, or the repository's without run_id",
			Params: append(base,
				tool.Int("run_id", "Workflow run ID (id from list_workflow_runs); omit for every run", tool.AtLeast(1)),
				tool.Str("name", "Only artifacts with this name", tool.MaxLen(255)),
				tool.Page(), tool.Limit()),
			Annotations: tool.Read(), Handler: listArtifacts, Output: tool.ListPage[Artifact]{},
		},
		{
			Name: "download_artifact", Title: "Download a workflow artifact", Toolset: Toolset,
			Description: "Download an Actions artifact's zip (whole up to 1 MiB, or a window: offset, max_bytes)",
			Params: append(base, tool.ID("artifact_id", "Artifact ID (id from list_run_artifacts)"),
				tool.Int("offset", "Start byte", tool.AtLeast(0)),
				tool.Int("max_bytes", "Window size", tool.Range(1, attachment.MaxInlineDownloadBytes))),
			Annotations: tool.Read(), Handler: downloadArtifact,
		},
	}
}

// rawArtifact decodes an artifact as either flavour sends it: Forgejo
// names its run with run_id, Gitea with a workflow_run object.
type rawArtifact struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	SizeInBytes int64     `json:"size_in_bytes"`
	Expired     bool      `json:"expired"`
	CreatedAt   time.Time `json:"created_at"`
	ExpiresAt   time.Time `json:"expires_at"`
	RunID       int64     `json:"run_id"` // Forgejo
	WorkflowRun *struct {
		ID int64 `json:"id"`
	} `json:"workflow_run"` // Gitea
}

// Artifact is the compact shape of an artifact.
type Artifact struct {
	ID      int64      `json:"id"`
	Name    string     `json:"name"`
	Size    int64      `json:"size"`
	RunID   int64      `json:"run_id,omitempty"`
	Expired bool       `json:"expired"`
	Created *time.Time `json:"created,omitempty"`
	Expires *time.Time `json:"expires,omitempty"`
}

func compactArtifact(r *rawArtifact) Artifact {
	out := Artifact{ID: r.ID, Name: r.Name, Size: r.SizeInBytes, RunID: r.RunID, Expired: r.Expired,
		Created: when(r.CreatedAt), Expires: when(r.ExpiresAt)}
	if r.WorkflowRun != nil && out.RunID == 0 {
		out.RunID = r.WorkflowRun.ID
	}
	return out
}

// artifactList decodes Gitea's {"artifacts":[…],"total_count":N} and
// Forgejo's bare array.
type artifactList struct {
	Artifacts []*rawArtifact `json:"artifacts"`
	Total     int64          `json:"total_count"`
	bare      bool
}

func (l *artifactList) UnmarshalJSON(b []byte) error {
	var err error
	l.bare, err = unmarshalList(b, &l.Artifacts, &l.Total, "artifacts")
	return err
}

func listArtifacts(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	more, subject := []string{"artifacts"}, tool.FullName(a)
	if a.Has("run_id") {
		more, subject = []string{"runs", tool.Seg(a, "run_id"), "artifacts"}, runRef(a)
	}
	p, err := route(a, more...)
	if err != nil {
		return nil, err
	}
	q := tool.PageQuery(a)
	if n := a.String("name"); n != "" {
		q.Set("name", n)
	}
	var list artifactList
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &list); err != nil {
		if !a.Has("run_id") {
			return nil, disabled(err, "list artifacts of", subject)
		}
		return nil, forgejo.Relabel(err, "list artifacts of", subject)
	}
	page, limit := a.Int("page"), a.Int("limit")
	items, hasMore := list.Artifacts, (page-1)*limit+int64(len(list.Artifacts)) < list.Total
	if list.bare {
		// Forgejo pages by page and limit but sends no total.
		hasMore = forgejo.HasMore(nil, int(page), len(items), int(limit))
	}
	return tool.Items(tool.Map(items, compactArtifact), page, hasMore)
}

// downloadedArtifact is the text part of download_artifact's result, with
// the same fields as download_issue_attachment's (the CLI's --out pages
// through both alike).
type downloadedArtifact struct {
	Artifact Artifact `json:"artifact"`
	Inline   bool     `json:"inline"`
	MIMEType string   `json:"mime_type,omitempty"`
	Bytes    int      `json:"bytes,omitempty"`
	SHA256   string   `json:"sha256,omitempty"`
	tool.Window
	Note string `json:"note,omitempty"`
}

func downloadArtifact(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	id := tool.Seg(a, "artifact_id")
	subject := fmt.Sprintf("artifact %s in %s", id, tool.FullName(a))
	p, err := route(a, "artifacts", id)
	if err != nil {
		return nil, err
	}
	var raw rawArtifact
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "get", subject)
	}
	art := compactArtifact(&raw)
	if art.Expired {
		return tool.Error(fmt.Sprintf("%s (%s) has expired: the forge no longer keeps its files", subject, art.Name)), nil
	}
	out := downloadedArtifact{Artifact: art}
	window := a.Has("offset") || a.Has("max_bytes")
	offset, maxBytes := a.Int("offset"), a.Int("max_bytes")
	limit := tool.InlineCap(ctx)
	if maxBytes > limit {
		return nil, tool.WindowOverCap(maxBytes, limit)
	}
	if maxBytes == 0 {
		maxBytes = limit
	}
	if !window && art.Size > limit {
		out.Note = fmt.Sprintf("%d bytes is over the %s one result carries inline, so no bytes are included: call download_artifact again "+
			"with offset 0 to read the zip in windows of up to %s (max_bytes), following next_offset",
			art.Size, bytesize.Text(limit), bytesize.Text(limit))
		return tool.JSON(out)
	}
	opt := forgejo.RawOptions{MaxBytes: limit}
	if window {
		opt = forgejo.RawOptions{MaxBytes: maxBytes, Offset: offset, Length: maxBytes, MaxSkip: maxArtifactSkip}
	}
	zip := "/api/v1" + p + "/zip"
	got, err := c.DoRaw(ctx, zip, opt)
	switch {
	case errors.Is(err, forgejo.ErrResponseTooLarge):
		return nil, fmt.Errorf("%s's zip is over %d bytes; read it in windows with offset and max_bytes", subject, opt.MaxBytes)
	case err != nil:
		return nil, forgejo.Relabel(err, "download", subject)
	}
	sum := sha256.Sum256(got.Body)
	out.Inline, out.MIMEType, out.Bytes, out.SHA256 = true, "application/zip", len(got.Body), hex.EncodeToString(sum[:])
	uri := c.BaseURL().JoinPath(zip).String()
	if window {
		total := got.Total
		out.Offset = &offset
		next := offset + int64(len(got.Body))
		switch {
		case total >= 0:
			out.Total = total
			if next < total && len(got.Body) > 0 {
				out.NextOffset = &next
			}
		case int64(len(got.Body)) == maxBytes:
			out.NextOffset = &next
			out.Note = "the forge did not say the zip's size; read on from next_offset until a window comes back short"
		}
		if len(got.Body) > 0 && !(offset == 0 && next == total) {
			uri += fmt.Sprintf("#bytes=%d-%d", offset, next-1)
		}
	}
	res, err := tool.JSON(out)
	if err != nil {
		return nil, err
	}
	res.Content = append(res.Content, tool.Blob(uri, out.MIMEType, got.Body))
	return res, nil
}
