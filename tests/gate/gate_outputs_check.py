# SPDX-License-Identifier: GPL-2.0-only
"""A gate document in each of its formats, read by a real parser of that format, checked against
what the gates decided (gate_outputs_test.sh; docs/gate-outputs.md).

usage: gate_outputs_check.py VERDICT GATES JSON [md=FILE] [junit=FILE] [codequality=FILE]
                             [annotations=FILE] [under=N] [noise] [errors=N] [hide=TEXT]...
  VERDICT   the document's verdict (pass, regression, inconclusive, error)
  GATES     how many gates it holds
  JSON      the document (json module); the others are views of it, checked against it
  under=N   cells significantly slower but under their threshold, in all
  noise     some run carries a noise warning
  errors=N  suites whose gate could not run
  hide=TEXT text that no view a person reads may hold (an absolute path of this machine)
Prints one FAIL line per finding; exit 1 if any."""
import json
import re
import sys
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

bad = []
verdict, ngates, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
opts = dict(a.split('=', 1) if '=' in a else (a, '') for a in sys.argv[4:])
hides = [a.split('=', 1)[1] for a in sys.argv[4:] if a.startswith('hide=')]


def check(cond, what):
    if not cond:
        bad.append(what)


doc = json.load(open(path))
check(doc.get('schema') == 'patchbench-gate' and doc.get('schema_version') == 1, 'schema and version')
check(doc['verdict'] == verdict, 'verdict %r, want %r' % (doc['verdict'], verdict))
exits = {'pass': 0, 'regression': 1, 'error': 2, 'inconclusive': 3}
check(doc['exit_status'] == exits[verdict], 'exit_status %r' % doc['exit_status'])
check(len(doc['gates']) == ngates, '%d gates, want %d' % (len(doc['gates']), ngates))
check(doc['sentence'].lower().startswith(verdict), 'sentence %r' % doc['sentence'])

cells = [(g, c) for g in doc['gates'] for c in g['cells']]
count = lambda v: sum(1 for _, c in cells if c['verdict'] == v)
regressions, inconclusive = count('regression'), count('inconclusive') + count('no data')
under = [(g, c) for g, c in cells if c['under_threshold']]
s = doc['summary']
check(s['cells'] == len(cells) and s['regression'] == count('regression') and s['under_threshold'] == len(under),
      'summary %r against the cells' % s)
if 'under' in opts:
    check(len(under) == int(opts['under']), '%d under the threshold, want %s' % (len(under), opts['under']))
for g, c in under:
    check(c['verdict'] == 'pass' and c['ratio'] > 1 and c['p_holm'] < g['alpha'], 'under-threshold cell %r' % c)
    check(re.fullmatch(r'slower by [0-9.]+ % \[-?[0-9.]+ %, [0-9.]+ %\], under the [0-9.]+ % threshold', c['finding'] or ''),
          'finding %r' % c['finding'])
for g in doc['gates']:
    check(g['summary']['cells'] == len(g['cells']), 'gate summary')
    check(g['runs'] and all(isinstance(r['id'], int) for r in g['runs']), 'gate %s: run ids' % g['title'])
    check(g['provenance'].get('machine_id'), 'gate %s: provenance' % g['title'])
    check(all('mdc' in c for c in g['cells']), 'gate %s: MDC per cell' % g['title'])
    check(g['thresholds'] and g['thresholds']['value'] > 0, 'gate %s: thresholds' % g['title'])
warnings = [w for g in doc['gates'] for w in g['noise_warnings']]
if 'noise' in opts:
    check(warnings and all(w['warning'] for w in warnings), 'no noise warning carried')
check(len(doc['errors']) == int(opts.get('errors', 0)), 'errors %r' % doc['errors'])


def label(c):
    a, x = c['baseline'], c['candidate']
    return '%s%s: %s %s %d B' % (x, ' vs ' + a if a != x else '', c['variant'], c['op'], c['size_bytes'])


def gate_seconds(g):
    """a gate's time as the JUnit shows it: the sum of its runs' durations, None without them"""
    stamp = lambda s: datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=timezone.utc).timestamp()
    d = [stamp(r['ended_at']) - stamp(r['started_at']) for r in g.get('runs', [])
         if r.get('started_at') and r.get('ended_at')]
    return sum(d) if d else None


def same_time(attr, seconds):
    if seconds is None:
        return attr is None
    return attr is not None and re.fullmatch(r'[0-9]+\.[0-9]{3}', attr) and abs(float(attr) - seconds) < 0.0006


def no_hidden(what, text):
    for h in hides:
        check(h not in text, '%s holds %r' % (what, h))


if 'md' in opts:
    md = open(opts['md'], encoding='utf-8').read()
    first = md.splitlines()[0]
    check(first.startswith('**' + verdict.capitalize() + '**'), 'md: first line %r' % first)
    head, _, details = md.partition('<details>')
    check(details and '</details>' in details, 'md: the rest folded in <details>')
    # regressions and slowdowns under the threshold before the fold, regressions first
    rows = [l for l in head.splitlines() if l.startswith('| ') and ' B |' in l]
    want = [c for _, c in cells if c['verdict'] == 'regression'] + [c for _, c in under]
    check(len(rows) == len(want), 'md: %d rows before the fold, want %d' % (len(rows), len(want)))
    kinds = ['regression' if '**regression' in r else 'under' for r in rows]
    check(kinds == sorted(kinds, key=lambda k: k != 'regression'), 'md: regressions first')
    check(not re.search(r'(^|[\s(=])/[A-Za-z]', md, re.M), 'md: an absolute path: %r' %
          (re.search(r'(^|[\s(=])/[A-Za-z].{0,40}', md, re.M) or [''])[0])
    no_hidden('md', md)

if 'junit' in opts:
    root = ET.parse(opts['junit']).getroot()
    check(root.tag == 'testsuites', 'junit: root %r' % root.tag)
    cases = root.findall('testsuite/testcase')
    gate_cases = [tc for ts in root.findall('testsuite') if not ts.get('name').startswith(('error ', 'skipped '))
                  for tc in ts.findall('testcase')]
    check(len(gate_cases) == len(cells), 'junit: %d testcases, want one per cell (%d)' % (len(gate_cases), len(cells)))
    check(sum(len(tc.findall('failure')) for tc in cases) == regressions, 'junit: failures')
    check(sum(len(tc.findall('skipped')) for tc in gate_cases) == inconclusive, 'junit: skipped')
    check(sum(len(tc.findall('error')) for tc in cases) == len(doc['errors']), 'junit: errors')
    check(int(root.get('failures')) == regressions, 'junit: testsuites failures=')
    check([tc.get('name') for tc in gate_cases] == [label(c) for _, c in cells], 'junit: testcase names')
    # the time each gate took (its runs'), never a 0 for a time not known: a cell's own is not recorded
    gate_suites = [ts for ts in root.findall('testsuite') if not ts.get('name').startswith(('error ', 'skipped '))]
    for ts, g in zip(gate_suites, doc['gates']):
        check(same_time(ts.get('time'), gate_seconds(g)), 'junit: testsuite %s time=%r, its runs took %r' %
              (ts.get('name'), ts.get('time'), gate_seconds(g)))
    known = [gate_seconds(g) for g in doc['gates'] if gate_seconds(g) is not None]
    check(same_time(root.get('time'), sum(known) if known else None), 'junit: testsuites time=%r' % root.get('time'))
    check(all(tc.get('time') is None for tc in cases), 'junit: a testcase with a time the document does not hold')
    for tc, (g, c) in zip(gate_cases, cells):
        out = tc.findtext('system-out') or ''
        if c['under_threshold']:
            check(c['finding'] in out, 'junit: %s does not say it is under the threshold' % tc.get('name'))
    no_hidden('junit', open(opts['junit'], encoding='utf-8').read())

if 'codequality' in opts:
    issues = json.load(open(opts['codequality']))
    check(len(issues) == regressions + len(under) + count('inconclusive') + len(doc['errors']),
          'codequality: %d issues' % len(issues))
    check(len({i['fingerprint'] for i in issues}) == len(issues), 'codequality: fingerprints not unique')
    for i in issues:
        check(i['severity'] in ('info', 'minor', 'major', 'critical', 'blocker') and i['description'] and
              i['location']['path'] and i['location']['lines']['begin'] >= 1, 'codequality: %r' % i)
        check(not i['location']['path'].startswith('/'), 'codequality: absolute path')

if 'annotations' in opts:
    lines = open(opts['annotations'], encoding='utf-8').read().splitlines()
    cmds = [l for l in lines if l.startswith('::')]
    errors = [l for l in cmds if l.startswith('::error ')]
    warns = [l for l in cmds if l.startswith('::warning ')]
    check(len(errors) == min(regressions, 10) + (regressions > 10) + len(doc['errors']), 'annotations: %d ::error' % len(errors))
    check(len(warns) == min(len(under), 10) + (len(under) > 10), 'annotations: %d ::warning' % len(warns))
    # the only other commands: pausing and resuming them around the text
    other = [l for l in cmds if not l.startswith(('::error ', '::warning ', '::notice '))]
    paused = [l for l in other if re.fullmatch(r'::stop-commands::patchbench-[0-9a-f]{32}', l)]
    resumed = [l for l in other if re.fullmatch(r'::patchbench-[0-9a-f]{32}::', l)]
    check(len(paused) + len(resumed) == len(other) and len(paused) == len(resumed),
          'annotations: other commands %r' % other)
    no_hidden('annotations', '\n'.join(cmds))

for b in bad:
    print('FAIL ' + b)
sys.exit(1 if bad else 0)
