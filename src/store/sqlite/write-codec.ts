import type { WriteOp } from './write-batch.js';

/**
 * Queued writes as one string: a batch goes to the commit thread as a single flat string instead of
 * a structured clone of thousands of small objects and values, which cost the event loop ~9 us a
 * trial (call and result) against ~1 us for this. Each value is a tag and its payload: `s<length>:`
 * and the string (its length in UTF-16 units), `n<number>;`, `z` null, `u` undefined, `x<length>:`
 * and base64 bytes. A write is its fence (three values or three nulls), its status (likewise), its
 * row count, then per row the statement's name, its argument count and the arguments; a batch is
 * its writes, each framed as a string value, so the thread can decode one at a time.
 */
export function encodeWrite(op: WriteOp): string {
  const body = encodeBody(op);
  return `s${body.length}:${body}`;
}

function encodeBody(op: WriteOp): string {
  // Joined, not appended: join writes one flat string while its parts are fresh. Appended parts
  // make a tree of thousands of leaves per batch, which the send then walks scattered over the
  // heap (~350 us a batch of 150 writes, against ~20 us for 150 flat strings).
  const parts: string[] = [];
  if (op.fence) parts.push(value(op.fence.runId), value(op.fence.trialId), value(op.fence.workerId));
  else parts.push('zzz');
  if (op.status) parts.push(value(op.status[0]), value(op.status[1]), value(op.status[2]));
  else parts.push('zzz');
  parts.push(`n${op.rows.length};`);
  for (const [name, args] of op.rows) {
    parts.push(value(name), `n${args.length};`);
    for (const a of args) parts.push(value(a));
  }
  return parts.join('');
}

function value(v: unknown): string {
  if (typeof v === 'string') return `s${v.length}:${v}`;
  if (typeof v === 'number') return `n${v};`;
  if (v === null) return 'z';
  if (v === undefined) return 'u';
  if (v instanceof Uint8Array) {
    const text = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    return `x${text.length}:${text}`;
  }
  throw new TypeError(`the store cannot write a value of type ${typeof v}`);
}

/**
 * The writes of a batch, each still encoded (slices of the batch's text). The commit thread runs
 * this function from its source text, so it uses nothing from outside its own body.
 */
export function splitWrites(text: string): string[] {
  const writes: string[] = [];
  let at = 0;
  while (at < text.length) {
    const colon = text.indexOf(':', at);
    if (text[at] !== 's' || colon < 0) throw new Error(`bad write batch at ${at}: no write starts there`);
    const length = Number(text.slice(at + 1, colon));
    writes.push(text.slice(colon + 1, colon + 1 + length));
    at = colon + 1 + length;
  }
  return writes;
}

/**
 * One write from its encoding. Decoded just before it is applied, its objects die young. The
 * commit thread runs this function from its source text, so it uses nothing from outside its own body.
 */
export function decodeWrite(text: string): WriteOp {
  let at = 0;
  const read = (): unknown => {
    const tag = text[at++];
    if (tag === 'z') return null;
    if (tag === 'u') return undefined;
    if (tag === 'n') {
      const end = text.indexOf(';', at);
      const n = Number(text.slice(at, end));
      at = end + 1;
      return n;
    }
    if (tag === 's' || tag === 'x') {
      const colon = text.indexOf(':', at);
      const length = Number(text.slice(at, colon));
      const s = text.slice(colon + 1, colon + 1 + length);
      at = colon + 1 + length;
      return tag === 's' ? s : Buffer.from(s, 'base64');
    }
    throw new Error(`bad write at ${at - 1}: tag ${JSON.stringify(tag)}`);
  };
  const op: WriteOp = { rows: [] };
  const runId = read() as string | null;
  const trialId = read() as string | null;
  const workerId = read() as string | null;
  if (runId !== null) op.fence = { runId, trialId: trialId!, workerId: workerId! };
  const statusRun = read() as string | null;
  const statusTrial = read() as string | null;
  const status = read() as string | null;
  if (statusRun !== null) op.status = [statusRun, statusTrial!, status!];
  const rows = read() as number;
  for (let r = 0; r < rows; r++) {
    const name = read() as WriteOp['rows'][number][0];
    const count = read() as number;
    const args: unknown[] = [];
    for (let k = 0; k < count; k++) args.push(read());
    op.rows.push([name, args]);
  }
  if (at !== text.length) throw new Error(`bad write: ${text.length - at} characters after its end`);
  return op;
}

/** Every write of a batch's text, decoded. */
export function decodeWrites(text: string): WriteOp[] {
  return splitWrites(text).map(decodeWrite);
}
