#!/usr/bin/env bash
# The user's documents tell what the tool does, how to run it and how far to trust it, never the history of the work
# on it: no numbered issue or period of work, no earlier attempt or session of work, no "who found what when".
# Searched: README.md, docs/ (Markdown), the man pages, and every command's --help. An LDAP or tuning session is fine.
# Usage: no_history.sh SOURCE_DIR DIRBENCH_CLI
set -euo pipefail
src=$1 cli=$2
words='\bissues? #?[0-9]+|\b(work|numbered) (items?|periods?)\b|\bperiods? [0-9]+\b|\bsessions? [0-9]+\b'
words+='|\b(previous|earlier|prior|last|later) (sessions?|attempts?|tries|try|periods? of work)\b'
words+='|\b(attempt|try|stop) #?[0-9]+\b|\b(who|we|first) found\b|\bwas found (in|by|during)\b'
words+='|\b(the|this|that) (issue|ticket|work item) (asked|asks|said|wanted)\b|\bfiled by\b'
words+='|\b(since|until|before|after) (the )?(sessions?|periods?|issues?|work items?)\b|\b(an|the) earlier runs?\b'
words+='|\bthat is how\b|\((first|second|third) part\)|\bthe old [0-9][0-9.,]*(×|x\b)'
help=$(mktemp)
trap 'rm -f "$help"' EXIT
"$cli" --help >"$help"
mapfile -t commands < <(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$help" | sort -u)
((${#commands[@]} >= 8)) || { echo "no_history: found only ${#commands[@]} commands in dirbench-cli --help"; exit 1; }
for c in "${commands[@]}"; do
  { echo "== dirbench-cli $c --help"; "$cli" "$c" --help; } >>"$help" 2>&1 || true
done
mapfile -t files < <(cd "$src" && ls README.md docs/*.md docs/**/*.md packaging/man/*.1 2>/dev/null | sort -u)
found=0
for f in "${files[@]}"; do
  if hits=$(grep -niE "$words" "$src/$f"); then
    echo "no_history: $f tells the history of the work:" && echo "$hits" | sed 's/^/  /'
    found=1
  fi
done
if hits=$(grep -niE "$words" "$help"); then
  echo "no_history: a command's --help tells the history of the work:" && echo "$hits" | sed 's/^/  /'
  found=1
fi
echo "no_history: ${#files[@]} documents and the --help of ${#commands[@]} commands searched"
exit "$found"
