# demos/lib.sh: what every block of a demo in this directory starts with.
#
# `showboat verify` (and demos_test.go, which follows the same rules) runs
# each code block as its own `bash -c` in the repository root: nothing
# carries over from one block to the next but files. So a block begins with
#
#     . demos/lib.sh DOC            # DOC: the document's name, e.g. cli-tour
#     . demos/lib.sh DOC --fresh    # in the first block: start from nothing
#
# which checks the environment the demos need, moves into the document's
# scratch folder .demo/DOC/ (git-ignored; --fresh empties it, so a document
# can be run again), and defines:
#
#   $R               --owner "$DEMO_OWNER" --repo "$DEMO_REPO", for tool calls
#   keep NAME VALUE  remember a value (an issue number, an attachment id) for
#                    later blocks: it is written to kept/NAME, and every later
#                    `. demos/lib.sh DOC` sets $NAME from it
#   field KEY...     print one value of the JSON forgejo-mcp printed on stdin,
#                    e.g. `field number`, `field 0 name`, `field attachment size`
#   rows KEY...      one line per element of the first JSON array (the answer
#                    itself, or its "items"): the KEYs' values
#   stable           mask what changes from run to run: the forge's URL (and
#                    so its port), the repository's name, UUIDs, timestamps,
#                    40-hex commit ids and numeric ids in JSON
#   make_pdf PAGE... write a small valid PDF to stdout, one page per PAGE: its
#                    text ('|' breaks a line), or @image for a page that is
#                    only a picture, as a scanned page is
#
# The scratch folder holds ./forgejo-mcp, a link to the binary in the
# repository root, so blocks call it as they would from the root.
# Needs only bash, coreutils, sed and awk; no jq, no python.

__demo_fail() {
	printf 'demos/lib.sh: %s\n' "$*" >&2
	# A block (bash -c) stops here; a shell someone sources this into stays.
	case $- in *i*) return 1 ;; *) exit 1 ;; esac
}

__demo_main() {
	local doc=${1-} fresh=${2-} v missing=
	case $doc in
	'' | */* | .*) __demo_fail "usage: . demos/lib.sh DOC [--fresh]" || return ;;
	esac
	for v in FORGEJO_URL FORGEJO_ACCESS_TOKEN DEMO_OWNER DEMO_REPO; do
		[ -n "${!v-}" ] || missing="$missing $v"
	done
	[ -z "$missing" ] || __demo_fail "set$missing (see demos/README.md)" || return
	# Only the documented environment counts: settings a user's shell may
	# carry would change which tools exist or how they answer.
	unset FORGEJO_TOKEN_FILE FORGEJO_CA_FILE FORGEJO_USER_AGENT "${!FORGEJO_MCP_@}"
	export LC_ALL=C TZ=UTC
	if [ "$fresh" = --fresh ]; then
		[ -x ./forgejo-mcp ] || __demo_fail "no ./forgejo-mcp here: run from the repository root after 'make build'" || return
		rm -rf ".demo/$doc" && mkdir -p ".demo/$doc/kept" && ln -s ../../forgejo-mcp ".demo/$doc/forgejo-mcp" ||
			__demo_fail "cannot create .demo/$doc" || return
	elif [ -n "$fresh" ]; then
		__demo_fail "unknown option $fresh: use --fresh or nothing" || return
	fi
	[ -d ".demo/$doc/kept" ] || __demo_fail "no .demo/$doc: run the document from its first block" || return
	cd ".demo/$doc" || return
	__demo_kept=$PWD/kept
	local f
	for f in kept/*; do
		[ -f "$f" ] && IFS= read -r "${f#kept/}" <"$f"
	done
	R="--owner $DEMO_OWNER --repo $DEMO_REPO"
}

keep() {
	case $1 in
	'' | *[!A-Za-z0-9_]* | [0-9]*) echo "keep: bad name '$1'" >&2; return 2 ;;
	esac
	[ -n "${2-}" ] || { echo "keep: no value for $1 (did the command before it fail?)" >&2; return 1; }
	printf '%s\n' "$2" >"$__demo_kept/$1" && printf -v "$1" '%s' "$2"
}

# field and rows read JSON as forgejo-mcp prints it: pretty-printed, two
# spaces per level, one member or element per line. That is all they parse.
field() {
	local IFS=/
	awk -v want="$*" -v mode=field "$__demo_json_awk"
}

rows() {
	local IFS=/
	awk -v want="$*" -v mode=rows "$__demo_json_awk"
}

__demo_json_awk='
function unquote(v,   out, i, c, u) {
	sub(/,$/, "", v)
	if (v !~ /^".*"$/) return v
	v = substr(v, 2, length(v) - 2)
	out = ""
	while ((i = index(v, "\\")) > 0) {
		out = out substr(v, 1, i - 1)
		c = substr(v, i + 1, 1)
		if (c == "n") out = out "\n"
		else if (c == "t") out = out "\t"
		else if (c == "u") {
			u = substr(v, i + 2, 4)
			if (u == "0026") out = out "&"
			else if (u == "003c") out = out "<"
			else if (u == "003e") out = out ">"
			else if (u == "0027") out = out "\047"
			else out = out "\\u" u
			v = substr(v, i + 6)
			continue
		} else out = out c
		v = substr(v, i + 2)
	}
	return out v
}
function matches(d,   i) {
	if (d != nwant) return 0
	for (i = 1; i <= d; i++) if (w[i] != "*" && w[i] != p[i]) return 0
	return 1
}
# opened notes a container that starts at depth d; rows reads the first
# array it meets (the answer itself, or its "items").
function opened(d, k) {
	kind[d] = k
	idx[d] = 0
	if (mode == "rows" && k == "[" && !adepth) { adepth = d; found = 1 }
}
BEGIN { nwant = split(want, w, "/"); found = 0; adepth = 0 }
{
	match($0, /^ */)
	d = RLENGTH / 2
	s = substr($0, RLENGTH + 1)
	if (s ~ /^[]}],?$/) {
		if (mode == "rows" && adepth && d == adepth) {
			line = ""
			for (i = 1; i <= nwant; i++) line = line (i > 1 ? " " : "") val[w[i]]
			print line
			split("", val)
			found = 1
		}
		next
	}
	if (d == 0) {
		if (s == "[" || s == "{") opened(1, s)
		else if (s == "[]" && mode == "rows") found = 1
		next
	}
	if (kind[d] == "[") {
		key = idx[d]++
		rest = s
	} else if (match(s, /^"([^"\\]|\\.)*": /)) {
		key = unquote(substr(s, 1, RLENGTH - 2))
		rest = substr(s, RLENGTH + 1)
	} else next
	p[d] = key
	sub(/,$/, "", rest)
	if (rest == "[" || rest == "{") { opened(d + 1, rest); next }
	if (mode == "rows") {
		if (rest == "[]" && !adepth) found = 1
		if (d == adepth + 1 && kind[adepth] == "[") val[key] = unquote(rest)
	} else if (matches(d)) {
		print unquote(rest)
		found = 1
	}
}
END {
	if (!found) {
		printf "%s: nothing at %s in the input\n", mode, want > "/dev/stderr"
		exit 1
	}
}'

stable() {
	local url=${FORGEJO_URL%/} esc='s/[][\.*^$#]/\\&/g'
	sed -e "s#$(printf '%s' "$url" | sed "$esc")#\$FORGEJO_URL#g" \
		-e "s#$(printf '%s' "$DEMO_OWNER/$DEMO_REPO" | sed "$esc")#\$DEMO_OWNER/\$DEMO_REPO#g" \
		-e "s#$(printf '%s' "$DEMO_REPO" | sed "$esc")#\$DEMO_REPO#g" \
		-e 's#[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}#<uuid>#g' \
		-e 's#[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\(\.[0-9]*\)\{0,1\}\(Z\|[+-][0-9][0-9]:[0-9][0-9]\)#<time>#g' \
		-e 's#\([^0-9a-f]\|^\)[0-9a-f]\{40\}\([^0-9a-f]\|$\)#\1<commit>\2#g' \
		-e 's#\("[a-z_]*id"\): [0-9][0-9]*#\1: <id>#g' \
		-e 's#\(forgejo://[^ ]*/attachments/\)[0-9][0-9]*#\1<id>#g'
}

make_pdf() {
	# One page per argument; '|' breaks a line; a page that is just
	# @image holds only a small picture, as a scanned page does.
	local out='%PDF-1.4'$'\n' i n=$# kids= xref page text line
	local -a objs=('<< /Type /Catalog /Pages 2 0 R >>' 'pages')
	for page in "$@"; do
		kids+="$((${#objs[@]} + 1)) 0 R "
		if [ "$page" = @image ]; then
			text='q 200 0 0 100 40 40 cm /Im1 Do Q'
			objs+=("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents $((${#objs[@]} + 2)) 0 R /Resources << /XObject << /Im1 $((${#objs[@]} + 3)) 0 R >> >> >>")
			objs+=("<< /Length ${#text} >>"$'\nstream\n'"$text"$'\nendstream')
			objs+=('<< /Type /XObject /Subtype /Image /Width 2 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 2 >>'$'\nstream\n''AB'$'\nendstream')
			continue
		fi
		text='BT /F1 18 Tf 22 TL 40 150 Td'
		local IFS='|'
		for line in $page; do text+=" ($line) Tj T*"; done
		unset IFS
		text+=' ET'
		objs+=("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents $((${#objs[@]} + 2)) 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>")
		objs+=("<< /Length ${#text} >>"$'\nstream\n'"$text"$'\nendstream')
	done
	objs[1]="<< /Type /Pages /Kids [${kids% }] /Count $n >>"
	local -a offsets=()
	for i in "${!objs[@]}"; do
		offsets+=("${#out}")
		out+="$((i + 1)) 0 obj"$'\n'"${objs[i]}"$'\nendobj\n'
	done
	xref=${#out}
	out+="xref"$'\n'"0 $((${#objs[@]} + 1))"$'\n'"0000000000 65535 f "$'\n'
	for i in "${offsets[@]}"; do out+="$(printf '%010d' "$i") 00000 n "$'\n'; done
	out+="trailer"$'\n'"<< /Size $((${#objs[@]} + 1)) /Root 1 0 R >>"$'\n'"startxref"$'\n'"$xref"$'\n''%%EOF'$'\n'
	printf '%s' "$out"
}

__demo_main "$@"
