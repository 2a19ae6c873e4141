package pdftext

import (
	"context"
	"errors"
	"fmt"
)

// Info describes the text Read returns, for a tool result's metadata.
type Info struct {
	PageCount int    `json:"page_count,omitempty"`
	Pages     string `json:"pages,omitempty"` // the pages in the text: "1-3"
	Truncated bool   `json:"truncated,omitempty"`
	Note      string `json:"note,omitempty"`
}

// Read is Extract shaped for a tool: the info and the Format'ted text of
// the pages spec names. A bad page range is an error for the caller to
// report; a PDF that cannot be read is a note in the info with no text
// (ok false), so a tool can still hand over the bytes.
func Read(ctx context.Context, data []byte, pages string) (info Info, text string, ok bool, err error) {
	res, err := Extract(ctx, data, Options{Pages: pages})
	switch {
	case errors.Is(err, ErrPages):
		return Info{}, "", false, fmt.Errorf("invalid arguments: argument \"pages\": %w", err)
	case err != nil:
		return Info{Note: "no text: " + err.Error()}, "", false, nil
	}
	info = Info{PageCount: res.PageCount, Pages: res.Span(), Truncated: res.Truncated, Note: res.Note}
	empty := 0
	for _, p := range res.Pages {
		if p.Text == "" {
			empty++
		}
	}
	if empty > 0 && info.Note == "" {
		info.Note = fmt.Sprintf("%d of %d pages have no extractable text (their headers say why)", empty, len(res.Pages))
	}
	return info, Format(res), true, nil
}
