#!/usr/bin/env python3
"""Size of a C/C++/CUDA file in C tokens, the measure of bench/reduce_bench.sh.

Whitespace and comments do not count; a preprocessor directive counts as '#' plus the tokens
of its line (`#include <cstdio>` is 5); a string or character literal is one token;
multi-character operators (`<<`, `->`, `::`, `<<<`) are one token each. It counts what
reducer::count_tokens counts (reducer/token_count.cpp, over common/cpp_lexer.cpp's tokens as
written), independently written, so the tool being measured does not measure itself.

usage: count_tokens.py FILE...   (prints one count per file; the total when several)
"""
import re
import sys

PUNCTUATION = sorted([
    "<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>", "::", "->", "++", "--", "<<", ">>", "<=",
    ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="], key=len, reverse=True)

TOKEN = re.compile(
    r"""
      (?P<comment>//[^\n]*|/\*.*?(\*/|\Z))
    | (?P<string>(u8|u|U|L)?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"
                |(u8|u|U|L)?"(\\.|[^"\\\n])*("|$)
                |(u8|u|U|L)?'(\\.|[^'\\\n])*('|$))
    | (?P<number>\.?[0-9]([eEpP][+-]|[0-9a-zA-Z_.]|'(?=[0-9a-zA-Z_]))*)
    | (?P<identifier>[A-Za-z_$][A-Za-z0-9_$]*)
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE)


def count(text, at_line_start=True):
    tokens = 0
    pos = 0
    while pos < len(text):
        c = text[pos]
        if c.isspace():
            if c == "\n":
                at_line_start = True
            pos += 1
            continue
        if c == "#" and at_line_start:
            end = pos
            while end < len(text) and text[end] != "\n":
                end += 2 if text[end] == "\\" and text[end + 1:end + 2] == "\n" else 1
            tokens += 1 + count(" " + text[pos + 1:end].replace("\\\n", "  "))
            pos = end
            continue
        at_line_start = False
        match = TOKEN.match(text, pos)
        if match and match.end() > pos:
            if match.lastgroup != "comment":
                tokens += 1
            pos = match.end()
            continue
        for p in PUNCTUATION:
            if text.startswith(p, pos):
                pos += len(p)
                break
        else:
            pos += 1
        tokens += 1
    return tokens


def main(paths):
    if not paths:
        sys.exit(__doc__.strip().splitlines()[-1])
    total = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            n = count(f.read())
        total += n
        print(n if len(paths) == 1 else f"{n} {path}")
    if len(paths) > 1:
        print(f"{total} total")


if __name__ == "__main__":
    main(sys.argv[1:])
