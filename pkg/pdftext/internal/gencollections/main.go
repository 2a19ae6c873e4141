// Command gencollections writes pkg/pdftext/collections: Adobe's UCS2
// CMaps of the CJK character collections (CID to Unicode for
// Adobe-Japan1, Adobe-GB1, Adobe-CNS1 and Adobe-Korea1), gzip-compressed
// byte for byte, from the copies Debian's poppler-data installs in
// /usr/share/poppler/cMap (Adobe's files, BSD-3-Clause; not poppler-data's
// cidToUnicode tables, which are GPL-2), and SOURCES, which records the
// size and SHA-256 of each original for the drift test. Run it with
// `go generate -run gencollections ./pkg/pdftext/`.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// Collections are the character collections read, in SOURCES' order.
var collections = []string{"Adobe-CNS1", "Adobe-GB1", "Adobe-Japan1", "Adobe-Korea1"}

// notice is the text of a CMap's %%Copyright comment lines.
func notice(data []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "%%Copyright:"); ok {
			b.WriteString(strings.TrimSpace(rest) + "\n")
		}
	}
	return b.String()
}

func main() {
	src := flag.String("src", "/usr/share/poppler/cMap", "poppler-data's cMap folder")
	out := flag.String("o", "collections", "the folder to write")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	var sources bytes.Buffer
	notices := map[string][]string{} // a licence notice: the files it heads
	var order []string
	sources.WriteString("# Written by pkg/pdftext/internal/gencollections from Debian's poppler-data\n" +
		"# (cMap/<collection>/<collection>-UCS2, Adobe's files); checked by TestCollectionsDrift.\n" +
		"# name size sha256-of-the-original\n")
	for _, c := range collections {
		name := c + "-UCS2"
		data, err := os.ReadFile(filepath.Join(*src, c, name))
		if err != nil {
			log.Fatal(err)
		}
		var z bytes.Buffer
		w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
		if err != nil {
			log.Fatal(err)
		}
		// No name and no time in the header: the output depends on the
		// input alone.
		if _, err := w.Write(data); err != nil {
			log.Fatal(err)
		}
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*out, name+".gz"), z.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(&sources, "%s %d %x\n", name, len(data), sha256.Sum256(data))
		n := notice(data)
		if n == "" {
			log.Fatalf("%s: no %%%%Copyright lines", name)
		}
		if notices[n] == nil {
			order = append(order, n)
		}
		notices[n] = append(notices[n], name)
	}
	// LICENSE: the files' own notices, which their licence asks to keep
	// beside them.
	var lic bytes.Buffer
	lic.WriteString("The files in this folder are Adobe's CMaps, compressed; their notices follow.\n")
	for _, n := range order {
		fmt.Fprintf(&lic, "\n%s:\n\n%s", strings.Join(notices[n], ", "), n)
	}
	if err := os.WriteFile(filepath.Join(*out, "LICENSE"), lic.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "SOURCES"), sources.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
