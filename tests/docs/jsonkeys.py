#!/usr/bin/env python3
"""The window and the CLI read records through typed values in core, never by key: counts the files in ui/ and app/
with a line that reads or writes JSON by a string-literal key (.value("…"), ["…"], .contains("…"), .remove("…"), with
any string-literal wrapper; settings and the command-line parser aside), and fails when more than MAX files do.
Usage: jsonkeys.py REPO [MAX]"""
import os
import re
import sys

KEY = re.compile(r'(\.value|\.contains|\.remove|\[)\s*\(?\s*(QStringLiteral|QLatin1String|QLatin1StringView|QString)?'
                 r'\s*\(?\s*u?"[a-z][a-z0-9_]*"')
ASIDE = re.compile(r'[Ss]ettings|parser|QCommandLine|isSet\(|\.option|positionalArguments|env\.value|environment\(\)'
                   r'|QProcessEnvironment')


def main():
    repo = sys.argv[1]
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    hits = {}
    for top in ('ui', 'app'):
        for folder, _, files in os.walk(os.path.join(repo, top)):
            for name in files:
                if not name.endswith(('.cpp', '.h')):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    lines = [n for n, line in enumerate(f, 1) if KEY.search(line) and not ASIDE.search(line)]
                if lines:
                    hits[os.path.relpath(path, repo)] = lines
    for path, lines in sorted(hits.items()):
        print(f'{path}: lines {", ".join(map(str, lines))}')
    print(f'{len(hits)} files read records by key (at most {most})')
    return 1 if len(hits) > most else 0


if __name__ == '__main__':
    sys.exit(main())
