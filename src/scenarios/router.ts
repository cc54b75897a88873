/**
 * Direction lines and router expressions, e.g.
 *   teacher -> router:any_keyword_route(keywords=["<end>"], exists_to=END, else_to="student")
 * A hand-written tokenizer and recursive-descent parser: the config names a registered router and
 * gives it literal arguments; nothing in a config is ever evaluated as code.
 */

/** A problem in one direction line; `column` is 1-based. */
export class DirectionSyntaxError extends Error {
  constructor(message: string, readonly column: number) {
    super(message);
    this.name = 'DirectionSyntaxError';
  }
}

type TokenKind = 'ident' | 'string' | 'number' | 'arrow' | '(' | ')' | '[' | ']' | ',' | '=' | ':' | 'end';
interface Token { kind: TokenKind; text: string; value?: string | number; column: number }

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  const chars = [...line];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    const column = i + 1;
    if (/\s/u.test(c)) { i++; continue; }
    if (c === '-' && chars[i + 1] === '>') { tokens.push({ kind: 'arrow', text: '->', column }); i += 2; continue; }
    if ('()[],=:'.includes(c)) { tokens.push({ kind: c as TokenKind, text: c, column }); i++; continue; }
    if (c === '"' || c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        const d = chars[j];
        if (d === undefined) throw new DirectionSyntaxError(`unterminated string (opened with ${c})`, column);
        if (d === c) break;
        if (d === '\\') {
          const e = chars[j + 1];
          if (e === undefined) throw new DirectionSyntaxError('unterminated string (ends in a backslash)', column);
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          j += 2;
        } else { value += d; j++; }
      }
      tokens.push({ kind: 'string', text: chars.slice(i, j + 1).join(''), value, column });
      i = j + 1;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(chars[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < chars.length && /[0-9.]/.test(chars[j]!)) j++;
      const text = chars.slice(i, j).join('');
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw new DirectionSyntaxError(`bad number "${text}"`, column);
      tokens.push({ kind: 'number', text, value: Number(text), column });
      i = j;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      // A hyphen belongs to a name ("peer-tutor") unless it starts an arrow.
      while (j < chars.length && (IDENT_PART.test(chars[j]!) || (chars[j] === '-' && chars[j + 1] !== '>'))) j++;
      const text = chars.slice(i, j).join('');
      tokens.push({ kind: 'ident', text, value: text, column });
      i = j;
      continue;
    }
    throw new DirectionSyntaxError(`unexpected character "${c}"`, column);
  }
  tokens.push({ kind: 'end', text: 'end of line', column: chars.length + 1 });
  return tokens;
}

/** A literal argument value. Bare names (END, student) are kept as names: targets may be written either way. */
export type ArgValue =
  | { kind: 'string'; value: string; column: number }
  | { kind: 'name'; value: string; column: number }
  | { kind: 'number'; value: number; column: number }
  | { kind: 'bool'; value: boolean; column: number }
  | { kind: 'list'; items: ArgValue[]; column: number };

export interface RouterCall {
  name: string;
  column: number;
  args: Map<string, { value: ArgValue; column: number }>;
}

export interface NodeRef { name: string; column: number }

export interface ParsedDirection {
  from: NodeRef;
  to: { kind: 'node'; node: NodeRef } | { kind: 'router'; call: RouterCall };
}

/** Parse one direction line: `A -> B` or `A -> router:name(arg=value, ...)`. */
export function parseDirection(line: string): ParsedDirection {
  const p = new Parser(tokenize(line));
  const from = p.node('the node an edge leaves from');
  p.expect('arrow', '"->"');
  let to: ParsedDirection['to'];
  const head = p.peek();
  if (head.kind === 'ident' && head.text === 'router' && p.peek(1).kind === ':') {
    p.next();
    p.next();
    to = { kind: 'router', call: p.call() };
  } else {
    to = { kind: 'node', node: p.node('the node the edge goes to') };
  }
  const rest = p.peek();
  if (rest.kind === 'arrow') throw new DirectionSyntaxError('one edge per line: write "A -> B" and "B -> C" as two lines', rest.column);
  p.expect('end', 'the end of the line');
  return { from, to };
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(ahead = 0): Token { return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!; }
  next(): Token { return this.tokens[Math.min(this.i++, this.tokens.length - 1)]!; }
  expect(kind: TokenKind, what: string): Token {
    const t = this.peek();
    if (t.kind !== kind) throw new DirectionSyntaxError(`expected ${what}, found ${describe(t)}`, t.column);
    return this.next();
  }
  node(what: string): NodeRef {
    const t = this.peek();
    if (t.kind === 'string') { this.next(); return { name: t.value as string, column: t.column }; }
    const id = this.expect('ident', what);
    return { name: id.text, column: id.column };
  }
  call(): RouterCall {
    const name = this.expect('ident', 'a router name, e.g. any_keyword_route');
    this.expect('(', `"(" after the router name "${name.text}"`);
    const args = new Map<string, { value: ArgValue; column: number }>();
    while (this.peek().kind !== ')') {
      const key = this.expect('ident', 'an argument name (routers take name=value arguments)');
      if (args.has(key.text)) throw new DirectionSyntaxError(`argument "${key.text}" is given twice`, key.column);
      this.expect('=', `"=" after the argument name "${key.text}"`);
      args.set(key.text, { value: this.value(), column: key.column });
      if (this.peek().kind === ',') this.next();
      else if (this.peek().kind !== ')') throw new DirectionSyntaxError(`expected "," or ")", found ${describe(this.peek())}`, this.peek().column);
    }
    this.next();
    return { name: name.text, column: name.column, args };
  }
  value(): ArgValue {
    const t = this.next();
    switch (t.kind) {
      case 'string': return { kind: 'string', value: t.value as string, column: t.column };
      case 'number': return { kind: 'number', value: t.value as number, column: t.column };
      case 'ident':
        if (t.text === 'true' || t.text === 'True') return { kind: 'bool', value: true, column: t.column };
        if (t.text === 'false' || t.text === 'False') return { kind: 'bool', value: false, column: t.column };
        return { kind: 'name', value: t.text, column: t.column };
      case '[': {
        const items: ArgValue[] = [];
        while (this.peek().kind !== ']') {
          items.push(this.value());
          if (this.peek().kind === ',') this.next();
          else if (this.peek().kind !== ']') throw new DirectionSyntaxError(`expected "," or "]", found ${describe(this.peek())}`, this.peek().column);
        }
        this.next();
        return { kind: 'list', items, column: t.column };
      }
      default:
        throw new DirectionSyntaxError(`expected a value (a "string", a number, true/false, a name or a [list]), found ${describe(t)}`, t.column);
    }
  }
}

function describe(t: Token): string {
  return t.kind === 'end' ? 'the end of the line' : `"${t.text}"`;
}
