package hidden

import "strings"

// The element tables of the scanner. Each is a space-separated list read
// with hasWord: small, and no package-level maps to build at start.

// blockTags open an HTML block of CommonMark's type 6 (goldmark's list, the
// renderer Gitea and Forgejo use).
const blockTags = " address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem meta nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul "

// knownTags are the elements of HTML, obsolete ones included: their tags
// are markup the author meant. A tag of any other name (Promise<string>'s
// <string>) is dropped by the sanitiser and shown by nothing.
const knownTags = " a abbr acronym address applet area article aside audio b base basefont bdi bdo bgsound big blink blockquote body br button canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins isindex kbd keygen label legend li link listing main map mark marquee math menu menuitem meta meter multicol nav nextid nobr noembed noframes noscript object ol optgroup option output p param picture plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small source spacer span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr xmp "

// keptTags are the elements Gitea's sanitiser keeps (its own list and
// bluemonday's UGC policy): the others lose their tags before a browser
// builds the page.
const keptTags = " a abbr acronym address article aside b bdi bdo blockquote br caption center cite code col colgroup dd del details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hgroup hr i img ins kbd label li mark nav ol p picture pre q rp rt ruby s samp section small source span strike strong sub summary sup table tbody td tfoot th thead time tr tt u ul var video wbr "

// fmtTags are the HTML parser's formatting elements: left open, they are
// reopened inside the next element that gets text.
const fmtTags = " a b big code em font i nobr s small strike strong tt u "

// specialTags are the HTML parser's special elements: an end tag of
// another element does not close through them.
const specialTags = " address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp "

// voidTags have no content and no end tag.
const voidTags = " area base br col embed hr img input keygen link meta param source track wbr "

// dropTags are elements whose content the page does not show: the
// sanitiser removes script, style and the other raw-text elements with
// their content, an svg draws no text outside its text elements (which the
// sanitiser removes), a video shows its fallback content only to browsers
// without video.
const dropTags = " script style title iframe noembed noframes noscript object svg video template "

// rawTags hold raw text: nothing in them is markup until their end tag.
const rawTags = " script style title textarea xmp iframe noembed noframes noscript plaintext "

// paraTags close an open paragraph in the HTML parser, so an element of
// theirs opened inside a paragraph outlives it.
const paraTags = " address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr listing main menu nav ol p plaintext pre search section summary table ul xmp "

// plainAttrs hold no text a reader misses: link and image targets (shown
// as such in the source, as a markdown link's destination is), layout
// words and numbers. Any other attribute (title, alt, data-*, aria-*,
// style, hidden, a made-up name) is marked.
const plainAttrs = " align border cellpadding cellspacing checked class colspan dir disabled height href id lang loading media name nowrap open rel reversed rowspan scope span src srcset start target type valign width "

// urlAttrs are the plainAttrs whose value may be long (a URL); the others
// are plain only while short and free of white space.
const urlAttrs = " href src srcset "

func hasWord(list, w string) bool {
	if w == "" || len(w) > 16 {
		return false
	}
	i := strings.Index(list, w)
	for i >= 0 {
		if list[i-1] == ' ' && list[i+len(w)] == ' ' {
			return true
		}
		j := strings.Index(list[i+1:], w)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
