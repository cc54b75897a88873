import type { Store, VersionedItem } from '../core/index.js';

/** The item versions a run plans, a page of `limit` at a time in hash order, so a large run's items are never read at once. */
export async function eachRunItemPage(store: Store, runId: string, limit: number, use: (page: VersionedItem[]) => void): Promise<void> {
  for (let afterHash: string | undefined; ;) {
    const page = await store.listRunItemPage(runId, { limit, ...(afterHash !== undefined ? { afterHash } : {}) });
    use(page);
    if (page.length < limit) return;
    afterHash = page.at(-1)!.hash;
  }
}
