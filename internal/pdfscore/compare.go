package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// A before/after table: two runs of this command (say, on an older build
// and on this one) compared PDF by PDF, grouped by producer, for
// docs/attachments.md.
//
//	go run ./internal/pdfscore -compare BEFORE.md AFTER.md

// row is one PDF's line of a score table.
type row struct {
	name, producer      string
	recall, precision   float64
	failed, noTextLayer bool
}

// table is a score table as this command prints it.
type table struct {
	rows  map[string]row
	micro string // the "micro recall …" line
}

func readTable(r io.Reader) (table, error) {
	t := table{rows: map[string]row{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "micro ") {
			t.micro = line
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 13 || !strings.HasPrefix(line, "| ") {
			continue
		}
		cells = cells[1:12]
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rec, err1 := strconv.ParseFloat(cells[3], 64)
		prec, err2 := strconv.ParseFloat(cells[4], 64)
		if err1 != nil || err2 != nil {
			continue // pdftotext could not read it: no score
		}
		note := cells[10]
		t.rows[cells[0]] = row{name: cells[0], producer: cells[1], recall: rec, precision: prec,
			failed: note != "" && note != "no text layer", noTextLayer: note == "no text layer"}
	}
	return t, sc.Err()
}

func readTableFile(path string) (table, error) {
	f, err := os.Open(path)
	if err != nil {
		return table{}, err
	}
	defer f.Close()
	return readTable(f)
}

// compareTables writes the before/after table of the PDFs in after, sorted by
// producer, then the micro figures of both.
func compareTables(w io.Writer, before, after table) {
	var names []string
	for n := range after.rows {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := after.rows[names[i]], after.rows[names[j]]
		if a.producer != b.producer {
			return strings.ToLower(a.producer) < strings.ToLower(b.producer)
		}
		return a.name < b.name
	})
	fmt.Fprintln(w, "| PDF | producer | recall before | recall after | precision before | precision after |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, n := range names {
		a := after.rows[n]
		b, ok := before.rows[n]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", n, a.producer,
			figure(b, ok, b.recall), figure(a, true, a.recall), figure(b, ok, b.precision), figure(a, true, a.precision))
	}
	fmt.Fprintf(w, "\nbefore: %s\nafter: %s\n", strings.TrimPrefix(before.micro, "micro "), strings.TrimPrefix(after.micro, "micro "))
}

// figure is one cell: the score, "error" when the extraction failed,
// "scan" for a file with no text layer, "-" when the run did not have it.
func figure(r row, ok bool, v float64) string {
	switch {
	case !ok:
		return "-"
	case r.failed:
		return "error"
	case r.noTextLayer:
		return "scan"
	}
	return fmt.Sprintf("%.3f", v)
}
