package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareTables(t *testing.T) {
	head := "| PDF | producer | pages | recall | precision | glued | split | ligatures | ms | peak RSS MB | note |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
	before, err := readTable(strings.NewReader(head +
		"| b.pdf | Zeta 1 | 1 | 0.500 | 0.400 | 0 | 0 | 0 | 1 | 4 |  |\n" +
		"| a.pdf | alpha | 2 | 1.000 | 1.000 | 0 | 0 | 0 | 0 | 4 | malformed PDF: a 256-bit encryption key |\n" +
		"| s.pdf | scanner | 1 | 0.000 | 0.000 | 0 | 0 | 0 | 1 | 4 | no text layer |\n" +
		"| x.pdf | | | | | | | | | | pdftotext: exit status 1 |\n" +
		"\nmicro recall 0.5000, precision 0.4000 over 3 PDFs (10 reference words); 1 errors\n"))
	require.NoError(t, err)
	assert.Len(t, before.rows, 3, "a file pdftotext cannot read has no score")
	after, err := readTable(strings.NewReader(head +
		"| a.pdf | alpha | 2 | 0.972 | 0.989 | 0 | 0 | 0 | 3 | 5 |  |\n" +
		"| b.pdf | Zeta 1 | 1 | 1.000 | 1.000 | 0 | 0 | 0 | 1 | 4 |  |\n" +
		"| n.pdf | Beta | 1 | 0.900 | 0.950 | 0 | 0 | 0 | 1 | 4 |  |\n" +
		"| s.pdf | scanner | 1 | 0.000 | 0.000 | 0 | 0 | 0 | 1 | 4 | no text layer |\n" +
		"\nmicro recall 0.9900, precision 0.9900 over 4 PDFs (10 reference words); 0 errors\n"))
	require.NoError(t, err)
	var out strings.Builder
	compareTables(&out, before, after)
	assert.Equal(t, "| PDF | producer | recall before | recall after | precision before | precision after |\n"+
		"|---|---|---|---|---|---|\n"+
		"| a.pdf | alpha | error | 0.972 | error | 0.989 |\n"+
		"| n.pdf | Beta | - | 0.900 | - | 0.950 |\n"+
		"| s.pdf | scanner | scan | scan | scan | scan |\n"+
		"| b.pdf | Zeta 1 | 0.500 | 1.000 | 0.400 | 1.000 |\n"+
		"\nbefore: recall 0.5000, precision 0.4000 over 3 PDFs (10 reference words); 1 errors\n"+
		"after: recall 0.9900, precision 0.9900 over 4 PDFs (10 reference words); 0 errors\n", out.String())
}
