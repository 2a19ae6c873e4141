package pdftext

import (
	"compress/gzip"
	"embed"
	"io"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// A CID-keyed font whose glyphs come from one of Adobe's CJK character
// collections (its CIDSystemInfo names Registry Adobe and Ordering Japan1,
// GB1, CNS1 or Korea1) needs no ToUnicode CMap to be read: the collection
// says which character each CID is. Adobe publishes that as a CMap from CID
// to Unicode per collection (Adobe-Japan1-UCS2 …), which collections/ holds
// compressed, as Debian's poppler-data installs them (see its LICENSE and
// SOURCES). A collection is read when a font first shows a code its
// ToUnicode does not map, parsed once per extraction and charged to its
// budget like any CMap; nothing is kept between extractions.

//go:generate go run ./internal/gencollections -o collections

//go:embed collections/*.gz
var collectionFiles embed.FS

// collectionOf is the name of the CID to Unicode CMap of the character
// collection registry-ordering, "" when none is embedded.
func collectionOf(registry, ordering string) string {
	if registry != "Adobe" {
		return ""
	}
	switch ordering {
	case "Japan1", "GB1", "CNS1", "Korea1":
		return "Adobe-" + ordering + "-UCS2"
	}
	return ""
}

// maxCollectionBytes bounds a collection's CMap decompressed (the largest,
// Adobe-Japan1-UCS2, is 294,111 bytes; TestCollectionsDrift checks them).
const maxCollectionBytes = 320 << 10

// collection returns the CID to Unicode CMap name (from collectionOf),
// parsed once per extraction; nil when it cannot be read. When the budget
// refuses it while fonts or CMaps are loaded, they are dropped and it is
// tried once more, as a font is.
func (x *extractor) collection(name string) *cmap {
	if m, ok := x.collections[name]; ok {
		return m
	}
	m, ok := x.tryCollection(name)
	if !ok {
		x.dropFonts(true)
		m = x.readCollection(name) // a refusal now ends the extraction
	}
	x.mem.Take(costCached)
	if m != nil {
		m.cost += costCached
	}
	x.collections[name] = m
	return m
}

func (x *extractor) tryCollection(name string) (m *cmap, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if s, isStop := r.(pdfobj.Stop); isStop && spent(s.Err) && x.droppable() {
				m, ok = nil, false
				return
			}
			panic(r)
		}
	}()
	return x.readCollection(name), true
}

// readCollection decompresses and parses collection name, charging the
// budget for the decompressed bytes while it parses them.
func (x *extractor) readCollection(name string) *cmap {
	f, err := collectionFiles.Open("collections/" + name + ".gz")
	if err != nil {
		return nil
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil
	}
	x.mem.Take(maxCollectionBytes)
	defer x.mem.Give(maxCollectionBytes)
	data := make([]byte, maxCollectionBytes)
	n, err := io.ReadFull(z, data)
	if err != io.ErrUnexpectedEOF {
		return nil // empty, broken or over the bound: not one of ours
	}
	x.work.Collections++
	return parseCMap(data[:n], x.mem, x.check)
}
