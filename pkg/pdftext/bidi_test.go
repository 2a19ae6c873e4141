package pdftext

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogicalOrder: lines as shaping engines draw them (visual order,
// marks before their letter) come back in logical order.
func TestLogicalOrder(t *testing.T) {
	for _, tc := range []struct {
		name, visual string
		rtlPage      bool
		want         string
	}{
		{"Hebrew words", "םלוע םולש", true, "שלום עולם"},
		{"a mark before its letter", "\u064Fة\u064Eرو\u064Fس", true, "س\u064Fور\u064Eة\u064F"},
		{"Arabic-Indic digits keep their order", "ةجرد ٤٥ ددعلا", true, "العدد ٤٥ درجة"},
		{"a decimal number", "ةئملاب 3.14", true, "3.14 بالمئة"},
		{"Latin in a right-to-left page", "test 123 و ةجرد", true, "درجة و 123 test"},
		{"a code touching Latin letters is one word", "062F د د", true, "د د 062F"},
		{"a bare number between two directions", "0641 ف ف", true, "ف ف 0641"},
		{"Arabic inside a left-to-right line", "Qurʾān (نآرقلا) is", false, "Qurʾān (القرآن) is"},
		{"presentation forms folded, lam-alef in order", "ﺭﺎﺒﺘﺧﻼﻟ ﻲﺑﺮﻋ", true, "عربي للاختبار"},
		{"a left-to-right page keeps the runs' order", "0641 ف ف", false, "0641 ف ف"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, logicalOrder(tc.visual, tc.rtlPage))
		})
	}
}

func TestLogicalLines(t *testing.T) {
	// The page's direction is its letters' majority: here right to left,
	// so the mixed line's runs are reversed; the Latin line is untouched.
	assert.Equal(t, "Title\nشكرا جزيلا لكم\nمرحبا بكم test", logicalLines("Title\nمكل اليزج اركش\ntest مكب ابحرم"))
	assert.Equal(t, "no right to left here", logicalLines("no right to left here"))
}

// TestChromiumRightToLeft: Chromium's print of testdata/chromium-rtl.html
// (headless, --print-to-pdf; Skia m156, DejaVu Sans) reads as written:
// presentation forms folded (pdftotext folds them too, but prints a
// lam-alef as alef, lam: "لالختبار"), marks after their letters (pdftotext
// scatters them), numbers in order, Latin where it was written. The file's
// ToUnicode map has no alef wasla and no shadda, so "ٱلسَّجْدَةِ" cannot
// come back whole.
func TestChromiumRightToLeft(t *testing.T) {
	data, err := os.ReadFile("testdata/chromium-rtl.pdf")
	require.NoError(t, err)
	res, err := Extract(context.Background(), data, Options{})
	require.NoError(t, err)
	require.Len(t, res.Pages, 2)
	assert.Equal(t, "هذا نص عربي للاختبار\n"+
		"سُورَةُ لسجْدَةِ\n"+
		"العدد ٤٥ درجة و 123 test\n"+
		"لا إله إلا الله، محمد رسول الله\n"+
		"שָׁלוֹם עוֹלָם, זהו טקסט בעברית", res.Pages[0].Text)
	assert.Equal(t, "The word القرآن means recitation; page 2 is left to right.\n"+
		"Code 0641 is ف and 05D0 is א in Unicode.", res.Pages[1].Text)
}
