import { describe, expect, it } from 'vitest';
import { DirectionSyntaxError, parseDirection } from './router.js';
import { bindRouter, ROUTER_NAMES, type RouteContext } from './routers.js';

function errorOf(line: string, bind = false): DirectionSyntaxError {
  try {
    const parsed = parseDirection(line);
    if (bind && parsed.to.kind === 'router') bindRouter(parsed.to.call);
  } catch (error) {
    if (error instanceof DirectionSyntaxError) return error;
    throw error;
  }
  throw new Error(`no error for: ${line}`);
}

function router(line: string) {
  const parsed = parseDirection(line);
  if (parsed.to.kind !== 'router') throw new Error('not a router edge');
  return bindRouter(parsed.to.call);
}

function ctx(message: string, turns: Record<string, number> = {}, source = 'teacher'): RouteContext {
  return { source, message, turnsOf: a => turns[a] ?? 0 };
}

describe('parseDirection', () => {
  it('parses plain edges, hyphenated and non-Latin names, and quoted nodes', () => {
    expect(parseDirection('START -> teacher')).toEqual({ from: { name: 'START', column: 1 }, to: { kind: 'node', node: { name: 'teacher', column: 10 } } });
    expect(parseDirection('peer-tutor->END').from.name).toBe('peer-tutor');
    expect(parseDirection('老师 -> "学生"').to).toEqual({ kind: 'node', node: { name: '学生', column: 7 } });
  });

  it('parses the ELMES router edge with lists, strings, bare names, single quotes and a trailing comma', () => {
    const p = parseDirection(`teacher -> router:any_keyword_route(keywords=["<end>", 'class dismissed',], exists_to=END, else_to="student")`);
    expect(p.to.kind).toBe('router');
    if (p.to.kind !== 'router') return;
    expect(p.to.call.name).toBe('any_keyword_route');
    expect(p.to.call.args.get('keywords')?.value).toMatchObject({ kind: 'list', items: [{ value: '<end>' }, { value: 'class dismissed' }] });
    expect(p.to.call.args.get('exists_to')?.value).toMatchObject({ kind: 'name', value: 'END' });
    expect(p.to.call.args.get('else_to')?.value).toMatchObject({ kind: 'string', value: 'student' });
  });

  it('reads escapes inside strings', () => {
    const p = parseDirection('a -> router:any_keyword_route(keywords=["say \\"bye\\""], exists_to=END, else_to=b)');
    if (p.to.kind !== 'router') throw new Error();
    expect(p.to.call.args.get('keywords')?.value).toMatchObject({ items: [{ value: 'say "bye"' }] });
  });

  // The third column is the text the error must point at (its first occurrence after `from`).
  it.each([
    ['teacher student', 'student', /expected "->"/],
    ['teacher -> ', '', /expected the node the edge goes to/],
    ['a -> b -> c', '-> c', /one edge per line/],
    ['a -> router:any_keyword_route(keywords=["x"], exists_to=END', '', /expected "," or "\)"/],
    ['a -> router:any_keyword_route(keywords=["x], exists_to=END)', '"x]', /unterminated string/],
    ['a -> router:any_keyword_route(keywords=["x"] exists_to=END)', 'exists_to', /expected "," or "\)"/],
    ['a -> router:any_keyword_route(keywords=["x"], exists_to=END, else_to=b, else_to=c)', 'else_to=c', /given twice/],
    ['a -> router:any_keyword_route(keywords=["x"], exists_to=@)', '@', /unexpected character "@"/],
    ['a -> router:(x=1)', '(', /a router name/],
    ['a -> router:any_keyword_route keywords', 'keywords', /"\(" after the router name/],
  ])('points at the column of a syntax error: %s', (line, at, message) => {
    const e = errorOf(line);
    expect(e.message).toMatch(message);
    expect(e.column).toBe(at === '' ? line.length + 1 : line.indexOf(at) + 1);
  });
});

describe('bindRouter', () => {
  it('lists the known routers for an unknown name, with a hint for a near miss', () => {
    const e = errorOf('a -> router:any_keywords_route(keywords=["x"], exists_to=END, else_to=b)', true);
    expect(e.column).toBe(13);
    expect(e.message).toContain('did you mean "any_keyword_route"');
    for (const name of ROUTER_NAMES) expect(e.message).toContain(name);
    expect(ROUTER_NAMES).toEqual(['any_keyword_route', 'all_keyword_route', 'turn_limit_route']);
  });

  it.each([
    ['a -> router:any_keyword_route(keyword=["x"], exists_to=END, else_to=b)', 'keyword=', /no argument "keyword" \(did you mean "keywords"\?\)/],
    ['a -> router:any_keyword_route(keywords="x", exists_to=END, else_to=b)', '"x"', /"keywords" must be a list of strings/],
    ['a -> router:any_keyword_route(keywords=[], exists_to=END, else_to=b)', '[]', /non-empty list/],
    ['a -> router:any_keyword_route(keywords=[1], exists_to=END, else_to=b)', '[1]', /list of non-empty strings/],
    ['a -> router:any_keyword_route(keywords=["x"], else_to=b)', 'any_keyword_route', /needs the argument "exists_to"/],
    ['a -> router:any_keyword_route(keywords=["x"], exists_to=3, else_to=b)', '3', /must be a node name/],
    ['a -> router:turn_limit_route(max_turns=0, else_to=b)', '0', /whole number >= 1/],
    ['a -> router:turn_limit_route(max_turns=2.5, else_to=b)', '2.5', /whole number >= 1/],
    ['a -> router:any_keyword_route(keywords=["x"], exists_to=END, else_to=b, think_as_message="yes")', '"yes"', /true or false/],
  ])('checks arguments with their column: %s', (line, at, message) => {
    const e = errorOf(line, true);
    expect(e.message).toMatch(message);
    expect(e.column).toBe(line.indexOf(at) + 1);
  });

  it('any_keyword_route: any keyword, case-insensitive, reasoning ignored unless think_as_message', () => {
    const r = router('teacher -> router:any_keyword_route(keywords=["<end>", "Class dismissed"], exists_to=END, else_to="student")');
    expect(r.targets.map(t => t.name)).toEqual(['END', 'student']);
    expect(r.route(ctx('Good work. <END>')).to).toBe('END');
    expect(r.route(ctx('class DISMISSED everyone')).to).toBe('END');
    expect(r.route(ctx('What next?')).to).toBe('student');
    expect(r.route(ctx('<think>maybe I should write <end></think>What next?')).to).toBe('student');
    const raw = router('t -> router:any_keyword_route(keywords=["<end>"], exists_to=END, else_to=s, think_as_message=true)');
    expect(raw.route(ctx('<think><end></think>go on')).to).toBe('END');
  });

  it('all_keyword_route needs every keyword', () => {
    const r = router('t -> router:all_keyword_route(keywords=["answer", "check"], exists_to=END, else_to=s)');
    expect(r.route(ctx('The answer is 3; check it.')).to).toBe('END');
    expect(r.route(ctx('The answer is 3.')).to).toBe('s');
  });

  it('turn_limit_route counts the turns of the agent the edge leaves from', () => {
    const r = router('teacher -> router:turn_limit_route(max_turns=3, else_to="student")');
    expect(r.targets.map(t => t.name).sort()).toEqual(['END', 'student']);
    expect(r.route(ctx('x', { teacher: 2, student: 9 }))).toEqual({ to: 'student', by: 'condition' });
    expect(r.route(ctx('x', { teacher: 3 }))).toEqual({ to: 'END', by: 'max_turns' });
    const elsewhere = router('t -> router:turn_limit_route(max_turns=1, exceeded_to=summary, else_to=s)');
    expect(elsewhere.route(ctx('x', { t: 1 }, 't')).to).toBe('summary');
  });

  it('every router takes a per-loop max_turns, which wins over its condition', () => {
    const r = router('teacher -> router:any_keyword_route(keywords=["<end>"], exists_to=END, else_to=student, max_turns=2)');
    expect(r.route(ctx('go on', { teacher: 1 }))).toEqual({ to: 'student', by: 'condition' });
    expect(r.route(ctx('go on', { teacher: 2 }))).toEqual({ to: 'END', by: 'max_turns' });
    // Without max_turns the default exceeded_to is not a target of the edge.
    expect(router('t -> router:any_keyword_route(keywords=["x"], exists_to=a, else_to=b)').targets.map(t => t.name)).toEqual(['a', 'b']);
  });

  it('accepts the newer ELMES names ending in _router', () => {
    expect(router('t -> router:any_keyword_router(keywords=["x"], exists_to=END, else_to=s)').name).toBe('any_keyword_route');
  });
});

describe('router arguments are looked up among their own names only', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('refuses an argument named %s', name => {
    const e = errorOf(`teacher -> router:any_keyword_route(keywords=["x"], exists_to=END, else_to=END, ${name}=1)`, true);
    expect(e.message).toMatch(new RegExp(`any_keyword_route has no argument "${name}"`));
  });
});
