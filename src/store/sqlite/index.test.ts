import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../index.js';
import { storeConformance } from '../store.case.js';

storeConformance('sqlite', async () => openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-')), 'p.db')}`));

describe('sqlite store', () => {
  it('reopens a file with its data and does not re-run migrations', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paideia-')), 'nested', 'p.db');
    const a = await openStore(`sqlite:${file}`);
    await a.putArtifact('r', 'k', 'x', 1);
    await a.close();
    const b = await openStore(`sqlite:${file}`);
    expect(await b.listArtifacts('r', 'k')).toEqual([{ key: 'x', value: 1 }]);
    await b.close();
  });
  it('rejects an unknown store URL naming the flag', async () => {
    await expect(openStore('mysql://x')).rejects.toThrow(/--store.*unsupported store URL/);
  });
});
