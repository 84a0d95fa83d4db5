#!/usr/bin/env python3
"""`perfdata flamegraph`'s SVG in a real browser: headless Chromium driven
through ChromeDriver's WebDriver protocol (HTTP and JSON, Python's own
library only). The graph of a profile is opened as a file, then:
  - every frame is drawn where the SVG says (the script changed nothing
    on load) and hovering a frame shows its title at the bottom;
  - a click on a frame zooms into it: it spans the whole width, the frames
    above it are scaled by the same ratio, the frames below it (its
    callers) span the width faded, the rest are hidden; "Reset Zoom" shows;
  - Search opens a prompt; the regular expression typed there marks the
    frames whose names match, and "Matched: N%" gives the share of the
    width they cover (each column once), as computed here from the titles;
    "ic" makes it ignore case; a second click on the button clears it;
  - Reset Zoom puts every frame back.
Exit 0 with "N passed, 0 failed", or the failures; with no chromium or
chromedriver installed the step is skipped by the runner.

Usage: flamegraph_browser.py PERFDATA PROFILE...
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

passed = failed = 0


def check(what, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {what} {detail}'[:1500])


class Driver:
    def __init__(self):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        self.port = s.getsockname()[1]
        s.close()
        self.proc = subprocess.Popen(['chromedriver', f'--port={self.port}'], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call('GET', '/status')
                break
            except OSError:
                time.sleep(0.1)
        caps = {'capabilities': {'alwaysMatch': {'browserName': 'chrome', 'goog:chromeOptions': {
            'binary': os.environ.get('CHROMIUM', '/usr/bin/chromium'),
            'args': ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                     '--window-size=1400,1200']}}}}
        self.session = self.call('POST', '/session', caps)['sessionId']

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f'http://127.0.0.1:{self.port}{path}', data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode())['value']
        except urllib.error.HTTPError as e:
            raise RuntimeError(f'{method} {path}: {e.read().decode()[:500]}')

    def s(self, method, path, body=None):
        return self.call(method, f'/session/{self.session}{path}', body)

    def js(self, script, *args):
        return self.s('POST', '/execute/sync', {'script': script, 'args': list(args)})

    def element(self, css):
        v = self.s('POST', '/element', {'using': 'css selector', 'value': css})
        return next(iter(v.values()))

    def click(self, elem):
        self.s('POST', f'/element/{elem}/click', {})

    def close(self):
        try:
            self.s('DELETE', '')
        finally:
            self.proc.terminate()
            self.proc.wait()


STATE = '''
var out = [], gs = document.getElementById("frames").getElementsByTagName("g");
for (var i = 0; i < gs.length; i++) {
  var r = gs[i].getElementsByTagName("rect")[0];
  out.push({title: gs[i].getElementsByTagName("title")[0].textContent, x: r.getAttribute("x"),
            w: r.getAttribute("width"), y: r.getAttribute("y"), fill: r.getAttribute("fill"),
            shown: gs[i].style.display !== "none", cls: gs[i].getAttribute("class") || ""});
}
return out;'''


def name_of(title):
    i = title.rfind(' (')
    return title[:i] if i >= 0 else title


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for profile in argv[1:]:
        one(argv[0], profile)
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


def one(perfdata, profile):
    tmp = tempfile.mkdtemp(prefix='pd-browser-')
    svg = os.path.join(tmp, 'graph.svg')
    with open(svg, 'wb') as f:
        p = subprocess.run([perfdata, 'flamegraph', profile], stdout=f, stderr=subprocess.PIPE)
    check('perfdata flamegraph PROFILE: exit 0', p.returncode == 0, p.stderr.decode()[:300])
    text = open(svg, encoding='utf-8').read()
    drawn = [(m.group(1), m.group(2), m.group(4), m.group(3)) for m in
             re.finditer(r'<g>\n<title>(.*?)</title><rect x="([^"]*)" y="([^"]*)" width="([^"]*)"', text)]
    width = float(re.search(r'<svg [^>]*width="(\d+)"', text).group(1))
    d = Driver()
    try:
        d.s('POST', '/url', {'url': 'file://' + svg})
        state = d.js(STATE)
        check('the browser draws every frame of the SVG', len(state) == len(drawn) and len(state) > 3,
              f'{len(state)} of {len(drawn)}')
        check('the script moved nothing on load',
              sorted((s['x'], s['w'], s['y']) for s in state) == sorted((x, w, y) for _, x, w, y in drawn))
        byname = {}
        for s in state:
            byname.setdefault(name_of(s['title']), s)
        # hover: the details line shows the title
        # the widest frame narrower than the graph (a zoom that scales), else the widest above the root
        ybottom = max(float(t['y']) for t in state)
        above = [s for s in state if float(s['y']) < ybottom]
        narrow = [s for s in above if float(s['w']) < 0.9 * (width - 20)]
        target = max(narrow or above, key=lambda s: float(s['w']))
        idx = state.index(target)
        elem = d.js('return document.getElementById("frames").getElementsByTagName("g")[arguments[0]];', idx)
        elem_id = next(iter(elem.values()))
        d.s('POST', '/actions', {'actions': [{'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'},
                                              'actions': [{'type': 'pointerMove', 'origin': elem, 'x': 0, 'y': 0}]}]})
        details = d.js('return document.getElementById("details").textContent;')
        check('hovering a frame shows its title', details == 'Function: ' + target['title'], repr(details))
        # zoom into the widest frame above the root's children
        d.click(elem_id)
        after = d.js(STATE)
        z = after[idx]
        check('the clicked frame spans the width', (z['x'], z['w']) == ('10.0', f'{width - 20:.1f}'), str(z))
        x0, w0 = float(target['x']), float(target['w'])
        ratio = (width - 20) / w0
        ok = True
        for before, now in zip(state, after):
            bx, bw, by = float(before['x']), float(before['w']), float(before['y'])
            inside = by <= float(target['y']) and bx >= x0 - 1e-4 and bx + bw <= x0 + w0 + 1e-4
            below = by > float(target['y']) and bx <= x0 + 1e-4 and bx + bw >= x0 + w0 - 1e-4
            if inside:
                want = (f'{10 + (bx - x0) * ratio:.1f}', f'{bw * ratio:.1f}', True, '')
            elif below:
                want = ('10.0', f'{width - 20:.1f}', True, 'parent')
            else:
                want = (None, None, False, None)
            got = (now['x'], now['w'], now['shown'], now['cls'])
            if want[2] != got[2] or (want[2] and (abs(float(want[0]) - float(got[0])) > 0.11 or
                                                  abs(float(want[1]) - float(got[1])) > 0.11 or want[3] != got[3])):
                ok = False
                print(f'     zoom: {before["title"]}: want {want}, got {got}')
                break
        check('zoom: the frames above scaled, the callers full width and faded, the rest hidden', ok)
        unzoom = d.js('return document.getElementById("unzoom").getAttribute("class");')
        check('zoom: Reset Zoom shows', unzoom == '', repr(unzoom))
        # Reset Zoom
        d.click(d.element('#unzoom'))
        back = d.js(STATE)
        check('Reset Zoom puts every frame back', [(s['x'], s['w'], s['shown']) for s in back] ==
              [(s['x'], s['w'], True) for s in state])
        # search: a name that is in the graph, typed into the prompt
        word = name_of(target['title'])[:4]
        pattern = re.escape(word)
        d.click(d.element('#search'))
        d.s('POST', '/alert/text', {'text': pattern})
        d.s('POST', '/alert/accept', {})
        found = d.js(STATE)
        hits = [s for s in found if s['fill'] == 'rgb(230,0,230)']
        want_hits = [s for s in state if re.search(pattern, re.sub(r'_\[[kwij]\]$', '', name_of(s['title'])))]
        check('search marks the frames whose names match', sorted(h['title'] for h in hits) ==
              sorted(h['title'] for h in want_hits), f'{len(hits)} marked, {len(want_hits)} match')
        spans, covered, end = sorted((float(h['x']), float(h['x']) + float(h['w'])) for h in want_hits), 0.0, -1.0
        for a, b in spans:
            if a >= end:
                covered, end = covered + b - a, b
            elif b > end:
                covered, end = covered + b - end, b
        pct = 100 * covered / (width - 20)
        matched = d.js('return document.getElementById("matched").textContent;')
        m = re.match(r'Matched: ([0-9.]+)%$', matched)
        check('search: "Matched: N%" is the share the matches cover', m and abs(float(m.group(1)) - pct) <= 0.051,
              f'{matched!r}, computed {pct:.2f}%')
        # ignore case: the same pattern in upper case matches the same frames
        d.click(d.element('#search'))  # clears
        cleared = d.js(STATE)
        check('a second click on the button clears the search',
              not [s for s in cleared if s['fill'] == 'rgb(230,0,230)'] and
              d.js('return document.getElementById("matched").textContent;').strip() == '')
        d.click(d.element('#ignorecase'))
        d.click(d.element('#search'))
        d.s('POST', '/alert/text', {'text': pattern.upper()})
        d.s('POST', '/alert/accept', {})
        upper = [s for s in d.js(STATE) if s['fill'] == 'rgb(230,0,230)']
        check('ic: the search ignores case', sorted(h['title'] for h in upper) == sorted(h['title'] for h in want_hits),
              f'{len(upper)} marked')
    finally:
        d.close()
        subprocess.run(['rm', '-rf', tmp])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
