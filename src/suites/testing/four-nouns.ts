import { contentHash, type Item, type TestDefinition, type VersionedItem } from '../../core/index.js';

/** Four Irish nouns with their genitive, as grammar_forms items: planning and engine tests share them. */
export const fourNouns: VersionedItem[] = ['iarnród:iarnróid', 'bean:mná', 'cat:cait', 'teach:tí'].map(pair => {
  const [lemma, form] = pair.split(':') as [string, string];
  const item: Item = {
    id: lemma, test: 'grammar_forms', language: 'ga', input: { lemma }, accepted: [form], source: 'test',
    licence: 'ODbL-1.0', evidence: 'bunamo-form', visibility: 'public', contamination: 'public-source', human_checked: false,
  };
  return { item, hash: contentHash(item) };
});

/** A one-step test over them whose request carries the gold hint. */
export const lemmaTest: TestDefinition = {
  name: 'grammar_forms', promptVersion: 'v1', description: 'form',
  render: (item, previous) => (previous.length ? null : { messages: [{ role: 'user', content: String(item.input.lemma) }], params: {}, hints: { gold: item.accepted![0]! } }),
  scorers: [],
};
