#!/usr/bin/env python3
"""The README's quick start and the header's must be examples/quickstart.c."""
import sys
qs = open('examples/quickstart.c').read()
readme = open('README.md').read()
header = open('perfdata.h').read()
ok = True
if qs not in readme:
    print('README.md does not contain examples/quickstart.c verbatim'); ok = False
indented = ''.join((' *   ' + l if l.strip() else ' *') + '\n' for l in qs.splitlines())
if indented not in header:
    print("perfdata.h's QUICK START is not examples/quickstart.c"); ok = False
if len(qs.splitlines()) >= 30:
    print('examples/quickstart.c has 30 lines or more'); ok = False
sys.exit(0 if ok else 1)
