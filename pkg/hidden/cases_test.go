package hidden_test

// agreementCases put a marker word ({}, or {N} for the same word twice)
// in every place markdown can show, hide or collapse text; the live test
// renders each through the forge, the unit test checks the marks we expect
// of the ones that matter most.
var agreementCases = []string{
	// Prose, code, escapes and entities: shown.
	"plain {} text, Promise<string> {}, <workspace_id> {}, a < b && c > d {}",
	"`code {}` and `<!-- {} -->` and ``a `<b title=\"{}\">` c``",
	"```\n<!-- {} -->\n```\nafter {}",
	"~~~js\nconst a = '<!-- {} -->'\n~~~",
	"    <!-- {} --> indented code\n\npara {}",
	"\\<!-- {} --> escaped, &lt;!-- {} --&gt; as entities",
	"<http://example.com/{}> autolink, <a@b.example> {}",
	"footnote[^1] {}\n\n[^1]: note {}",
	"| a | b |\n|---|---|\n| {} <!-- {} --> | `<!-- {} -->` |",
	"- [ ] task {}\n- [x] done <!-- {} -->",
	"term {}\n: definition {}",
	// Comments.
	"<!-- {} -->",
	"text <!-- {} --> text {}",
	"<!-- {} --> {} after the comment, same line",
	"para\n    <!-- {} --> lazy continuation",
	"- item\n\n    <!-- {} --> in the item",
	"> quote <!-- {}\n> more --> {}",
	"text <!-- {}\n\nnot closed in the paragraph {} -->",
	"<!-->{} <!--->{}",
	"<div>\n<!-- {}\n\nswallowed {}\n\n-->\n</div>\n\nstill swallowed {}",
	"<!--\n{}\n\n{}\n-->\n{}",
	// Other markup dropped whole.
	"<?php {} ?> {}",
	"<!DOCTYPE {}> {}",
	"<![CDATA[ {} ]]> {}",
	"a <![CDATA[ x ]]> {}",
	"Promise<{}> and Vec<u8> {}",
	"<{}-tag>{}</{}-tag>",
	// Links and images.
	"[{}](http://x.example \"{}\") [{}](http://x.example '{}') [{}](http://x.example ({}))",
	"![{}](http://x.example/i.png \"{}\") [![{}](http://x.example/b.svg)](http://x.example)",
	"[{}][r] [{}][] [{1}]\n\n[r]: http://x.example \"{}\"\n[{1}]: http://x.example/{} '{}'",
	"[x][{1}] and [y][undefined {}]\n\n[{1}]: http://x.example",
	"[//]: # ({})\n[comment]: <> ({})\n\nafter {}",
	"[a [b](http://x.example) c](http://y.example \"{}\")",
	"[a](<http://x.example/a b> \"{}\")",
	// Raw HTML attributes and elements.
	"<img src=\"http://x.example/i.png\" alt=\"{}\" title=\"{}\" width=\"30\">",
	"text <span title=\"{}\" data-x=\"{}\" aria-label=\"{}\">{}</span>",
	"<abbr title=\"{}\">{}</abbr> <a href=\"#x\" title=\"{}\">{}</a>",
	"<input value=\"{}\"> <br data-x=\"{}\"> {}",
	"a <span style=\"display:none\">{}</span> b <div hidden>{}</div> <span style=\"font-size:0\">{}</span>",
	"a <span style=\"color:rgba(0,0,0,0)\">{}</span> <span style=\"color:#fff;background-color:#fff\">{}</span> <span style=\"color:transparent\">{}</span>",
	"<div style=\"color:hsla(0,0%,0%,0)\">\n\n{}\n\n</div>\n\nafter {}",
	"<p style=\"color:#00000000\">{}</p> {}",
	"<script>{}</script>\n\n{}",
	"a <script>{}</script> b {}",
	"<style>p { color: red } /* {} */</style>\n\n{}",
	"<svg>{}</svg> <video src=\"http://x.example/v.mp4\">{}</video> {}",
	"<textarea>{}</textarea> {}",
	"<object>{}</object> <noscript>{}</noscript> {}",
	"<p hidden>{}</p>",
	"<div>\n<img alt=\"{}\"\n  src=\"http://x.example/i.png\">\n</div>",
	// Details.
	"<details>\n<summary>{}</summary>\n\nbody {}\n\n```\ncode {}\n```\n<!-- {} -->\n</details>\n\nafter {}",
	"<details>\n\nno summary {}\n\n</details>",
	"<details open>\n<summary>s {}</summary>\n\nopen body {}\n</details>",
	"<details><summary>{}</summary>one line {}</details> {}",
	"<details>\n<summary>outer {}</summary>\n\n<details>\n<summary>inner {}</summary>\n\ndeep {}\n</details>\n\nmid {}\n</details>\n\nout {}",
	"> <details>\n> <summary>q {}</summary>\n>\n> quoted body {}\n\nafter the quote {}",
	// Headings, fences, front matter.
	"# Heading {} {#id .c data-x=\"{}\"}",
	"## Heading {} {.no-attrs} ##",
	"Setext {}\n===",
	"```go {} title=\"{}\"\ncode {}\n```",
	"---\ntitle: {}\nlist:\n  - {}\n---\nbody {}",
	"---\ngitea: none\nkey: {}\n---\nbody {}",
	"---\n# {}\n---\nbody {}",
	"---\nnot yaml {}\n---\nbody {}",
}
