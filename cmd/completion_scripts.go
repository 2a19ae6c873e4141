package cmd

// The completion scripts: each passes the words up to the cursor to
// `forgejo-mcp __complete` and offers what it prints (see completion.go).
// They call the binary the command line names, so ./forgejo-mcp completes
// as itself.

const bashCompletion = `# bash completion for forgejo-mcp (forgejo-mcp completion bash)
_forgejo_mcp() {
	local cur=${COMP_WORDS[COMP_CWORD]} line value q
	local -a out=()
	# One candidate a line, read as data: no word splitting, no globbing
	# (a candidate may be * or hold $( ), which the shell must never run).
	while IFS= read -r line; do
		out+=("$line")
	done < <("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	COMPREPLY=()
	if [[ ${out[0]-} == :files ]]; then
		compopt -o filenames 2>/dev/null
		while IFS= read -r line; do
			COMPREPLY+=("$line")
		done < <(compgen -f -- "$cur")
		return 0
	fi
	for line in "${out[@]}"; do
		value=${line%%$'\t'*}
		# Inserted as typed text: quoted for bash, so a name is a name.
		printf -v q '%q' "$value"
		COMPREPLY+=("$q")
	done
	if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}
complete -F _forgejo_mcp forgejo-mcp
`

const zshCompletion = `#compdef forgejo-mcp
# zsh completion for forgejo-mcp (forgejo-mcp completion zsh)
_forgejo_mcp() {
	local -a lines values descs
	local line
	lines=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	if [[ ${lines[1]} == :files ]]; then
		_files
		return
	fi
	for line in "${lines[@]}"; do
		[[ -z $line ]] && continue
		values+=("${line%%$'\t'*}")
		if [[ $line == *$'\t'* ]]; then
			descs+=("${line%%$'\t'*}  -- ${line#*$'\t'}")
		else
			descs+=("${line}")
		fi
	done
	(( ${#values} )) || return 1
	# compadd quotes each value for the command line (no -Q): a name
	# holding $( ), a backquote or a space is inserted as that text.
	if (( ${#values} == 1 )) && [[ ${values[1]} == */ ]]; then
		compadd -S '' -- "${values[@]}"
	else
		compadd -l -d descs -- "${values[@]}"
	fi
}
if (( $+functions[compdef] )); then
	compdef _forgejo_mcp forgejo-mcp
fi
`

const fishCompletion = `# fish completion for forgejo-mcp (forgejo-mcp completion fish)
function __forgejo_mcp_complete
	set -l words (commandline -opc)
	set -l cur (commandline -ct)
	set -l out ($words[1] __complete $words[2..-1] $cur 2>/dev/null)
	if test "$out[1]" = ":files"
		__fish_complete_path $cur
		return
	end
	printf '%s\n' $out
end
complete -c forgejo-mcp -f -a '(__forgejo_mcp_complete)'
`
