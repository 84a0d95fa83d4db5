#!/usr/bin/env python3
"""The API reference, generated from perfdata.h, and the rule that the tools
and examples touch only what it calls public.

    api_reference.py --write docs/reference.md   (make reference)
    api_reference.py --check docs/reference.md   (a step of tests/run.sh)

The reference lists, section by section (the `/* ---- name */` banners of
the header's declaration part), every function declared with PERFDATA_API
and every public function-like macro (prototype and the comment above or
beside it), every public typedef (struct, union, enum, callback) with each
field a caller may read and its comment, and the constants (#define
PERFDATA_*, values of anonymous enums). Names containing `__` are private
and left out. A struct member named `priv` declared as a struct (inline,
`struct tag` or a `__` type) is the private state: it is listed once as
"private: do not use" and its contents are not; a field whose comment
starts with "private" is listed the same way. (A `priv` of a public typedef
or scalar type, such as perfdata_branch_entry's, is an ordinary field.)
Parts inside `#ifdef PERFDATA_ZSTD` are marked.

--check runs four checks and ends with "N passed, N failed":
  - the header parses: at least one function and one struct, and every
    PERFDATA_API prototype and typedef of the declaration part is accounted
    for (a statement the parser does not understand is a failure);
  - the reference file is what --write would write (a diff otherwise);
  - no file in tools/ or examples/ (*.c, *.h, subdirectories included)
    touches a member named `priv` (`.priv` or `->priv`);
  - no such file touches (`.name`, `->name`) a field name that perfdata.h
    declares only in private state and nowhere as a public field, unless the
    tools or examples declare a struct or union with a member of that name
    themselves (a rough parse: the check is a heuristic by name).
"""
import bisect
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = 'perfdata.h'
CLIENT_DIRS = ('tools', 'examples')

BANNER = re.compile(r'^/\* -{3,} ?(.*?) \*/$')
CONDITIONAL = re.compile(r'#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)', re.S)
DEFINE = re.compile(r'#\s*define\s+(\w+)(\([^)]*\))?\s*(.*)', re.S)


class ParseError(Exception):
    pass


def private_name(name):
    return '__' in name


# ------------------------------------------------------------------ scanner

class Source:
    """Text with line numbers (1-based) by offset."""

    def __init__(self, text):
        self.text = text
        self.newlines = [i for i, c in enumerate(text) if c == '\n']

    def line(self, off):
        return bisect.bisect_left(self.newlines, off) + 1

    def at_line_start(self, off):
        i = off - 1
        while i >= 0 and self.text[i] in ' \t':
            i -= 1
        return i < 0 or self.text[i] == '\n'


class El:
    """A scanned element: 'comment', 'pp' (a preprocessor line), 'code' (a
    statement up to its `;`, or an enumerator) or 'banner'."""

    def __init__(self, src, kind, start, end):
        self.kind, self.start, self.end = kind, start, end
        self.raw = src.text[start:end]
        self.l0, self.l1 = src.line(start), src.line(max(start, end - 1))
        self.name = None

    def __repr__(self):
        return f'El({self.kind}, {self.l0}-{self.l1}, {self.raw[:40]!r})'


def skip_comment(t, i, end):
    if t.startswith('/*', i):
        j = t.find('*/', i + 2, end)
        return end if j < 0 else j + 2
    j = t.find('\n', i, end)
    return end if j < 0 else j


def skip_literal(t, i, end):
    q = t[i]
    i += 1
    while i < end and t[i] != q:
        i += 2 if t[i] == '\\' else 1
    return min(i + 1, end)


def pp_end(t, i, end):
    """End of the preprocessor line at i: continuations and comments that
    span lines included."""
    while i < end:
        if t.startswith('\\\n', i):
            i += 2
        elif t.startswith('/*', i) or t.startswith('//', i):
            i = skip_comment(t, i, end)
        elif t[i] in '"\'':
            i = skip_literal(t, i, end)
        elif t[i] == '\n':
            return i
        else:
            i += 1
    return end


def code_end(src, i, end, enum_body):
    """End of a statement (after its `;` at depth 0) or, in an enum body, of
    an enumerator (at its `,` at depth 0, the comma included)."""
    t = src.text
    depth = 0
    last = i
    while i < end:
        c = t[i]
        if t.startswith('/*', i) or t.startswith('//', i):
            i = skip_comment(t, i, end)
            continue
        if c in '"\'':
            i = last = skip_literal(t, i, end)
            continue
        if c == '#' and src.at_line_start(i):
            if enum_body and depth == 0:
                return last     # an enumerator ends before a directive
            i = pp_end(t, i, end)
            continue
        if c in '{([':
            depth += 1
        elif c in '})]':
            depth -= 1
            if depth < 0:
                return i + 1
        elif depth == 0 and c == (',' if enum_body else ';'):
            return i + 1
        i += 1
        if c not in ' \t\r\n':
            last = i
    return last


def scan(src, start, end, enum_body=False):
    t = src.text
    els = []
    i = start
    while i < end:
        c = t[i]
        if c in ' \t\r\n':
            i += 1
        elif t.startswith('/*', i) or t.startswith('//', i):
            j = skip_comment(t, i, end)
            e = El(src, 'comment', i, j)
            m = BANNER.match(e.raw)
            if m and e.l0 == e.l1:
                e.kind, e.name = 'banner', m.group(1).strip()
            els.append(e)
            i = j
        elif c == '#' and src.at_line_start(i):
            j = pp_end(t, i, end)
            els.append(El(src, 'pp', i, j))
            i = j
        else:
            # a statement ends at its `;` (an enumerator at its `,`, or at
            # its last character); comments after it are elements of their own
            j = code_end(src, i, end, enum_body)
            els.append(El(src, 'code', i, j))
            i = j
    return els


def strip_comments(raw):
    """raw without comments (each replaced by a space); string literals kept."""
    out = []
    i, n = 0, len(raw)
    while i < n:
        if raw.startswith('/*', i) or raw.startswith('//', i):
            i = skip_comment(raw, i, n)
            out.append(' ')
        elif raw[i] in '"\'':
            j = skip_literal(raw, i, n)
            out.append(raw[i:j])
            i = j
        else:
            out.append(raw[i])
            i += 1
    return ''.join(out)


def norm(code):
    """One line: continuations joined, whitespace collapsed, no space inside
    parentheses and brackets or before commas and semicolons."""
    code = code.replace('\\\n', ' ')
    code = re.sub(r'\s+', ' ', code).strip()
    code = re.sub(r'([(\[]) ', r'\1', code)
    code = re.sub(r' ([)\],;])', r'\1', code)
    return code


def comment_text(raw):
    """The text of a comment: delimiters gone, a ` * ` margin gone, lines
    after the first dedented to their common indentation."""
    if raw.startswith('//'):
        return raw[2:].strip()
    body = raw[2:-2] if raw.endswith('*/') else raw[2:]
    lines = body.split('\n')
    first, rest = lines[0].strip(), lines[1:]
    if rest and all(re.match(r'\s*\*( |$)', l) for l in rest if l.strip()):
        rest = [re.sub(r'^\s*\* ?', '', l) for l in rest]
    indents = [len(l) - len(l.lstrip()) for l in rest if l.strip()]
    cut = min(indents) if indents else 0
    rest = [l[cut:].rstrip() for l in rest]
    text = '\n'.join([first] + rest).strip('\n')
    return text.strip()


def inner_comments(src, e):
    """Comments inside a preprocessor element (beside a #define)."""
    out = []
    t, i = src.text, e.start
    while i < e.end:
        if t.startswith('/*', i) or t.startswith('//', i):
            j = skip_comment(t, i, e.end)
            out.append(El(src, 'comment', i, j))
            i = j
        elif t[i] in '"\'':
            i = skip_literal(t, i, e.end)
        else:
            i += 1
    return out


def attach(els):
    """Assigns comments: one that starts on the line where the element before
    it ends is beside that element; a run of comments whose last line is
    directly above an element (no blank line) leads it; the rest are notes.
    Returns ({element index: [comment El]}, [(index, comment El)] notes)."""
    docs = {}
    notes = []
    n = len(els)
    consumed = set()
    for idx, e in enumerate(els):
        if e.kind != 'comment':
            continue
        j = idx - 1
        while j >= 0 and els[j].kind == 'comment':
            j -= 1
        if j >= 0 and els[j].l1 == e.l0 and idx == j + 1:
            docs.setdefault(j, []).append(e)
            consumed.add(idx)
    for idx in range(n):
        if els[idx].kind == 'comment':
            continue
        line = els[idx].l0
        k = idx - 1
        run = []
        while k >= 0 and els[k].kind == 'comment' and k not in consumed and els[k].l1 + 1 == line:
            run.insert(0, els[k])
            line = els[k].l0
            k -= 1
        for c in run:
            consumed.add(els.index(c))
        if run:
            docs.setdefault(idx, [])[0:0] = run
    for idx, e in enumerate(els):
        if e.kind == 'comment' and idx not in consumed:
            notes.append((idx, e))
    return docs, notes


# ------------------------------------------------------------------ model

class Field:
    def __init__(self, name, ctype, decl, doc, private=False, nested=None):
        self.name, self.ctype, self.decl, self.doc = name, ctype, decl, doc
        self.private = private
        self.nested = nested    # member list of an inline struct/union


class Item:
    """A function, macro, type, constant group or note of a section."""

    def __init__(self, kind, name=None, zstd=False):
        self.kind = kind        # func macro struct enum callback opaque consts note
        self.name = name
        self.zstd = zstd
        self.doc = []           # comment texts
        self.proto = None
        self.fields = []
        self.values = []        # (name, value, doc) for enums and constants
        self.tag = None
        self.see = None         # the documented declaration this one goes with


class Section:
    def __init__(self, name):
        self.name = name
        self.intro = None
        self.items = []


class Header:
    def __init__(self):
        self.version = None
        self.config = None
        self.sections = []
        self.private_types = {}   # name -> member list (Field) of __ structs
        self.list_macros = {}     # X-macro list name -> body
        self.api_count = 0        # PERFDATA_API prototypes seen
        self.typedef_count = 0    # typedef statements seen

    def items(self, kind=None):
        for s in self.sections:
            for it in s.items:
                if kind is None or it.kind in kind:
                    yield it


def split_top(s, sep=','):
    parts, depth, cur = [], 0, []
    for c in s:
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if c == sep and depth == 0:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append(''.join(cur))
    return [p.strip() for p in parts if p.strip()]


def parse_member(code):
    """One member declaration (comments stripped, no `;`) -> [(name, type,
    declarator, inline body or None)]."""
    code = norm(code)
    m = re.match(r'^(?:(struct|union)\s*(\w*)\s*)\{(.*)\}\s*(.*)$', code, re.S)
    if m:
        kind, tag, body, rest = m.groups()
        ctype = f'{kind} {tag + " " if tag else ""}{{ ... }}'
        out = []
        for d in split_top(rest):
            dm = re.match(r'^(\**)\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)$', d)
            if not dm:
                raise ParseError(f'member declarator {d!r} in {code!r}')
            out.append((dm.group(2), ctype + (' ' + dm.group(1) if dm.group(1) else ''), dm.group(2) + dm.group(3), body))
        return out
    m = re.match(r'^(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$', code, re.S)
    if m:
        ret, name, params = m.groups()
        return [(name, f'{ret.strip()} (*)({params})', name, None)]
    decls = split_top(code)
    if not decls:
        raise ParseError(f'member {code!r}')
    m = re.match(r'^(.*?[\w\s])\s*(\**)\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)(:\s*\w+)?$', decls[0])
    if not m or not m.group(1).strip():
        raise ParseError(f'member {code!r}')
    base = m.group(1).strip()
    out = [(m.group(3), (base + ' ' + m.group(2)).strip(), m.group(3) + m.group(4).replace(' ', ''), None)]
    for d in decls[1:]:
        dm = re.match(r'^(\**)\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)(:\s*\w+)?$', d)
        if not dm:
            raise ParseError(f'member declarator {d!r} in {code!r}')
        out.append((dm.group(2), (base + ' ' + dm.group(1)).strip(), dm.group(2) + dm.group(3).replace(' ', ''), None))
    return out


def brace_span(src, start, end):
    """Offsets of the first `{` in [start, end) and of its matching `}`."""
    t = src.text
    i, depth, open_at = start, 0, None
    while i < end:
        if t.startswith('/*', i) or t.startswith('//', i):
            i = skip_comment(t, i, end)
            continue
        if t[i] in '"\'':
            i = skip_literal(t, i, end)
            continue
        if t[i] == '{':
            if depth == 0:
                open_at = i
            depth += 1
        elif t[i] == '}':
            depth -= 1
            if depth == 0:
                return open_at, i
        i += 1
    raise ParseError(f'unbalanced braces at line {src.line(start)}')


def parse_members(src, start, end):
    """The members of a struct/union body [start, end): (fields, head
    comments: those on the opening brace's line before any member)."""
    els = scan(src, start, end)
    docs, notes = attach(els)
    head = []
    fields = []
    open_line = src.line(start - 1)
    for idx, c in notes:
        if c.l0 == open_line and not any(e.kind == 'code' and e.start < c.start for e in els):
            head.append(comment_text(c.raw))
    for idx, e in enumerate(els):
        if e.kind == 'pp':
            continue
        if e.kind != 'code':
            continue
        code = strip_comments(e.raw).strip()
        if not code.endswith(';'):
            raise ParseError(f'member without ";" at line {e.l0}: {code!r}')
        doc = [comment_text(c.raw) for c in docs.get(idx, [])]
        # a comment on the opening brace's line is the struct's, not a member's
        if doc and docs[idx][0].l0 == open_line and idx > 0 and not any(x.kind == 'code' for x in els[:idx]):
            head.append(doc.pop(0))
        for name, ctype, decl, body in parse_member(code[:-1]):
            nested = None
            if body is not None:
                ob, cb = brace_span(src, e.start, e.end)
                nested, _ = parse_members(src, ob + 1, cb)
            private = name == 'priv' and (body is not None or private_name(ctype) or ctype.startswith(('struct ', 'union ')))
            private = private or bool(doc and re.match(r'private\b', doc[0], re.I))
            fields.append(Field(name, ctype, decl, doc, private, nested))
    return fields, head


def parse_enum_values(src, start, end, hdr, where):
    """Enumerators of an enum body: [(name, value, doc, heading)]; an
    X-macro list (LIST(HELPER) with `#define HELPER(name, value, text)
    PREFIX##name = (value),`) is expanded, its text becoming the doc."""
    els = scan(src, start, end, enum_body=True)
    docs, notes = attach(els)
    helpers = {}
    for e in els:
        if e.kind == 'pp':
            m = DEFINE.match(e.raw.strip())
            if m and m.group(2):
                pm = re.search(r'(\w*)##(\w+)', m.group(3))
                if pm:
                    helpers[m.group(1)] = pm.group(1)
    values = []
    note_at = {idx: c for idx, c in notes}
    for idx, e in enumerate(els):
        if e.kind == 'comment' and idx in note_at:
            values.append((None, None, [comment_text(e.raw)]))
            continue
        if e.kind != 'code':
            continue
        code = norm(strip_comments(e.raw)).rstrip(',').strip()
        if not code:
            continue
        # a comment on lines of its own heads the values below it; one
        # beside a value is that value's
        for c in docs.get(idx, []):
            if c.l1 < e.l0:
                values.append((None, None, [comment_text(c.raw)]))
        doc = [comment_text(c.raw) for c in docs.get(idx, []) if c.l0 >= e.l0]
        m = re.match(r'^(\w+)\((\w+)\)$', code)
        if m:
            lst, helper = m.groups()
            if lst not in hdr.list_macros or helper not in helpers:
                raise ParseError(f'{where}: cannot expand {code!r}')
            entries = re.findall(r'\bX\(\s*(\w+)\s*,\s*([^,]+?)\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)', hdr.list_macros[lst])
            if not entries:
                raise ParseError(f'{where}: {lst} has no X(name, value, "text") entries')
            for n, v, text in entries:
                values.append((helpers[helper] + n, v, [text]))
            continue
        m = re.match(r'^(\w+)(?:\s*=\s*(.+))?$', code, re.S)
        if not m:
            raise ParseError(f'{where}: enumerator {code!r}')
        values.append((m.group(1), m.group(2), doc))
    return values


def parse_header(path):
    text = open(path, encoding='utf-8').read()
    src = Source(text)
    hdr = Header()
    m = re.search(r'^#ifndef PERFDATA_H\s*$', text, re.M)
    impl = re.search(r'^/\*\s+IMPLEMENTATION\s+\*/\s*$', text, re.M)
    guard_end = re.search(r'^#endif /\* PERFDATA_H \*/', text, re.M)
    if not m or not impl:
        raise ParseError('no PERFDATA_H guard or no IMPLEMENTATION banner')
    end = min(impl.start(), guard_end.start() if guard_end else len(text))
    first = re.compile(r'^/\* -{3,} ?.*? \*/$', re.M).search(text, m.end(), end)
    if not first:
        raise ParseError('no section banner in the declaration part')

    # before the first banner: the version, and the documentation block's
    # CONFIGURATION MACROS
    vm = re.search(r'#define PERFDATA_VERSION_STRING "([^"]*)"', text[:first.start()])
    if not vm:
        raise ParseError('no PERFDATA_VERSION_STRING')
    hdr.version = vm.group(1)
    hdr.version_defines = re.findall(r'^#define (PERFDATA_VERSION_\w+) (.+)$', text[:first.start()], re.M)
    cm = re.search(r'^ \* CONFIGURATION MACROS\n(.*?)\n \*\n \* [A-Z]', text, re.M | re.S)
    if cm:
        hdr.config = '\n'.join(l[3:] if l.startswith(' * ') else l.lstrip(' *') for l in cm.group(1).split('\n'))

    els = scan(src, first.start(), end)
    # X-macro lists first: an enum may expand one defined anywhere
    for e in els:
        if e.kind == 'pp':
            dm = DEFINE.match(e.raw.strip())
            if dm and dm.group(2):
                hdr.list_macros[dm.group(1)] = dm.group(3)

    # drop __cplusplus blocks, note PERFDATA_ZSTD conditions
    kept, stack, skip_depth = [], [], 0
    for e in els:
        if e.kind == 'pp':
            cm = CONDITIONAL.match(e.raw.strip())
            if cm:
                d, cond = cm.group(1), strip_comments(cm.group(2)).strip()
                if d in ('if', 'ifdef', 'ifndef'):
                    if skip_depth or '__cplusplus' in cond:
                        skip_depth += 1
                    else:
                        stack.append('PERFDATA_ZSTD' in cond and d != 'ifndef')
                elif d == 'endif':
                    if skip_depth:
                        skip_depth -= 1
                    elif stack:
                        stack.pop()
                    else:
                        break       # the guard's #endif: the declarations end
                elif d in ('else', 'elif') and not skip_depth and stack:
                    stack[-1] = False
                e.kind = 'cond'
                kept.append(e)
                continue
        if skip_depth:
            continue
        e.zstd = any(stack)
        kept.append(e)

    # split into sections
    groups = []
    for e in kept:
        if e.kind == 'banner':
            groups.append((Section(e.name[:1].upper() + e.name[1:]), [], e.l0))
        elif groups:
            groups[-1][1].append(e)
    for sec, sels, line in groups:
        parse_section(src, hdr, sec, sels, line)
        hdr.sections.append(sec)

    # forward typedefs never defined stay opaque; defined ones are dropped
    defined = {it.name for it in hdr.items() if it.kind != 'opaque'}
    for s in hdr.sections:
        s.items = [it for it in s.items if not (it.kind == 'opaque' and it.name in defined)]

    # sanity: every PERFDATA_API prototype and typedef was understood
    decl_text = strip_comments(text[first.start():end])
    api = len(re.findall(r'^\s*PERFDATA_API\b', decl_text, re.M))
    if api != hdr.api_count:
        raise ParseError(f'{api} PERFDATA_API prototypes in the declarations, {hdr.api_count} parsed')
    td = len(re.findall(r'\btypedef\b', decl_text))
    if td != hdr.typedef_count:
        raise ParseError(f'{td} typedefs in the declarations, {hdr.typedef_count} parsed')
    return hdr


def is_define(e):
    return e.kind == 'pp' and DEFINE.match(e.raw.strip()) is not None


def parse_section(src, hdr, sec, els, banner_line):
    docs, notes = attach(els)
    # the section's intro: a comment right after the banner, unless it heads
    # a run of constants directly below it
    if els and els[0].kind == 'comment' and els[0].l0 == banner_line + 1:
        lead_of = [i for i, d in docs.items() if d and d[0] is els[0]]
        if not (lead_of and is_define(els[lead_of[0]])):
            sec.intro = comment_text(els[0].raw)
            for i in lead_of:
                docs[i] = [c for c in docs[i] if c is not els[0]]
            notes = [(i, c) for i, c in notes if c is not els[0]]
    note_at = {i: c for i, c in notes if c is not els[0] or sec.intro is None}

    consts = None       # the constant group being filled
    prev_const_line = None
    run_end, leader = None, None   # adjacent declarations and the documented first
    for idx, e in enumerate(els):
        leading = [c for c in docs.get(idx, []) if c.l1 < e.l0]
        beside = [c for c in docs.get(idx, []) if c.l0 >= e.l0]
        doc = [comment_text(c.raw) for c in leading + beside]
        if e.kind == 'comment':
            if idx in note_at:
                it = Item('note')
                it.doc = [comment_text(e.raw)]
                sec.items.append(it)
                consts = None
            continue
        if e.kind == 'cond':
            consts = None
            run_end = None
            continue
        zstd = e.zstd
        if e.kind == 'pp':
            code = strip_comments(e.raw).strip()
            if re.match(r'#\s*undef\b', code):
                continue
            beside = inner_comments(src, e) + beside
            doc = [comment_text(c.raw) for c in leading + beside]
            m = DEFINE.match(code)
            if not m:
                raise ParseError(f'line {e.l0}: unexpected preprocessor line {code!r}')
            name, args, value = m.group(1), m.group(2), norm(m.group(3))
            if private_name(name):
                consts = None
                continue
            if args is not None:
                it = Item('macro', name, zstd)
                it.proto = f'#define {name}{args} {value}'
                it.doc = doc
                sec.items.append(it)
                consts = None
                continue
            # a run of constants: adjacent lines. A comment above the run
            # heads it; one inside the run is the next constant's own.
            top = leading[0].l0 if leading else e.l0
            if consts is None or prev_const_line is None or top != prev_const_line + 1:
                consts = Item('consts', None, zstd)
                consts.heading = [comment_text(c.raw) for c in leading]
                leading = []
                sec.items.append(consts)
            own = [comment_text(c.raw) for c in leading + beside]
            consts.values.append((name, value, own))
            consts.zstd = consts.zstd and zstd
            prev_const_line = max([e.l1] + [c.l1 for c in beside])
            continue
        consts = None
        code = norm(strip_comments(e.raw))
        adjacent = run_end is not None and (leading[0].l0 if leading else e.l0) == run_end + 1
        run_end = max([e.l1] + [c.l1 for c in beside])
        if not adjacent:
            leader = None
        it = parse_declaration(src, hdr, e, code, zstd, leading, beside)
        if it is None:
            continue
        sec.items.append(it)
        if leading:
            leader = it.name
        elif leader and leader != it.name and not it.doc:
            it.see = leader


def parse_declaration(src, hdr, e, code, zstd, leading, beside):
    """A statement of the declaration part -> Item, or None when private."""
    lead = [comment_text(c.raw) for c in leading]
    side = [comment_text(c.raw) for c in beside]
    if code.startswith('typedef'):
        hdr.typedef_count += 1
    if code.startswith('PERFDATA_API '):
        hdr.api_count += 1
        m = re.match(r'^PERFDATA_API (.*?)\b(\w+)\s*\((.*)\);$', code, re.S)
        if not m:
            raise ParseError(f'line {e.l0}: prototype {code!r}')
        if private_name(m.group(2)):
            return None
        it = Item('func', m.group(2), zstd)
        it.proto = code[len('PERFDATA_API '):]
        it.doc = lead + side
        return it
    m = re.match(r'^(typedef\s+)?(struct|union|enum)\s*(\w*)\s*\{', code)
    if m:
        is_typedef, kind, tag = bool(m.group(1)), m.group(2), m.group(3)
        ob, cb = brace_span(src, e.start, e.end)
        after = norm(strip_comments(src.text[cb + 1:e.end])).rstrip(';').strip()
        name = after if is_typedef else tag
        if kind == 'enum' and not is_typedef and not tag and not after:
            values = parse_enum_values(src, ob + 1, cb, hdr, f'line {e.l0}')
            it = Item('consts', None, zstd)
            it.heading = lead + side
            it.values = [v for v in values if v[0] is None or not private_name(v[0])]
            return it
        if not name or not re.match(r'^\w+$', name):
            raise ParseError(f'line {e.l0}: declaration {code[:60]!r}')
        if kind == 'enum':
            values = parse_enum_values(src, ob + 1, cb, hdr, f'line {e.l0}')
            if private_name(name):
                return None
            it = Item('enum', name, zstd)
            it.values = [v for v in values if v[0] is None or not private_name(v[0])]
            it.doc = lead + side
        else:
            fields, head = parse_members(src, ob + 1, cb)
            if private_name(name):
                hdr.private_types[name] = fields
                if tag:
                    hdr.private_types[tag] = fields
                return None
            it = Item('struct', name, zstd)
            it.fields = fields
            it.doc = lead + head + side
        it.tag = tag
        return it
    # other typedefs: (kind, pattern, the group that is the name)
    for kind, pattern, group, flags in (('callback', r'^typedef (.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\);$', 2, re.S),
                                        ('opaque', r'^typedef (struct|union) (\w+) (\w+);$', 3, 0),
                                        ('alias', r'^typedef (.+?) (\w+);$', 2, 0)):
        m = re.match(pattern, code, flags)
        if m:
            if private_name(m.group(group)):
                return None
            it = Item(kind, m.group(group), zstd)
            it.proto = code
            it.doc = lead + side
            return it
    raise ParseError(f'line {e.l0}: statement not understood: {code[:80]!r}')


# ------------------------------------------------------------------ markdown

def anchor_of(title, used):
    a = title.strip().lower()
    a = re.sub(r'[^\w\- ]', '', a)
    a = a.replace(' ', '-')
    base, n = a, 0
    while a in used:
        n += 1
        a = f'{base}-{n}'
    used.add(a)
    return a


TOKEN = re.compile(
    r'(?<![\w`*])'
    r'(?:(?:perfdata|PERFDATA)_\w*\*?(?:(?:\.|->)\w+)*(?:\(\))?'  # our names
    r'|_\w+\(\)'                                                  # _next()
    r'|\*\w+'                                                     # *cpu
    r'|[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)*_?\*'                        # PERF_SAMPLE_*
    r'|[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)+'                            # ERR_TRUNCATED
    r'|[a-z]\w*_\*)')                                             # write_*


def md_inline(text, links, self_name=None, cell=False):
    """Comment text as Markdown: names in code spans (linked when they have
    an entry), stray characters escaped."""
    out = []
    for k, part in enumerate(re.split(r'(`[^`\n]*`)', text)):
        if k % 2:
            out.append(part)
            continue
        pieces = []
        last = 0
        for m in TOKEN.finditer(part):
            pieces.append(escape(part[last:m.start()]))
            tok = m.group(0)
            base = re.match(r'\w+', tok.lstrip('*'))
            base = base.group(0).rstrip('_') if base else ''
            if base in links and base != self_name:
                pieces.append(f'[`{tok}`](#{links[base]})')
            else:
                pieces.append(f'`{tok}`')
            last = m.end()
        pieces.append(escape(part[last:]))
        out.append(''.join(pieces))
    s = ''.join(out)
    if cell:
        s = s.replace('|', '\\|')
    return s


def escape(s):
    s = s.replace('\\', '\\\\').replace('*', '\\*').replace('<', '&lt;')
    s = re.sub(r'(?<!\w)_', r'\\_', s)
    return s


def md_block(text, links, self_name=None):
    """A comment as Markdown paragraphs; lines indented 4 or more (after the
    comment's own indentation) are code."""
    lines = text.split('\n')
    out, code = [], []

    def flush_code():
        while code and not code[-1].strip():
            code.pop()
        if code:
            cut = min(len(l) - len(l.lstrip()) for l in code if l.strip())
            if out and out[-1] != '':
                out.append('')
            out.append('```c')
            out.extend(l[cut:] for l in code)
            out.append('```')
            out.append('')
            code.clear()

    for l in lines:
        if l.startswith('    ') and l.strip():
            code.append(l)
            continue
        if code and not l.strip():
            code.append(l)
            continue
        flush_code()
        stripped = l.strip()
        if stripped.startswith('#'):
            stripped = '\\' + stripped
        out.append(md_inline(stripped, links, self_name) if stripped else '')
    while code and not code[-1].strip():
        code.pop()
    flush_code()
    while out and out[-1] == '':
        out.pop()
    return '\n'.join(out)


def one_line(text, links, self_name=None):
    return md_inline(' '.join(l.strip() for l in text.split('\n') if l.strip()), links, self_name, cell=True)


def type_md(ctype, links):
    """A field's type in a table cell: in a code span, linked to its entry."""
    names = re.findall(r'\b(?:perfdata|PERFDATA)_\w+', ctype)
    target = next((n for n in names if n in links), None)
    code = '`' + ctype.replace('|', '\\|') + '`'
    return f'[{code}](#{links[target]})' if target else code


ZSTD_NOTE = '*Only with `PERFDATA_ZSTD` defined before every include.*'


def render(hdr):
    used = set()
    links = {}
    L = []
    title = f'perfdata.h {hdr.version}: API reference'
    anchor_of(title, used)
    anchor_of('Contents', used)
    # anchors in document order: sections, then their entries
    sec_anchor = {}
    config_title = 'Configuration and version'
    config_anchor = anchor_of(config_title, used)
    for s in hdr.sections:
        sec_anchor[s.name] = anchor_of(s.name, used)
        for it in s.items:
            if it.name:
                links[it.name] = anchor_of(it.name, used)

    L.append(f'# {title}')
    L.append('')
    L.append('Generated from `perfdata.h` by `tests/api_reference.py` (`make reference`);'
             ' `make test` checks that it is current. Do not edit by hand.')
    L.append('')
    L.append('Everything listed here is public: the functions, the types and the fields'
             ' a caller may read, and the constants. A member listed as *private: do not'
             ' use* holds the library\'s own state; its contents may change in any release.'
             ' Names containing `__` are private and not listed. How to instantiate the'
             ' header, size the memory it needs, read its errors, and its byte-order and'
             ' thread-safety rules are described in the comment that opens `perfdata.h`.')
    L.append('')
    L.append('## Contents')
    L.append('')
    L.append(f'- [{config_title}](#{config_anchor})')
    for s in hdr.sections:
        names = [it for it in s.items if it.name]
        entry = f'- [{s.name}](#{sec_anchor[s.name]})'
        if s.items and all(it.zstd for it in s.items if it.kind != 'note'):
            entry += ' (`PERFDATA_ZSTD`)'
        if names:
            entry += ': ' + ', '.join(f'[`{it.name}`](#{links[it.name]})' for it in names)
        L.append(entry)
    L.append('')

    L.append(f'## {config_title}')
    L.append('')
    if hdr.config:
        L.append('```')
        L.append(hdr.config.rstrip())
        L.append('```')
        L.append('')
    L.append(', '.join(f'`{n}` {v}' for n, v in hdr.version_defines))
    L.append('')

    for s in hdr.sections:
        L.append(f'## {s.name}')
        L.append('')
        real = [it for it in s.items if it.kind != 'note']
        if real and all(it.zstd for it in real):
            L.append(ZSTD_NOTE)
            L.append('')
        if s.intro:
            L.append(md_block(s.intro, links))
            L.append('')
        consts = []
        for it in s.items:
            if it.kind == 'consts':
                consts.append(it)
                continue
            if it.kind == 'note':
                L.append(md_block(it.doc[0], links))
                L.append('')
                continue
            render_item(L, it, links, mark_zstd=not all(x.zstd for x in real))
        if consts:
            L.append('**Constants**')
            L.append('')
            for c in consts:
                render_consts(L, c, links, mark_zstd=not all(x.zstd for x in real))
    while L and L[-1] == '':
        L.pop()
    return '\n'.join(L) + '\n'


def render_item(L, it, links, mark_zstd):
    L.append(f'### {it.name}')
    L.append('')
    if it.zstd and mark_zstd:
        L.append(ZSTD_NOTE)
        L.append('')
    if it.kind in ('func', 'macro', 'callback', 'opaque', 'alias'):
        L.append('```c')
        L.append(it.proto)
        L.append('```')
        L.append('')
    for d in it.doc:
        L.append(md_block(d, links, it.name))
        L.append('')
    if it.see and it.see in links:
        L.append(f'Described with [`{it.see}`](#{links[it.see]}) above.')
        L.append('')
    if it.kind == 'struct':
        rows = []
        private = []
        for f in it.fields:
            if f.private:
                private.append(f.name)
                continue
            doc = one_line(' '.join(f.doc), links, it.name) if f.doc else ''
            rows.append(f'| `{f.decl}` | {type_md(f.ctype, links)} | {doc} |')
        if private:
            rows.append(f'| {", ".join(f"`{n}`" for n in private)} | | private: do not use |')
        if rows:
            L.append('| Field | Type | |')
            L.append('|---|---|---|')
            L.extend(rows)
            L.append('')
    if it.kind == 'enum':
        L.append('| Value | | |')
        L.append('|---|---|---|')
        for name, value, doc in it.values:
            if name is None:
                L.append(f'| | | {one_line(" ".join(doc), links, it.name)} |')
                continue
            L.append(f'| `{name}` | {"`" + value + "`" if value else ""} | {one_line(" ".join(doc), links, it.name) if doc else ""} |')
        L.append('')


def render_consts(L, c, links, mark_zstd):
    heading = [h for h in getattr(c, 'heading', []) if h]
    if heading:
        L.append(md_block(' '.join(heading) if all('\n\n' not in h for h in heading) and sum(len(h) for h in heading) < 200 else '\n\n'.join(heading), links))
        if c.zstd and mark_zstd:
            L[-1] += ' ' + ZSTD_NOTE
        L.append('')
    elif c.zstd and mark_zstd:
        L.append(ZSTD_NOTE)
        L.append('')
    values = c.values
    if any(v[2] for v in values if v[0]) or any(v[0] is None for v in values):
        L.append('| Name | Value | |')
        L.append('|---|---|---|')
        for name, value, doc in values:
            if name is None:
                L.append(f'| | | **{one_line(" ".join(doc), links)}** |')
                continue
            val = f'`{value}`' if value else ''
            L.append(f'| `{name}` | {val.replace("|", chr(92) + "|")} | {one_line(" ".join(doc), links) if doc else ""} |')
        L.append('')
    else:
        L.append(', '.join(f'`{n} = {v}`' if v else f'`{n}`' for n, v, d in values))
        L.append('')


# ------------------------------------------------------------------ clients

def strip_c(text):
    """C source with comments, string and character literals and #include
    lines blanked (newlines kept, so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith('/*', i) or text.startswith('//', i):
            j = skip_comment(text, i, n)
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text[i] in '"\'':
            j = skip_literal(text, i, n)
            out.append(text[i] + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + text[i])
            i = j
        else:
            out.append(text[i])
            i += 1
    s = ''.join(out)
    return re.sub(r'^[ \t]*#[ \t]*include\b[^\n]*', '', s, flags=re.M)


def client_files():
    files = []
    for d in CLIENT_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, d)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(('.c', '.h')):
                    files.append(os.path.join(dirpath, f))
    return files


def declared_members(code):
    """Member names of every struct and union body in C code (rough)."""
    names = set()
    for m in re.finditer(r'\b(?:struct|union)\b\s*\w*\s*\{', code):
        i, depth = m.end() - 1, 0
        while i < len(code):
            if code[i] == '{':
                depth += 1
            elif code[i] == '}':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = code[m.end():i]
        # nested bodies are visited by the outer loop; here only their
        # declarators count
        flat = re.sub(r'\{[^{}]*\}', ' ', body)
        while re.search(r'\{[^{}]*\}', flat):
            flat = re.sub(r'\{[^{}]*\}', ' ', flat)
        for stmt in flat.split(';'):
            stmt = stmt.strip()
            if not stmt or stmt.startswith('#'):
                continue
            fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', stmt)
            if fp:
                names.add(fp.group(1))
                continue
            for d in split_top(stmt):
                dm = re.search(r'(\w+)\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+)?\s*$', d)
                if dm:
                    names.add(dm.group(1))
    return names


def accesses(code):
    for m in re.finditer(r'(\.|->)\s*([A-Za-z_]\w*)', code):
        yield m.start(), m.group(1), m.group(2)


def field_names(fields, out):
    for f in fields:
        out.add(f.name)
        if f.nested:
            field_names(f.nested, out)


def private_fields(hdr):
    """Names declared in private state (inside `priv` members, recursively
    into the private types they use, and fields commented private), and the
    names of every public field."""
    priv, public = set(), set()

    def collect_private(fields, seen):
        for f in fields:
            priv.add(f.name)
            if f.nested:
                collect_private(f.nested, seen)
            for t in re.findall(r'\w+', f.ctype):
                if t in hdr.private_types and t not in seen:
                    seen.add(t)
                    collect_private(hdr.private_types[t], seen)

    for it in hdr.items(('struct',)):
        for f in it.fields:
            if f.private:
                if f.name == 'priv':
                    members = f.nested or []
                    for t in re.findall(r'\w+', f.ctype):
                        if t in hdr.private_types:
                            members = members + hdr.private_types[t]
                    collect_private(members, set())
                else:
                    priv.add(f.name)
            else:
                public.add(f.name)
                if f.nested:
                    field_names(f.nested, public)
    return priv - public, public


def check_clients(hdr):
    """(priv failures, private-field failures, files, private names)"""
    files = client_files()
    priv_bad, field_bad = [], []
    only_private, _ = private_fields(hdr)
    codes = {}
    own = set()
    for path in files:
        code = strip_c(open(path, encoding='utf-8', errors='replace').read())
        codes[path] = code
        own |= declared_members(code)
    flagged = only_private - own
    for path, code in codes.items():
        rel = os.path.relpath(path, ROOT)
        lines = code.split('\n')
        for off, op, name in accesses(code):
            ln = code.count('\n', 0, off) + 1
            where = f'{rel}:{ln}: {lines[ln - 1].strip()}'
            if name == 'priv':
                priv_bad.append(where)
            elif name in flagged:
                field_bad.append(f'{where}  ({op}{name} is private in perfdata.h)')
    dedup = lambda xs: list(dict.fromkeys(xs))
    return dedup(priv_bad), dedup(field_bad), files, only_private


# ------------------------------------------------------------------ main

def main(argv):
    if len(argv) != 3 or argv[1] not in ('--write', '--check'):
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    mode, out_path = argv[1], argv[2]
    shown = out_path
    out_path = os.path.abspath(out_path)
    os.chdir(ROOT)
    passed = failed = 0

    def result(ok, what, details=()):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f'ok   {what}')
        else:
            failed += 1
            print(f'FAIL {what}')
            for d in list(details)[:40]:
                print(f'     {d}')
            if len(details) > 40:
                print(f'     ... and {len(details) - 40} more')

    try:
        hdr = parse_header(HEADER)
        nf = sum(1 for _ in hdr.items(('func', 'macro')))
        nt = sum(1 for _ in hdr.items(('struct', 'enum', 'callback', 'opaque', 'alias')))
        ns = sum(1 for _ in hdr.items(('struct',)))
        nc = sum(len([v for v in it.values if v[0]]) for it in hdr.items(('consts',)))
        err = None
        if nf == 0 or ns == 0:
            err = f'{nf} functions and {ns} structs parsed: the parser is broken'
    except ParseError as e:
        hdr, err = None, f'{HEADER}: {e}'
    if mode == '--write':
        if err:
            print(f'{sys.argv[0]}: {err}', file=sys.stderr)
            return 1
        text = render(hdr)
        os.makedirs(os.path.dirname(out_path) or '.', exist_ok=True)
        with open(out_path, 'w', encoding='utf-8') as f:
            f.write(text)
        print(f'wrote {shown}: {len(hdr.sections)} sections, {nf} functions, {nt} types, {nc} constants')
        return 0

    result(err is None, f'{HEADER} parses: ' + (err or f'{len(hdr.sections)} sections, {nf} functions, {nt} types ({ns} structs), {nc} constants'))
    if hdr is None or err:
        print(f'{passed} passed, {failed + 3} failed')
        return 1
    want = render(hdr)
    try:
        have = open(out_path, encoding='utf-8').read()
    except OSError as e:
        have = None
        result(False, f'{shown} is what --write makes', [str(e), f'run: python3 tests/api_reference.py --write {shown}'])
    if have is not None:
        diff = list(difflib.unified_diff(have.split('\n'), want.split('\n'), shown, '--write would make', lineterm='', n=1))
        result(not diff, f'{shown} is what --write makes' + ('' if not diff else f' (run: make reference)'), diff)
    priv_bad, field_bad, files, names = check_clients(hdr)
    if not files:
        result(False, 'tools and examples found', [f'no *.c or *.h under {", ".join(CLIENT_DIRS)}'])
        result(False, 'tools and examples checked for private fields')
    else:
        result(not priv_bad, f'no tool or example touches a member named priv ({len(files)} files)', priv_bad)
        result(not field_bad, f'no tool or example touches a field perfdata.h declares only in private state ({len(names)} such names)', field_bad)
    print(f'{passed} passed, {failed} failed')
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
