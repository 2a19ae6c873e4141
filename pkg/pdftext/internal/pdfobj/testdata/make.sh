#!/usr/bin/env bash
# Makes the object layer's test inputs with producers nobody here wrote:
# qpdf (11.3) rewrites one small two-page PDF as a classic table, with
# object and cross-reference streams, linearized, and encrypted with every
# standard security handler revision (R2 RC4-40, R3 RC4-128, R4 RC4-128 and
# AES-128, R5 and R6 AES-256, the user password empty; and one that needs
# a password); Ghostscript (10.0) encodes two texts with each stream filter
# and predictor its PostScript filters implement. The tests hold what each
# file must decode to. Needs qpdf and gs (Debian: qpdf, ghostscript).
# Encrypted outputs differ from run to run (random IDs and IVs); the tests
# do not depend on their bytes.
#
#   pkg/pdftext/internal/pdfobj/testdata/make.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The source: no cross-reference table (qpdf rebuilds it), two pages, the
# second with its content split over two streams, and an Info dictionary
# whose title is a string the security handler encrypts.
stream() { printf '%s 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n' "$1" "${#2}" "$2"; }
{
	printf '%%PDF-1.7\n'
	printf '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'
	printf '2 0 obj\n<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 /Resources << /Font << /F1 7 0 R >> >> >>\nendobj\n'
	printf '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n'
	stream 4 'BT /F1 12 Tf 72 720 Td (Page one: plain text \(with parentheses\)) Tj ET'
	printf '5 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [6 0 R 8 0 R] >>\nendobj\n'
	stream 6 'BT /F1 12 Tf 72 720 Td (Page two,) Tj'
	printf '7 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n'
	stream 8 '( in two streams) Tj ET'
	printf '9 0 obj\n<< /Title (Secret title) >>\nendobj\n'
	printf 'trailer\n<< /Root 1 0 R /Info 9 0 R /Size 10 >>\n%%%%EOF\n'
} >"$tmp/src.pdf"

# qpdf warns (exit 3) that it rebuilt the missing table; from then on the
# file is whole.
qpdf --deterministic-id "$tmp/src.pdf" "$tmp/whole.pdf" 2>/dev/null || [ $? -eq 3 ]
q() { qpdf --deterministic-id "$tmp/whole.pdf" "$@"; }
q --object-streams=disable --stream-data=uncompress table.pdf
q --object-streams=generate objstm.pdf
q --linearize linearized.pdf
e() { out=$1; shift; qpdf --allow-weak-crypto "$tmp/whole.pdf" --encrypt "$@" -- "$out"; }
e r2-rc4-40.pdf "" owner 40
e r3-rc4-128.pdf "" owner 128 --use-aes=n
e r4-rc4-128.pdf "" owner 128 --use-aes=n --force-V4 --cleartext-metadata
e r4-aes-128.pdf "" owner 128 --use-aes=y
e r5-aes-256.pdf "" owner 256 --force-R5
e r6-aes-256.pdf "" owner 256
qpdf "$tmp/whole.pdf" --object-streams=generate --encrypt "" owner 256 -- r6-aes-256-objstm.pdf
e needs-password.pdf user owner 128 --use-aes=y

# Filters: plain texts, then each encoded by Ghostscript.
{ for i in $(seq 1 750); do printf 'line %d: %d %s\n' "$i" $((i * 7919 % 10007)) "$(printf '%x' $((i * i)))"; done; } >filter-long.txt
{ head -c 1000 filter-long.txt; printf '%0199d\n' 0; } >filter-short.txt
gs -q -dNOSAFER -dNODISPLAY -dBATCH -c "
/buf 4096 string def
/enc { % (in) (out) params|null /FilterName
	/fname exch def /params exch def /outname exch def /inname exch def
	/in inname (r) file def
	/out outname (w) file params null ne { params } if fname filter def
	{ in buf readstring exch out exch writestring not { exit } if } loop
	out closefile in closefile
} def
(filter-short.txt) (filter.ahx) null /ASCIIHexEncode enc
(filter-short.txt) (filter.a85) null /ASCII85Encode enc
(filter-short.txt) (filter.rl) 0 /RunLengthEncode enc
(filter-long.txt) (filter.lzw) null /LZWEncode enc
(filter-long.txt) (filter-early0.lzw) << /EarlyChange 0 >> /LZWEncode enc
(filter-short.txt) (filter-tiff2.lzw) << /Predictor 2 /Colors 3 /Columns 11 >> /LZWEncode enc
10 1 15 { /p exch def
	(filter-short.txt) (filter-png) p 10 string cvs concatstrings (.fl) concatstrings
	<< /Predictor p /Colors 3 /Columns 11 >> /FlateEncode enc
} for
(filter-short.txt) (filter-png12-16bit.fl) << /Predictor 12 /Colors 1 /BitsPerComponent 16 /Columns 5 >> /FlateEncode enc
"
ls -l
