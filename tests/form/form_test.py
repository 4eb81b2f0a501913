#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The form of the tree as a test (docs/architecture.md, "The rules of the form").

Reads the source tree as text, runs nothing but `bench help` (for the option check), and fails
with one line per finding, FILE:LINE: what. The floors and the files allowed to hold SQL are read
from docs/architecture.md, the table the doc and this test share.

usage: form_test.py SOURCE_ROOT [BENCH]    (no BENCH: the option check is skipped)
       form_test.py --self-test              each check finds what it is for, in a tree it writes
"""
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 100
CHECKED_DIRS = ("harness", "suites", "impls", "kmod")
SOURCE_EXT = (".c", ".h", ".cc", ".py", ".sh", ".S", ".in")
C_EXT = (".c", ".h", ".cc")


def strip_c(text):
    """Comments, string and character literals and preprocessor lines blanked (newlines kept),
    so that braces and semicolons are code. Returns (code, literals): literals is a list of
    (line, text) of every string literal, for the SQL check."""
    out, lits = [], []
    i, n, line = 0, len(text), 1
    bol = True   # at the beginning of a line (but for blanks): a '#' starts a directive
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line += 1
            bol = True
            i += 1
            continue
        if bol and c == "#":
            # a directive, with its continuation lines
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    line += 1
                    i += 2
                    continue
                if text.startswith("/*", i):   # a comment inside a directive may span lines
                    j = text.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    out.append(re.sub(r"[^\n]", " ", text[i:j]))
                    line += text.count("\n", i, j)
                    i = j
                    continue
                out.append(" ")
                i += 1
            continue
        if not c.isspace():
            bol = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            line += text.count("\n", i, j)
            i = j
        elif c in "\"'":
            j, buf = i + 1, []
            while j < n and text[j] != c:
                if text[j] == "\\":
                    buf.append(text[j:j + 2])
                    j += 2
                    continue
                if text[j] == "\n":
                    break
                buf.append(text[j])
                j += 1
            if c == '"':
                lits.append((line, "".join(buf)))
            out.append('""' if c == '"' else "' '")
            out.append(" " * max(0, j + 1 - i - 2))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), lits


def line_of(code, pos):
    return code.count("\n", 0, pos) + 1


IDENT = re.compile(r"[A-Za-z_]\w*")
NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__", "defined"}


def functions(code):
    """(name, first line, last line, body's open, body's close) of every function in code
    (stripped C). A block
    opened at the top level after a parameter list is a function; extern "C" and namespace blocks
    are looked into."""
    found = []
    depth_stack = []   # for each open brace: 'fn', 'open' (transparent) or 'other'
    stmt_start = 0
    i, n = 0, len(code)
    fn_open = None
    while i < n:
        c = code[i]
        if c == "{":
            top = all(k == "open" for k in depth_stack)
            kind = "other"
            if top:
                head = code[stmt_start:i]
                h = head.strip()
                if re.search(r"\b(namespace|extern\s+\"\")\s*\w*\s*$", h):
                    kind = "open"
                elif h.endswith(")") or re.search(r"\)\s*(const|noexcept|override|__attribute__\s*\(\(.*\)\))\s*$", h):
                    if "=" not in re.sub(r"\([^()]*\)", "", h.split("(")[0]) and not re.match(r"\s*(struct|union|enum)\b[^(]*$", h):
                        # the function's name: the identifier right before its parameter list
                        depth, j = 0, len(head) - 1
                        while j >= 0:
                            if head[j] == ")":
                                depth += 1
                            elif head[j] == "(":
                                depth -= 1
                                if depth == 0:
                                    break
                            j -= 1
                        m = re.search(r"([A-Za-z_][\w:~]*)\s*$", head[:j])
                        if m and m.group(1) not in NOT_FUNCTIONS:
                            kind = "fn"
                            fn_open = (m.group(1), line_of(code, stmt_start + m.start(1)), i)
            depth_stack.append(kind)
            i += 1
            stmt_start = i
            continue
        if c == "}":
            kind = depth_stack.pop() if depth_stack else "other"
            if kind == "fn" and fn_open:
                found.append((fn_open[0], fn_open[1], line_of(code, i), fn_open[2], i))
                fn_open = None
            i += 1
            if all(k == "open" for k in depth_stack):
                stmt_start = i
            continue
        if c == ";" and all(k == "open" for k in depth_stack):
            stmt_start = i + 1
        i += 1
    return found


def top_level_statements(code, fns):
    """(text, line) of each statement at file scope: function bodies become ';' (a definition then
    reads as a prototype), struct bodies and initializers stay inside their statement."""
    chars = list(code)
    for _, _, _, open_, close in fns:
        for k in range(open_, close + 1):
            if chars[k] != "\n":
                chars[k] = " "
        chars[open_] = ";"
    flat = "".join(chars)
    out, depth, start = [], 0, 0
    for i, c in enumerate(flat):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == ";" and depth == 0:
            out.append((flat[start:i + 1], line_of(flat, start + len(flat[start:i + 1]) - len(flat[start:i + 1].lstrip()))))
            start = i + 1
    return out


def without_blocks(s):
    depth, out = 0, []
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def is_mutable_declaration(stmt):
    """A file-scope or static variable whose object can change: no const on the object itself."""
    s = " ".join(without_blocks(stmt).split())
    if not s.endswith(";"):
        return False
    s = s[:-1].strip()
    if not s or re.match(r"(typedef|extern|_Static_assert|static_assert|using|template)\b", s):
        return False
    if re.match(r"(struct|union|enum)\b\s*\w*\s*$", s):
        return False   # a type's declaration, no object
    if "sig_atomic_t" in s or "PB_LAYOUT_DATA" in s:
        return False   # a signal handler's flag, a build's text kept in .data (pb.h): the ones allowed
    decl = s.split("=")[0]
    # a prototype: the first parameter list follows a name (a pointer to a function has '(*')
    m = re.search(r"([A-Za-z_]\w*)\s*\(\s*(\*?)", decl)
    if m and not m.group(2) and m.group(1) not in ("__attribute__", "_Alignas", "alignas"):
        return False
    if not IDENT.search(decl):
        return False
    for part in decl.split(","):
        if "*" in part:
            last = part.rsplit("*", 1)[1]
            if not re.match(r"\s*const\b", last):
                return True
        elif not re.search(r"\bconst\b", decl):
            return True
    return False


def static_locals(code):
    """(line, text) of each 'static' declaration inside a function body."""
    out = []
    depth = 0
    for m in re.finditer(r"[{}]|\bstatic\b[^;{}()]*(\([^;{}]*\))?[^;{}]*;", code):
        t = m.group(0)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif depth > 0:
            out.append((line_of(code, m.start()), t))
    return out


def read_floors(root):
    """The floors of harness/, bottom first, from docs/architecture.md's table, and the files
    besides harness/store/ that may hold SQL (the paragraph that starts **SQL**)."""
    path = os.path.join(root, "docs", "architecture.md")
    floors, sql_files = [], []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        m = re.match(r"\|\s*`(\w+)/`\s*\|", line)
        if m:
            floors.append(m.group(1))
    para = re.search(r"^\*\*SQL\*\*(.*?)(?:\n\s*\n|\Z)", text, re.M | re.S)
    if para:
        sql_files = re.findall(r"`(harness/[\w/]+\.c)`", para.group(1))
    return floors, sql_files


SQL_TEXT = re.compile(r"\b(SELECT\b.*\bFROM\b|SELECT\s+(count|max|min|1)\b|INSERT\s+INTO\b|DELETE\s+FROM\b|"
                      r"UPDATE\s+\w+\s+SET\b|CREATE\s+(TABLE|INDEX|UNIQUE|VIEW|TEMP)\b|DROP\s+(TABLE|INDEX|VIEW)\b|"
                      r"ALTER\s+TABLE\b|PRAGMA\s+\w+|^\s*FROM\s+\w+|^\s*WHERE\s+\w+\s*[=<>]|\bJOIN\s+\w+\s+\w+\s+ON\b|"
                      r"BEGIN\s+IMMEDIATE|^\s*(BEGIN|COMMIT|ROLLBACK)\s*$)")
SQL_CALL = re.compile(r"\b(pb_db_prepare|pb_db_exec|pb_db_begin|sqlite3_prepare\w*|sqlite3_exec|PQexec\w*|PQprepare)\s*\(")


def source_files(root):
    for d in CHECKED_DIRS:
        for base, dirs, files in os.walk(os.path.join(root, d)):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    yield os.path.relpath(os.path.join(base, f), root)


def check_tree(root):
    problems = []
    floors, sql_files = read_floors(root)
    if len(floors) < 2:
        problems.append("docs/architecture.md: no table of floors found (rows '| `base/` | ... |')")
    rank = {f: i for i, f in enumerate(floors)}
    header_floor = {}
    for f in floors:
        d = os.path.join(root, "harness", f)
        for h in os.listdir(d) if os.path.isdir(d) else []:
            if h.endswith(".h") or h.endswith(".h.in"):
                header_floor[h.replace(".h.in", ".h")] = f
    for rel in source_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        nlines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if nlines > MAX_FILE_LINES:
            problems.append(f"{rel}:{nlines}: file has {nlines} lines (at most {MAX_FILE_LINES}): split it by concern")
        if not rel.endswith(C_EXT):
            continue
        code, lits = strip_c(text)
        fns = functions(code)
        for name, first, last, _, _ in fns:
            if last - first + 1 > MAX_FUNCTION_LINES:
                problems.append(f"{rel}:{first}: function {name} has {last - first + 1} lines "
                                f"(at most {MAX_FUNCTION_LINES})")
        parts = rel.split(os.sep)
        my_floor = parts[1] if parts[0] == "harness" and len(parts) > 2 else None
        for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', text, re.M):
            inc, ln = m.group(1), text.count("\n", 0, m.start()) + 1
            if inc.startswith("../") or "/../" in inc:
                problems.append(f"{rel}:{ln}: #include \"{inc}\" climbs out of its folder")
                continue
            target = header_floor.get(os.path.basename(inc))
            if target is None:
                continue
            if my_floor in rank and rank[target] > rank[my_floor]:
                problems.append(f"{rel}:{ln}: {my_floor}/ includes {target}/{os.path.basename(inc)}, a higher floor")
            if parts[0] == "suites" and target not in ("base", "suite"):
                problems.append(f"{rel}:{ln}: a suite includes {target}/{os.path.basename(inc)} (suites: base/ and suite/ only)")
        in_store = rel.startswith(os.path.join("harness", "store") + os.sep)
        if parts[0] == "harness" and not in_store and rel not in sql_files and rel.endswith((".c", ".cc")):
            seen = set()
            for ln, lit in lits:
                if SQL_TEXT.search(lit) and ln not in seen:
                    seen.add(ln)
                    problems.append(f"{rel}:{ln}: SQL outside harness/store/: \"{lit.strip()[:50]}\"")
            for m in SQL_CALL.finditer(code):
                problems.append(f"{rel}:{line_of(code, m.start())}: {m.group(1)}() outside harness/store/")
        if parts[0] == "harness" and rel.endswith((".c", ".h")):
            for stmt, ln in top_level_statements(code, fns):
                if is_mutable_declaration(stmt):
                    first = " ".join(stmt.split())[:60]
                    problems.append(f"{rel}:{ln}: file-scope mutable state: {first}")
            for ln, stmt in static_locals(code):
                if is_mutable_declaration(stmt):
                    problems.append(f"{rel}:{ln}: a function's static mutable state: {' '.join(stmt.split())[:60]}")
    return problems


def internal_options(root):
    """The options declared internal (PB_OPT_INTERNAL) and those whose help says they are bench's
    own or for tests but are not declared so."""
    names, public, undeclared = set(), set(), []
    decl = re.compile(r'\b(PB_OPT\w*)\s*\(\s*"([\w-]+)"\s*,\s*(?:"[^"]*"|NULL)\s*,\s*"([^"]*)"')
    for rel in source_files(root):
        if not rel.endswith(".c"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in decl.finditer(text):
            macro, name, help0 = m.groups()
            ln = text.count("\n", 0, m.start()) + 1
            if macro.startswith("PB_OPT_INTERNAL"):
                names.add(name)
                continue
            public.add(name)
            if re.match(r"(bench's own|internal|test[- ]only|for tests)\b", help0, re.I):
                undeclared.append(f"{rel}:{ln}: --{name} is internal ('{help0[:30]}') but not PB_OPT_INTERNAL")
    # a name that one command keeps as an old spelling and another shows (--out) is looked for
    # only where it is never public: the help of a command that has it shows it rightly
    return names - public, undeclared


def check_help(root, bench):
    problems = []
    hidden, undeclared = internal_options(root)
    problems += undeclared
    top = subprocess.run([bench, "help"], capture_output=True, text=True, timeout=60)
    cmds = re.findall(r"^  (\w+)\s", top.stdout, re.M)
    if not cmds:
        return problems + [f"{bench} help: no commands listed"]
    for cmd in cmds:
        for args in (["help", cmd], ["help", "--man", cmd], ["help", "--options", cmd]):
            r = subprocess.run([bench] + args, capture_output=True, text=True, timeout=60)
            shown = r.stdout.replace("\\-", "-")
            for name in sorted(hidden):
                if re.search(r"--" + re.escape(name) + r"\b", shown):
                    problems.append(f"bench {' '.join(args)}: shows internal option --{name}")
    return problems


SELF_TEST_DOC = """# Architecture
| floor | what is there | may include |
|---|---|---|
| `base/` | b | itself |
| `store/` | s | base |
| `cli/` | c | everything |

**SQL** lives in `harness/store/` and in `harness/cli/data.c`.
"""

SELF_TEST_FILES = {
    "harness/base/long.c": "int x_(void);\n" * (MAX_FILE_LINES + 1),
    "harness/base/fn.c": "int f(void)\n{\n" + "    g();\n" * MAX_FUNCTION_LINES + "}\n"
                         "int short_one(int a)\n{\n    return a; /* } */\n}\n",
    "harness/base/up.c": '#include "cmd.h"\n#include "low.h"\n#include "../x.h"\n',
    "harness/base/low.h": "int low(void);\n",
    "harness/cli/cmd.h": "int cmd(void);\n",
    "harness/cli/sql.c": 'const char *const q = "SELECT id FROM runs WHERE x = 1";\n'
                         'int h(void *d) { return pb_db_prepare(d, q, 0); }\n',
    "harness/cli/data.c": 'const char *const q = "SELECT id FROM runs";\n',
    "harness/store/ok.c": 'const char *const q = "DELETE FROM runs";\n',
    "harness/cli/state.c": "static int counter;\nstatic const char *name = \"x\";\n"
                           "static const char *const fine = \"y\";\nstatic volatile sig_atomic_t stop;\n"
                           "static const int table[] = {1, 2};\nstruct s { int a; };\nenum { A, B };\n"
                           "const char *fn(int (*cb)(void));\nint k(void)\n{\n    static int calls;\n"
                           "    return calls++;\n}\n",
    "harness/cli/opts.c": 'PB_OPT("kid", "DIR", "bench\'s own: the child", 1),\n'
                          'PB_OPT_INTERNAL("hidden", "N", "bench\'s own", 2),\n',
}

SELF_TEST_EXPECTED = [
    "harness/base/long.c:801: file has 801 lines",
    "harness/base/fn.c:1: function f has 103 lines",
    "harness/base/up.c:1: base/ includes cli/cmd.h, a higher floor",
    "harness/base/up.c:3: #include \"../x.h\" climbs out of its folder",
    "harness/cli/sql.c:1: SQL outside harness/store/",
    "harness/cli/sql.c:2: pb_db_prepare() outside harness/store/",
    "harness/cli/state.c:1: file-scope mutable state: static int counter",
    "harness/cli/state.c:2: file-scope mutable state: static const char *name",
    "harness/cli/state.c:11: a function's static mutable state: static int calls",
    "harness/cli/opts.c:1: --kid is internal",
]


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "docs", "architecture.md"), "w", encoding="utf-8") as f:
            f.write(SELF_TEST_DOC)
        for rel, text in SELF_TEST_FILES.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = check_tree(root)
        hidden, undeclared = internal_options(root)
        found += undeclared
    missing = [e for e in SELF_TEST_EXPECTED if not any(p.startswith(e) for p in found)]
    extra = [p for p in found if not any(p.startswith(e) for e in SELF_TEST_EXPECTED)]
    if hidden != {"hidden"}:
        extra.append(f"internal options read as {sorted(hidden)}, want ['hidden']")
    for m in missing:
        print(f"self-test: not found: {m}")
    for x in extra:
        print(f"self-test: found but not planted: {x}")
    print(f"form self-test: {len(SELF_TEST_EXPECTED) - len(missing)} of {len(SELF_TEST_EXPECTED)} planted "
          f"findings found, {len(extra)} unexpected", file=sys.stderr)
    return 1 if missing or extra else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    problems = check_tree(root)
    if len(argv) > 2:
        problems += check_help(root, argv[2])
    for p in problems:
        print(p)
    print(f"form: {len(problems)} finding(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
