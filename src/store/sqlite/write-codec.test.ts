import { describe, expect, it } from 'vitest';
import type { WriteOp } from './write-batch.js';
import { decodeWrite, decodeWrites, encodeWrite, splitWrites } from './write-codec.js';

const ops: WriteOp[] = [
  {
    fence: { runId: 'run-1', trialId: 't:1;2', workerId: 'w-9' },
    rows: [['insertCall', [
      'run-1', 't:1;2', 'run-1', 't:1;2', 0, 'rq', '{"messages":[{"role":"user","content":"Cén fáth? 𝔸 s3:x n1; z"}]}', 'ok',
      '{"text":"iarnróid"}', null, 1, 1.5, 0.000001, 0, '2026-01-01T00:00:01.000Z', undefined, '',
    ]]],
    cacheKey: 'rq',
  },
  {
    status: ['run-1', 't2', 'failed'],
    rows: [['insertScore', ['run-1', 't2', 'run-1', 't2', 'exact', '1', '{}', -0.25, 'wrong', null]], ['insertJudgment', ['run-1', 'j', 't2', '1', '{"a":1e-7}']]],
  },
  { rows: [['putBlob', ['abc', 'image/png', 5, Buffer.from([0, 255, 58, 59, 10])]]] },
  { rows: [] },
];

describe('the commit thread encoding of writes', () => {
  it('gives back every write as it was: fences, statuses, text with any character, numbers, null, undefined and bytes', () => {
    const decoded = decodeWrites(ops.map(encodeWrite).join(''));
    // The cache key stays with the writer; it does not travel.
    expect(decoded).toEqual(ops.map(({ cacheKey: _, ...op }) => op));
    expect(Buffer.isBuffer(decoded[2]!.rows[0]![1][3])).toBe(true);
  });

  it('splits and decodes from their source text alone, as the thread runs them', () => {
    const split = new Function(`return (${splitWrites.toString()})`)() as typeof splitWrites;
    const decode = new Function(`return (${decodeWrite.toString()})`)() as typeof decodeWrite;
    const text = ops.map(encodeWrite).join('');
    expect(split(text).map(decode)).toEqual(decodeWrites(text));
  });

  it('refuses a value it cannot write, and a batch it cannot read', () => {
    expect(() => encodeWrite({ rows: [['release', ['run', true]]] })).toThrow(/cannot write a value of type boolean/);
    expect(() => decodeWrites('s10:zzzzzzn1;q')).toThrow(/bad write at 9/);
    expect(() => decodeWrites('s9:zzzzzzn0;x')).toThrow(/bad write batch at 12/);
    expect(() => decodeWrite('zzzzzzn0;zz')).toThrow(/2 characters after its end/);
  });
});
